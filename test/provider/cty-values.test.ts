// The provider's cty msgpack codec on its own: primitives, unknowns kept byte for byte, collections, objects.
import { describe, expect, it } from "vitest";
import { BigNumber, Dynamic, UNKNOWN, Unknown, ValueError, equal, fromJSON, type CtyType, type Value } from "../../provider/values/cty.js";
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
    for (const n of [
      0,
      1,
      127,
      128,
      -1,
      -32,
      -33,
      255,
      65_535,
      2 ** 31,
      -(2 ** 31),
      2 ** 40,
      Number.MAX_SAFE_INTEGER,
      1.5,
      -0.25,
      1e-300,
      Infinity,
      -Infinity,
    ]) {
      expect(roundTrip("number", n)).toBe(n);
    }
    // a float64 integer beyond int64 goes as cty writes it: its shortest decimal, then read at cty's precision
    expect(hex(encodeMsgpack("number", 1e300))).toBe(`da012d${Buffer.from(`1${"0".repeat(300)}`).toString("hex")}`);
    expect(String(roundTrip("number", 1e300))).toBe(`1${"0".repeat(300)}`);
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
    // an attribute named like an inherited member is null when the state does not hold it (issue 53)
    expect(fromJSON(["object", JSON.parse('{"constructor": "string", "toString": "string"}')], {})).toEqual(
      JSON.parse('{"constructor": null, "toString": null}'),
    );
  });

  it("equal compares deeply, unknowns by bytes", () => {
    expect(equal({ a: ["x", 1] }, { a: ["x", 1] })).toBe(true);
    expect(equal({ a: "x" }, { a: "y" })).toBe(false);
    expect(equal(UNKNOWN, new Unknown(Uint8Array.of(0xd4, 0, 0)))).toBe(true);
    expect(equal(UNKNOWN, null)).toBe(false);
    expect(equal(new BigNumber("1e400"), new BigNumber("1e400"))).toBe(true);
  });
});

// Issue 53: values where the codec and go-cty disagreed.
describe("cty msgpack: names that objects inherit, infinities, and cty's bytes", () => {
  const wire = (h: string) => Buffer.from(h.replace(/ /g, ""), "hex");
  const str = (s: string) => {
    const b = Buffer.from(s);
    return Buffer.concat([Buffer.from([0xa0 | b.length]), b]).toString("hex");
  };

  it("keeps __proto__, constructor and toString as map keys, and as attribute names", () => {
    // map(string) {"__proto__": unknown, "a": "x"}: the whole map turned unknown
    const m = decodeMsgpack(["map", "string"], wire(`82 ${str("__proto__")} d40000 ${str("a")} ${str("x")}`)) as Record<string, Value>;
    expect(m).not.toBeInstanceOf(Unknown);
    expect(Object.keys(m)).toEqual(["__proto__", "a"]);
    expect(Object.getOwnPropertyDescriptor(m, "__proto__")?.value).toBeInstanceOf(Unknown);
    const m2 = decodeMsgpack(["map", "string"], wire(`83 ${str("__proto__")} ${str("p")} ${str("constructor")} ${str("c")} ${str("toString")} ${str("t")}`));
    expect(Object.entries(m2 as object)).toEqual([
      ["__proto__", "p"],
      ["constructor", "c"],
      ["toString", "t"],
    ]);
    expect(hex(encodeMsgpack(["map", "string"], m2))).toBe(`83${str("__proto__")}${str("p")}${str("constructor")}${str("c")}${str("toString")}${str("t")}`);
    // object attributes of those names: read and written back, null when absent
    const type: CtyType = ["object", JSON.parse('{"__proto__": "string", "constructor": "number", "toString": "bool"}')];
    const bytes = wire(`83 ${str("__proto__")} ${str("p")} ${str("constructor")} 01 ${str("toString")} c3`);
    const o = decodeMsgpack(type, bytes);
    expect(hex(encodeMsgpack(type, o))).toBe(hex(bytes));
    expect(hex(encodeMsgpack(type, {}))).toBe(`83${str("__proto__")}c0${str("constructor")}c0${str("toString")}c0`);
    // a schema without them does not reach Object.prototype's members for an attribute of that name
    expect(decodeMsgpack(["object", { a: "string" }], wire(`82 ${str("a")} ${str("x")} ${str("constructor")} 01`))).toEqual({ a: "x" });
    expect(decodeMsgpack(["object", { a: "string" }], wire(`81 ${str("toString")} 01`))).toEqual({ a: null });
  });

  it("writes infinities back as cty does (a float64), and refuses NaN", () => {
    for (const h of ["cb7ff0000000000000", "cbfff0000000000000"]) expect(hex(encodeMsgpack("number", decodeMsgpack("number", wire(h))))).toBe(h);
    expect(decodeMsgpack("number", wire(str("Inf")))).toBe(Infinity);
    expect(decodeMsgpack("number", wire(str("-inf")))).toBe(-Infinity);
    expect(() => decodeMsgpack("number", wire("cb7ff8000000000000"))).toThrow(/NaN/);
  });

  it("writes integers in the fewest bytes, as cty does", () => {
    const cases: [string, string][] = [
      ["ce00000080", "cc80"],
      ["d2ffffff80", "d080"],
      ["cd00ff", "ccff"],
      ["d1ff00", "d1ff00"],
      ["cf0000000100000000", "cf0000000100000000"],
      ["cb4330000000000000", "cf0010000000000000"], // 2^52 as a float64: an int, as cty writes it
      // 2^63 as a float64, just beyond int64: the shortest decimal that reads back to it, in text
      ["cb43e0000000000000", `b3${Buffer.from("9223372036854776000").toString("hex")}`],
      ["cb3ff0000000000000", "01"],
      ["cb8000000000000000", "00"], // -0
    ];
    for (const [input, output] of cases) expect([input, hex(encodeMsgpack("number", decodeMsgpack("number", wire(input))))]).toEqual([input, output]);
    // 2^60 as a float64 (not a safe integer): an int64 to cty
    expect(hex(encodeMsgpack("number", 2 ** 60))).toBe("cf1000000000000000");
    expect(hex(encodeMsgpack("number", -(2 ** 63)))).toBe("d38000000000000000");
  });

  it("keeps decimal strings cty wrote as strings, and reads number strings as cty does", () => {
    // 0.1 is no float64: cty writes it as text, and so does the codec after reading it
    expect(hex(encodeMsgpack("number", decodeMsgpack("number", wire(str("0.1")))))).toBe(str("0.1"));
    expect(decodeMsgpack("number", wire(str("0.1")))).toBeInstanceOf(BigNumber);
    // exact float64 or int64 values in text are written as cty writes them
    expect(hex(encodeMsgpack("number", decodeMsgpack("number", wire(str("1.5")))))).toBe("cb3ff8000000000000");
    expect(hex(encodeMsgpack("number", decodeMsgpack("number", wire(str("1e2")))))).toBe("64");
    expect(hex(encodeMsgpack("number", decodeMsgpack("number", wire(str("9007199254740993.0")))))).toBe("cf0020000000000001");
    expect(hex(encodeMsgpack("number", decodeMsgpack("number", wire(str("18446744073709551616")))))).toBe(str("18446744073709551616"));
    for (const bad of ["", " 1", "1 ", "0x10", "1_000", "Infinity", "NaN", "1e", ".", "--1"]) {
      expect(() => decodeMsgpack("number", wire(str(bad))), bad).toThrow(/invalid number/);
    }
    expect(decodeMsgpack("number", wire(str("+.5e1")))).toBe(5);
    // the provider's code reads 0.1 as the float64 0.1 (as terraform-plugin-framework's Float64 does)
    expect(new BigNumber("0.1").nearestFloat()).toBe(0.1);
    expect(new BigNumber("0.10000000000000000001").nearestFloat()).toBeUndefined();
    expect(new BigNumber("9007199254740993").nearestFloat()).toBeUndefined();
  });

  it("orders map keys and attribute names by their UTF-8 bytes, as Go does", () => {
    // U+FF5E sorts before U+1F600 in UTF-8, after it in UTF-16
    const keys = ["\u{1f600}", "\uff5e", "a", "é"];
    const value = Object.fromEntries(keys.map((k) => [k, "v"]));
    const order = (bytes: Uint8Array) => Object.keys(decodeMsgpack(["map", "string"], bytes) as object);
    expect(order(encodeMsgpack(["map", "string"], value))).toEqual(["a", "é", "\uff5e", "\u{1f600}"]);
    const objectType: CtyType = ["object", Object.fromEntries(keys.map((k) => [k, "string"]))];
    expect(order(encodeMsgpack(objectType, value))).toEqual(["a", "é", "\uff5e", "\u{1f600}"]);
  });

  it("writes a dynamic value's type as go-cty does, and refuses a type that is not one", () => {
    const d = new Dynamic(["object", { b: "string", "a<b": ["list", "number"] }], { b: "x", "a<b": [1] });
    const bytes = encodeMsgpack("dynamic", d);
    const typeJSON = '["object",{"a\\u003cb":["list","number"],"b":"string"}]';
    expect(hex(bytes.subarray(0, 3 + typeJSON.length))).toBe(`92c4${typeJSON.length.toString(16)}${Buffer.from(typeJSON).toString("hex")}`);
    expect(hex(encodeMsgpack("dynamic", decodeMsgpack("dynamic", bytes)))).toBe(hex(bytes));
    for (const t of ['["list"]', '"strin"', '["object",{"a":"string"},["a"]]', "{", '["tuple",{}]']) {
      const b = Buffer.concat([wire("92c4"), Buffer.from([t.length]), Buffer.from(t), wire("c0")]);
      expect(() => decodeMsgpack("dynamic", b), t).toThrow(ValueError);
    }
  });

  it("refuses invalid UTF-8 and extensions cty would not read as unknown", () => {
    expect(() => decodeMsgpack("string", wire("a2c328"))).toThrow(/not valid UTF-8/);
    expect(() => decodeMsgpack("string", wire(`d941${"61".repeat(64)}ff`))).toThrow(/not valid UTF-8/);
    expect(decodeMsgpack("string", wire("a3efbfbd"))).toBe("\ufffd"); // a real U+FFFD is kept
    expect(() => decodeMsgpack("string", wire("d5010000"))).toThrow(/unsupported extension type 0x1/);
    expect(() => decodeMsgpack("string", Buffer.concat([wire("c80401 0c"), Buffer.alloc(1025)]))).toThrow(/oversize/);
    expect(decodeMsgpack("string", wire("d40500"))).toBeInstanceOf(Unknown); // one byte: any type, as in cty
  });
});
