// The reference cty encoder of the differential tests, written from go-cty's msgpack rules (marshal.go,
// unknown.go, dynamic.go and Type.MarshalJSON in json.go, go-cty 1.18), with @msgpack/msgpack writing
// the primitives. A value here is a cty value as Go holds it: a number remembers how it was made (an
// int64 or uint64 read from msgpack, a float64, or decimal text read at 512 bits), because that decides
// the form go-cty writes it back in.
import { encode, ExtData } from "@msgpack/msgpack";
import type { CtyType } from "../../../provider/values/cty.js";

export class Num {
  constructor(readonly form: { int: bigint } | { float: number } | { decimal: string }) {}
}
export class Unknown {
  constructor(readonly refinements: Refinements = {}) {}
}
export class Dyn {
  constructor(
    readonly type: CtyType,
    readonly value: RefValue,
  ) {}
}
export interface Refinements {
  notNull?: boolean;
  prefix?: string;
  min?: [Num, boolean];
  max?: [Num, boolean];
  lengthMin?: number;
  lengthMax?: number;
}
export type RefValue = null | string | boolean | Num | Unknown | Dyn | RefValue[] | Map<string, RefValue>;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

const cat = (...parts: Uint8Array[]) => Buffer.concat(parts);
const bytes = (...b: number[]) => Buffer.from(b);

/** An array or map header: fix form below 16, then 16 and 32 bits (vmihailenco/msgpack EncodeArrayLen). */
function header(n: number, fix: number, b16: number): Buffer {
  if (n < 16) return bytes(fix | n);
  if (n < 0x10000) return bytes(b16, n >> 8, n & 255);
  return cat(bytes(b16 + 1), Buffer.from([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]));
}
const arrayHeader = (n: number) => header(n, 0x90, 0xdc);
const mapHeader = (n: number) => header(n, 0x80, 0xde);

/** EncodeInt: the fewest bytes (@msgpack/msgpack does the same for a number; 64-bit forms for a bigint). */
function int(n: bigint): Buffer {
  if (n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER)) return Buffer.from(encode(Number(n)));
  return Buffer.from(encode(n, { useBigInt64: true }));
}
const float64 = (f: number) => {
  const b = Buffer.alloc(9);
  b[0] = 0xcb;
  b.writeDoubleBE(f, 1);
  return b;
};
const str = (s: string) => Buffer.from(encode(s));

/** The exact value of a float64 as decimal text: m * 2^e written out with BigInt. */
function exactDecimal(f: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(f));
  const bits = view.getBigUint64(0);
  const biased = Number(bits >> 52n);
  let m = bits & ((1n << 52n) - 1n);
  if (biased) m |= 1n << 52n;
  const e = (biased || 1) - 1075;
  let text: string;
  if (e >= 0) text = (m << BigInt(e)).toString();
  else {
    const digits = (m * 5n ** BigInt(-e)).toString().padStart(-e + 1, "0");
    text = `${digits.slice(0, digits.length + e)}.${digits.slice(digits.length + e)}`.replace(/\.?0+$/, "");
  }
  return (f < 0 ? "-" : "") + text;
}

/** big.Float.Text('f', -1) of a float64 (precision 53): the fewest significant digits that read back to
 * it, found by trying each precision in turn, written without an exponent. */
function shortestFixed(f: number): string {
  let p = 1;
  while (Number(f.toPrecision(p)) !== f) p++;
  const [mantissa, exp] = f.toExponential(p - 1).split("e") as [string, string];
  const negative = mantissa.startsWith("-");
  const digits = BigInt(mantissa.replace(/[-.]/g, ""));
  const e = Number(exp) - (p - 1);
  return (negative ? "-" : "") + (digits * 10n ** BigInt(e)).toString();
}

/** The number's msgpack bytes, as marshal.go chooses: infinities as float64; an integer that fits int64 as
 * EncodeInt; a non-integer a float64 holds exactly as float64; else Text('f', -1) as a string. */
function number(n: Num): Buffer {
  const form = n.form;
  if ("int" in form) return form.int >= INT64_MIN && form.int <= INT64_MAX ? int(form.int) : str(form.int.toString());
  if ("float" in form) {
    const f = form.float;
    if (!Number.isFinite(f)) return float64(f);
    if (!Number.isInteger(f)) return float64(f);
    const i = BigInt(f);
    return i >= INT64_MIN && i <= INT64_MAX ? int(i) : str(shortestFixed(f));
  }
  // Decimal text (canonical, well under 512 bits of precision: its Text('f', -1) is itself).
  const text = form.decimal;
  if (!text.includes(".")) {
    const i = BigInt(text);
    return i >= INT64_MIN && i <= INT64_MAX ? int(i) : str(text);
  }
  const f = Number(text);
  return exactDecimal(f) === text ? float64(f) : str(text);
}

/** The refinement payload of unknown.go (keys in its order), or none. */
function unknown(type: CtyType, r: Refinements): Buffer {
  if (type === "dynamic") return Buffer.from(encode(new ExtData(0, new Uint8Array([0]))));
  const entries: Buffer[] = [];
  if (r.notNull) entries.push(cat(int(1n), bytes(0xc2)));
  if (type === "number") {
    if (r.min) entries.push(cat(int(3n), arrayHeader(2), number(r.min[0]), bytes(r.min[1] ? 0xc3 : 0xc2)));
    if (r.max) entries.push(cat(int(4n), arrayHeader(2), number(r.max[0]), bytes(r.max[1] ? 0xc3 : 0xc2)));
  } else if (type === "string") {
    if (r.prefix) entries.push(cat(int(2n), str(r.prefix)));
  } else if (type[0] === "list" || type[0] === "set" || type[0] === "map") {
    if (r.lengthMin) entries.push(cat(int(5n), int(BigInt(r.lengthMin))));
    if (r.lengthMax !== undefined) entries.push(cat(int(6n), int(BigInt(r.lengthMax))));
  }
  if (entries.length === 0) return Buffer.from(encode(new ExtData(0, new Uint8Array([0]))));
  return Buffer.from(encode(new ExtData(12, cat(mapHeader(entries.length), ...entries))));
}

const byUtf8Bytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Go's encoding/json string: HTML characters and U+2028/U+2029 escaped, \b \f \n \r \t by name. */
function goJSONString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\b") out += "\\b";
    else if (ch === "\f") out += "\\f";
    else if (c < 0x20 || ch === "<" || ch === ">" || ch === "&" || c === 0x2028 || c === 0x2029) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Type.MarshalJSON. */
export function typeJSON(type: CtyType): string {
  if (typeof type === "string") return `"${type}"`;
  if (type[0] === "tuple") return `["tuple",[${type[1].map(typeJSON).join(",")}]]`;
  if (type[0] === "object") {
    const names = Object.keys(type[1]).sort(byUtf8Bytes);
    return `["object",{${names.map((n) => `${goJSONString(n)}:${typeJSON(type[1][n]!)}`).join(",")}}]`;
  }
  return `["${type[0]}",${typeJSON(type[1])}]`;
}

/** msgpack.Marshal(value, type). */
export function marshal(type: CtyType, value: RefValue): Buffer {
  if (value instanceof Unknown) return unknown(type, value.refinements);
  if (type === "dynamic" && value instanceof Dyn)
    return cat(arrayHeader(2), Buffer.from(encode(Buffer.from(typeJSON(value.type)))), marshal(value.type, value.value));
  if (value === null) return bytes(0xc0);
  if (type === "string") return str(value as string);
  if (type === "bool") return bytes(value ? 0xc3 : 0xc2);
  if (type === "number") return number(value as Num);
  if (type === "dynamic") throw new Error("a dynamic value must be a Dyn");
  switch (type[0]) {
    case "list":
    case "set": {
      const items = value as RefValue[];
      return cat(arrayHeader(items.length), ...items.map((v) => marshal(type[1], v)));
    }
    case "tuple": {
      const items = value as RefValue[];
      return cat(arrayHeader(items.length), ...items.map((v, i) => marshal(type[1][i]!, v)));
    }
    case "map": {
      const m = value as Map<string, RefValue>;
      const keys = [...m.keys()].sort(byUtf8Bytes);
      return cat(mapHeader(keys.length), ...keys.flatMap((k) => [str(k), marshal(type[1], m.get(k)!)]));
    }
    case "object": {
      const m = value as Map<string, RefValue>;
      const names = Object.keys(type[1]).sort(byUtf8Bytes);
      return cat(mapHeader(names.length), ...names.flatMap((k) => [str(k), marshal(type[1][k]!, m.get(k) ?? null)]));
    }
  }
}
