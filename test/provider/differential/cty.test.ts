// The provider's cty msgpack codec against a reference: go-cty's msgpack rules (cty-reference.ts) over
// generated types and values of every kind (unknowns and refined unknowns, dynamic values, names that
// objects inherit, numbers of every form cty keeps exactly). What go-cty writes, the codec reads to the
// value it holds and writes back byte for byte; @msgpack/msgpack reads the same bytes to the same data.
// Issue 53.
import { decode, encode, ExtData } from "@msgpack/msgpack";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BigNumber, Dynamic, Unknown, type CtyType, type Value } from "../../../provider/values/cty.js";
import { decodeMsgpack, encodeMsgpack } from "../../../provider/values/cty-msgpack.js";
import { Dyn, marshal, Num, type RefValue, type Refinements, Unknown as RefUnknown, typeJSON } from "./cty-reference.js";
import { runs, TIMEOUT } from "./settings.js";

// ---- generators ----

const nfc = (s: string) => s.normalize("NFC");
const text = fc.string({ unit: "binary", maxLength: 12 }).map(nfc);
const longText = fc.string({ unit: "binary", minLength: 20, maxLength: 400 }).map(nfc);
const name = fc.oneof(fc.constantFrom("__proto__", "constructor", "toString", "valueOf", "", "a<b&c", "\u{1f600}", "\uff5e", "é"), text);

/** Canonical decimal text (no "+", no leading or trailing zeros): what ParseNumberVal keeps exactly. */
const decimal = fc
  .tuple(fc.boolean(), fc.stringMatching(/^(0|[1-9][0-9]{0,40})$/), fc.stringMatching(/^([0-9]{0,30}[1-9])?$/))
  .map(([negative, whole, fraction]) => `${negative && (whole !== "0" || fraction) ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`);
const num: fc.Arbitrary<Num> = fc.oneof(
  fc.bigInt(-(2n ** 63n), 2n ** 64n - 1n).map((int) => new Num({ int })),
  fc.integer({ min: -1000, max: 1000 }).map((i) => new Num({ int: BigInt(i) })),
  fc.double({ noNaN: true }).map((float) => new Num({ float })),
  // float64 integers around and beyond int64's ends, which cty writes as ints or as their shortest text
  fc
    .tuple(fc.double({ noNaN: true, min: 2 ** 62, max: 2 ** 80 }), fc.boolean())
    .map(([f, negative]) => new Num({ float: Math.round(f) * (negative ? -1 : 1) })),
  decimal.map((d) => new Num({ decimal: d })),
);

const primitive = fc.constantFrom<CtyType>("string", "number", "bool");
const typeArb: fc.Arbitrary<CtyType> = fc.letrec<{ type: CtyType }>((tie) => ({
  type: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    primitive,
    primitive,
    fc.constant<CtyType>("dynamic"),
    tie("type").map((t): CtyType => ["list", t]),
    tie("type").map((t): CtyType => ["set", t]),
    tie("type").map((t): CtyType => ["map", t]),
    fc.array(tie("type"), { maxLength: 3 }).map((ts): CtyType => ["tuple", ts]),
    fc.uniqueArray(fc.tuple(name, tie("type")), { maxLength: 4, selector: ([n]) => n }).map((attrs): CtyType => ["object", ownObject(attrs)]),
  ),
})).type;

function ownObject<T>(pairs: [string, T][]): Record<string, T> {
  const o: Record<string, T> = {};
  for (const [k, v] of pairs) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  return o;
}

function refinements(type: CtyType): fc.Arbitrary<Refinements> {
  const bound = fc.option(
    fc.tuple(
      num.filter((n) => !("float" in n.form) || Number.isFinite(n.form.float)),
      fc.boolean(),
    ),
    { nil: undefined },
  );
  const extra =
    type === "number"
      ? fc.record({ min: bound, max: bound }, { requiredKeys: [] })
      : type === "string"
        ? fc.record({ prefix: text }, { requiredKeys: [] })
        : typeof type !== "string" && (type[0] === "list" || type[0] === "set" || type[0] === "map")
          ? fc.record(
              { lengthMin: fc.integer({ min: 0, max: 5 }), lengthMax: fc.option(fc.integer({ min: 5, max: 300 }), { nil: undefined }) },
              { requiredKeys: [] },
            )
          : fc.constant({});
  return fc.tuple(fc.boolean(), extra).map(([notNull, r]) => ({ notNull, ...r }));
}

/** A value of `type`: null, unknown (maybe refined), or known. */
function valueOf(type: CtyType, depth = 0): fc.Arbitrary<RefValue> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: refinements(type).map((r) => new RefUnknown(r)) },
    { weight: 6, arbitrary: known(type, depth) },
  );
}

function known(type: CtyType, depth: number): fc.Arbitrary<RefValue> {
  if (type === "string") return fc.oneof(text, longText);
  if (type === "bool") return fc.boolean();
  if (type === "number") return num;
  // a value of a concrete type (unknown ones too) with its type; a wholly unknown one is valueOf's unknown
  if (type === "dynamic") return typeArb.filter((t) => t !== "dynamic").chain((t) => valueOf(t, depth + 1).map((v) => new Dyn(t, v)));
  const size = depth > 2 ? 1 : 3;
  switch (type[0]) {
    case "list":
    case "set":
      return fc.array(valueOf(type[1], depth + 1), { maxLength: size });
    case "tuple":
      return fc.tuple(...type[1].map((t) => valueOf(t, depth + 1)));
    case "map":
      return fc.uniqueArray(fc.tuple(name, valueOf(type[1], depth + 1)), { maxLength: size, selector: ([k]) => k }).map((pairs) => new Map(pairs));
    case "object":
      return fc
        .tuple(...Object.keys(type[1]).map((k) => valueOf(type[1][k]!, depth + 1).map((v) => [k, v] as [string, RefValue])))
        .map((pairs) => new Map(pairs));
  }
}

const typed = typeArb.chain((type) => valueOf(type).map((value) => ({ type, value })));

// ---- what the codec must read ----

type View = null | string | boolean | View[] | { [k: string]: View };

/** The codec's value as plain data: numbers as their decimal text, unknowns as their bytes. */
function viewOurs(v: Value): View {
  if (v === null) return null;
  if (typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number") return `n:${numberText(v)}`;
  if (v instanceof BigNumber) return `n:${v.text}`;
  if (v instanceof Unknown) return `unknown:${Buffer.from(v.raw).toString("hex")}`;
  if (v instanceof Dynamic) return { dynamic: typeJSON(v.type), value: viewOurs(v.value) };
  if (Array.isArray(v)) return v.map(viewOurs);
  return ownObject(Object.keys(v).map((k) => [k, viewOurs(v[k]!)]));
}

const numberText = (n: number) => (Number.isInteger(n) && Math.abs(n) < 2 ** 63 ? BigInt(n).toString() : String(n));

/** The type of a container's element or attribute. */
function inner(type: CtyType, at: number | string): CtyType {
  const t = type as readonly [string, unknown];
  if (t[0] === "tuple") return (t[1] as CtyType[])[at as number]!;
  if (t[0] === "object") return (t[1] as Record<string, CtyType>)[at as string]!;
  return t[1] as CtyType;
}

/** What the codec must hold for a reference value, read from the bytes go-cty wrote: a number from its
 * form on the wire (an int, a float64, or its text), an unknown by its bytes. */
function expected(type: CtyType, v: RefValue): View {
  if (v === null) return null;
  if (v instanceof RefUnknown) return `unknown:${marshal(type, v).toString("hex")}`;
  if (typeof v === "string" || typeof v === "boolean") return v;
  if (v instanceof Num) {
    const read = decode(marshal(type, v), { useBigInt64: true }) as number | bigint | string;
    return `n:${typeof read === "number" ? numberText(read) : String(read)}`;
  }
  if (v instanceof Dyn) return { dynamic: typeJSON(v.type), value: expected(v.type, v.value) };
  if (Array.isArray(v)) return v.map((x, i) => expected(inner(type, i), x));
  return ownObject([...v.entries()].map(([k, x]) => [k, expected(inner(type, k), x)]));
}

/** @msgpack/msgpack's reading of the bytes, as plain data of the same shape as viewOurs. */
function viewReference(type: CtyType, x: unknown): View {
  if (x === null) return null;
  if (x instanceof ExtData) return `unknown:${Buffer.from(encode(x)).toString("hex")}`;
  if (type === "number") return `n:${typeof x === "number" ? numberText(x) : String(x)}`;
  if (type === "string" || type === "bool") return x as string | boolean;
  if (type === "dynamic") {
    const [t, v] = x as [Uint8Array, unknown];
    const concrete = JSON.parse(Buffer.from(t).toString()) as CtyType;
    return { dynamic: typeJSON(concrete), value: viewReference(concrete, v) };
  }
  switch (type[0]) {
    case "list":
    case "set":
      return (x as unknown[]).map((e) => viewReference(type[1], e));
    case "tuple":
      return (x as unknown[]).map((e, i) => viewReference(type[1][i]!, e));
    case "map":
      return ownObject(Object.keys(x as object).map((k) => [k, viewReference(type[1], (x as Record<string, unknown>)[k])]));
    case "object":
      return ownObject(Object.keys(type[1]).map((k) => [k, viewReference(type[1][k]!, (x as Record<string, unknown>)[k] ?? null)]));
  }
}

// ---- the properties ----

describe("cty msgpack codec against go-cty's rules", () => {
  it(
    "reads what go-cty writes to the value it holds, and writes it back byte for byte",
    () => {
      fc.assert(
        fc.property(typed, ({ type, value }) => {
          const bytes = marshal(type, value);
          const read = decodeMsgpack(type, bytes);
          expect(viewOurs(read)).toEqual(expected(type, value));
          expect(Buffer.from(encodeMsgpack(type, read)).toString("hex")).toBe(bytes.toString("hex"));
        }),
        runs(3_000),
      );
    },
    TIMEOUT,
  );

  it(
    "reads the bytes as @msgpack/msgpack does",
    () => {
      fc.assert(
        fc.property(typed, ({ type, value }) => {
          const bytes = marshal(type, value);
          let reference: unknown;
          try {
            reference = decode(bytes, { useBigInt64: true });
          } catch (err) {
            if (/__proto__/.test((err as Error).message)) return; // @msgpack/msgpack refuses that key
            throw err;
          }
          expect(viewOurs(decodeMsgpack(type, bytes))).toEqual(viewReference(type, reference));
        }),
        runs(1_000),
      );
    },
    TIMEOUT,
  );

  it(
    "refuses truncated or corrupted bytes with a ValueError, never another exception",
    () => {
      fc.assert(
        fc.property(typed, fc.nat(), fc.integer({ min: 0, max: 255 }), ({ type, value }, at, byte) => {
          const bytes = marshal(type, value);
          const cut = bytes.subarray(0, at % (bytes.length + 1));
          const flipped = Buffer.from(bytes);
          flipped[at % bytes.length] = byte;
          for (const b of [cut, flipped]) {
            try {
              decodeMsgpack(type, b);
            } catch (err) {
              expect((err as Error).name).toBe("ValueError");
            }
          }
        }),
        runs(2_000),
      );
    },
    TIMEOUT,
  );
});
