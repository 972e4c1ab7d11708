// The provider's cty msgpack codec on its own: primitives, unknowns kept byte for byte, collections, objects.
import { describe, expect, it } from "vitest";
import { BigNumber, Dynamic, UNKNOWN, Unknown, equal, fromJSON, type CtyType, type Value } from "../../provider/values/cty.js";
import { decodeMsgpack, encodeMsgpack } from "../../provider/values/cty-msgpack.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const roundTrip = (type: CtyType, v: Value) => decodeMsgpack(type, encodeMsgpack(type, v));

describe("cty msgpack: primitives", () => {
  it("strings, including long and multi-byte ones", () => {
    for (const s of ["", "a", "x".repeat(31), "x".repeat(32), "é".repeat(200), "y".repeat(70_000)]) expect(roundTrip("string", s)).toBe(s);
    expect(hex(encodeMsgpack("string", "hi"))).toBe("a26869");
  });

  it("bools and null", () => {
    expect(hex(encodeMsgpack("bool", true))).toBe("c3");
    expect(roundTrip("bool", false)).toBe(false);
    expect(hex(encodeMsgpack("string", null))).toBe("c0");
    expect(decodeMsgpack("number", Uint8Array.of(0xc0))).toBeNull();
  });

  it("numbers: ints of every width, floats, and arbitrary precision", () => {
    for (const n of [0, 1, 127, 128, -1, -32, -33, 255, 65_535, 2 ** 31, -(2 ** 31), 2 ** 40, Number.MAX_SAFE_INTEGER, 1.5, -0.25, 1e300]) {
      expect(roundTrip("number", n)).toBe(n);
    }
    // cty writes numbers that fit neither int64 nor float64 as decimal strings
    const big = new BigNumber("123456789012345678901234567890.000000000000000001");
    const wire = encodeMsgpack("number", big);
    expect(wire[0]).toBe(0xd9); // str8
    expect(String(roundTrip("number", big))).toBe(big.text);
    // beyond 2^53 but inside int64: a 64-bit int on the wire, exact on the way back
    const int64 = new BigNumber("9223372036854775807");
    expect(hex(encodeMsgpack("number", int64))).toBe("cf7fffffffffffffff");
    expect(String(roundTrip("number", int64))).toBe("9223372036854775807");
    // decoding the string form of a plain number yields a plain number
    expect(decodeMsgpack("number", Uint8Array.of(0xa3, 0x31, 0x2e, 0x35))).toBe(1.5);
  });
});

describe("cty msgpack: unknowns pass through byte for byte", () => {
  it("plain unknown (ext 0)", () => {
    const v = decodeMsgpack("string", Uint8Array.of(0xd4, 0x00, 0x00));
    expect(v).toBeInstanceOf(Unknown);
    expect((v as Unknown).refined).toBe(false);
    expect(hex(encodeMsgpack("string", v))).toBe("d40000");
    expect(hex(encodeMsgpack("string", UNKNOWN))).toBe("d40000");
  });

  it("refined unknown (ext 12) inside an object keeps its exact bytes", () => {
    // ext8 type 12 carrying a msgpack map {1: true, 2: "https://"} (not-null + string prefix refinements)
    const refinement = Buffer.from("82" + "01c3" + "02a868747470733a2f2f", "hex");
    const ext = Buffer.concat([Buffer.from([0xc7, refinement.length, 0x0c]), refinement]);
    const type: CtyType = ["object", { url: "string", name: "string" }];
    const wire = Buffer.concat([Buffer.from("82a46e616d65a4626c6f67a375726c", "hex"), ext]);
    const v = decodeMsgpack(type, wire) as Record<string, Value>;
    expect(v.name).toBe("blog");
    expect(v.url).toBeInstanceOf(Unknown);
    expect((v.url as Unknown).refined).toBe(true);
    expect(Buffer.from(encodeMsgpack(type, v)).equals(wire)).toBe(true);
  });

  it("an unknown collection or element", () => {
    expect(roundTrip(["list", "string"], UNKNOWN)).toBeInstanceOf(Unknown);
    const v = roundTrip(["set", "string"], ["a", UNKNOWN]) as Value[];
    expect(v[0]).toBe("a");
    expect(v[1]).toBeInstanceOf(Unknown);
  });
});

describe("cty msgpack: collections and structural types", () => {
  it("list, set, map, tuple", () => {
    expect(roundTrip(["list", "number"], [1, 2, 3])).toEqual([1, 2, 3]);
    expect(roundTrip(["set", "string"], ["a", "b"])).toEqual(["a", "b"]);
    expect(roundTrip(["map", "bool"], { b: true, a: false })).toEqual({ a: false, b: true });
    expect(roundTrip(["tuple", ["string", "number"]], ["x", 1])).toEqual(["x", 1]);
    const many = Array.from({ length: 70_000 }, (_, i) => i);
    expect(roundTrip(["list", "number"], many)).toEqual(many);
  });

  it("objects carry every attribute, null when absent, and drop unknown names on decode", () => {
    const type: CtyType = ["object", { a: "string", b: "number" }];
    const wire = encodeMsgpack(type, { a: "x" });
    expect(decodeMsgpack(type, wire)).toEqual({ a: "x", b: null });
    const wider = encodeMsgpack(["object", { a: "string", b: "number", gone: "string" }], { a: "x", b: 1, gone: "y" });
    expect(decodeMsgpack(type, wider)).toEqual({ a: "x", b: 1 });
  });

  it("nested objects in lists (nested blocks)", () => {
    const type: CtyType = ["list", ["object", { name: "string", tags: ["set", "string"] }]];
    const v = [
      { name: "a", tags: ["x"] },
      { name: "b", tags: null },
    ];
    expect(roundTrip(type, v)).toEqual(v);
  });

  it("dynamic values carry their type as JSON", () => {
    const d = new Dynamic(["list", "string"], ["a"]);
    const wire = encodeMsgpack("dynamic", d);
    expect(wire[0]).toBe(0x92);
    const back = decodeMsgpack("dynamic", wire) as Dynamic;
    expect(back.type).toEqual(["list", "string"]);
    expect(back.value).toEqual(["a"]);
    expect(roundTrip("dynamic", null)).toBeNull();
    expect(roundTrip("dynamic", UNKNOWN)).toBeInstanceOf(Unknown);
  });

  it("type mismatches are errors with the attribute path", () => {
    expect(() => encodeMsgpack(["object", { a: "string" }], { a: 1 })).toThrow(/expected string, got a number at a/);
    expect(() => encodeMsgpack(["object", { a: ["list", ["map", "bool"]] }], { a: [{}, { k: "x" }] })).toThrow(/expected bool, got a string at a\[1\]\["k"\]$/);
    const bad = encodeMsgpack(["object", { a: ["list", "string"] }], { a: ["x", "y"] });
    expect(() => decodeMsgpack(["object", { a: ["list", "bool"] }], bad)).toThrow(/expected bool, got 0xa1 at a\[0\]$/);
    // short and long strings, ASCII or not, both ways
    for (const s of ["aé", "€", "x".repeat(64) + "é", "日本語のサイト名"]) expect(roundTrip("string", s)).toBe(s);
    expect(() => decodeMsgpack("string", Uint8Array.of(0xc3))).toThrow(/expected string/);
    expect(() => decodeMsgpack("string", Uint8Array.of(0xa3, 0x61))).toThrow(/end of msgpack data/);
  });
});

describe("state JSON and equality", () => {
  it("fromJSON follows the type and drops attributes it does not know", () => {
    const type: CtyType = ["object", { id: "string", n: "number", tags: ["set", "string"], on: "bool" }];
    expect(fromJSON(type, { id: "x", n: 2, tags: ["a"], on: true, removed: 1 })).toEqual({ id: "x", n: 2, tags: ["a"], on: true });
    expect(fromJSON(type, { id: "x" })).toEqual({ id: "x", n: null, tags: null, on: null });
  });

  it("equal compares deeply, unknowns by bytes", () => {
    expect(equal({ a: ["x", 1] }, { a: ["x", 1] })).toBe(true);
    expect(equal({ a: "x" }, { a: "y" })).toBe(false);
    expect(equal(UNKNOWN, new Unknown(Uint8Array.of(0xd4, 0, 0)))).toBe(true);
    expect(equal(UNKNOWN, null)).toBe(false);
    expect(equal(new BigNumber("1e400"), new BigNumber("1e400"))).toBe(true);
  });
});
