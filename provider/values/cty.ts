// Terraform values (cty) in JavaScript, converted from and to msgpack using a type, because the wire format
// alone cannot tell an object from a map, a set from a list, or where a dynamic value's type travels.
//
//   null -> null        string -> string     bool -> boolean       number -> number | BigNumber
//   list/set/tuple -> Value[]                map/object -> ObjectValue (plain object)
//   unknown -> Unknown (its msgpack bytes kept verbatim: refinements survive the round trip)
//   dynamic -> Dynamic (the concrete type travels with the value)
import { MsgpackError, Reader, Writer } from "./msgpack.js";

export type CtyType =
  | "string"
  | "number"
  | "bool"
  | "dynamic"
  | readonly ["list", CtyType]
  | readonly ["set", CtyType]
  | readonly ["map", CtyType]
  | readonly ["object", { readonly [name: string]: CtyType }]
  | readonly ["tuple", readonly CtyType[]];

/** An unknown value ("known after apply"). `raw` is the complete msgpack ext, plain (type 0) or refined (12). */
export class Unknown {
  constructor(readonly raw: Uint8Array = UNKNOWN_BYTES) {}
  get refined(): boolean {
    return this.raw.length > 0 && !(this.raw[0] === 0xd4 && this.raw[1] === 0);
  }
}
const UNKNOWN_BYTES = Uint8Array.of(0xd4, 0x00, 0x00);
export const UNKNOWN = new Unknown();

/** A number that a float64 cannot hold exactly; `text` is its decimal form as cty writes it. */
export class BigNumber {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** A value of a `dynamic` attribute: its concrete type is part of the value. */
export class Dynamic {
  constructor(
    readonly type: CtyType,
    readonly value: Value,
  ) {}
}

export type Value = null | string | boolean | number | BigNumber | Unknown | Dynamic | Value[] | ObjectValue;
export interface ObjectValue {
  [name: string]: Value;
}

export class ValueError extends Error {
  override name = "ValueError";
  /** Where in the value it went wrong, outermost first: attribute names, list indexes, map keys. */
  readonly steps: (string | number | { key: string })[] = [];
  private readonly base: string;
  constructor(message: string) {
    super(message);
    this.base = message;
  }

  /** Prepends a step as the error travels up through the containers (paths are built only on failure). */
  within(step: string | number | { key: string }): this {
    this.steps.unshift(step);
    const path = this.steps
      .map((s, i) => (typeof s === "number" ? `[${s}]` : typeof s === "object" ? `[${JSON.stringify(s.key)}]` : i === 0 ? s : `.${s}`))
      .join("");
    this.message = `${this.base} at ${path}`;
    return this;
  }
}

function within(err: unknown, step: string | number | { key: string }): never {
  if (err instanceof ValueError) throw err.within(step);
  if (err instanceof MsgpackError) throw new ValueError(err.message).within(step);
  throw err;
}

/** Attribute names of an object type, sorted as they go on the wire (computed once per type). */
const sortedNames = new WeakMap<object, string[]>();
function namesOf(attrs: { readonly [name: string]: CtyType }): string[] {
  let names = sortedNames.get(attrs);
  if (!names) sortedNames.set(attrs, (names = Object.keys(attrs).sort()));
  return names;
}

export const isUnknown = (v: unknown): v is Unknown => v instanceof Unknown;
export const isKnown = (v: Value): boolean => !(v instanceof Unknown);

/** True when the value and everything inside it is known. */
export function isWhollyKnown(v: Value): boolean {
  if (v instanceof Unknown) return false;
  if (v instanceof Dynamic) return isWhollyKnown(v.value);
  if (Array.isArray(v)) return v.every(isWhollyKnown);
  if (v !== null && typeof v === "object" && !(v instanceof BigNumber)) return Object.values(v).every(isWhollyKnown);
  return true;
}

// ---- msgpack -> Value ----

export function decodeMsgpack(type: CtyType, bytes: Uint8Array): Value {
  const r = new Reader(bytes);
  let v: Value;
  try {
    v = readValue(r, type);
  } catch (err) {
    if (err instanceof MsgpackError) throw new ValueError(err.message);
    throw err;
  }
  if (!r.done) throw new ValueError("trailing bytes after msgpack value");
  return v;
}

function readValue(r: Reader, type: CtyType): Value {
  if (r.isNil()) return r.nil();
  if (r.isExt()) return new Unknown(r.raw());
  if (type === "string") return r.str();
  if (type === "bool") return r.bool();
  if (type === "number") return numberFrom(r.num());
  if (type === "dynamic") {
    if (r.arrayLength() !== 2) throw new ValueError("dynamic value must be a [type, value] pair");
    const concrete = JSON.parse(r.str()) as CtyType;
    return new Dynamic(concrete, readValue(r, concrete));
  }
  switch (type[0]) {
    case "list":
    case "set": {
      const n = r.arrayLength();
      const out: Value[] = new Array(n);
      for (let i = 0; i < n; i++) {
        try {
          out[i] = readValue(r, type[1]);
        } catch (err) {
          within(err, i);
        }
      }
      return out;
    }
    case "tuple": {
      const n = r.arrayLength();
      if (n !== type[1].length) throw new ValueError(`tuple of ${type[1].length} elements expected`);
      const out: Value[] = new Array(n);
      for (let i = 0; i < n; i++) {
        try {
          out[i] = readValue(r, type[1][i]!);
        } catch (err) {
          within(err, i);
        }
      }
      return out;
    }
    case "map": {
      const n = r.mapLength();
      const out: ObjectValue = {};
      for (let i = 0; i < n; i++) {
        const k = r.str();
        try {
          out[k] = readValue(r, type[1]);
        } catch (err) {
          within(err, { key: k });
        }
      }
      return out;
    }
    case "object": {
      const n = r.mapLength();
      const attrs = type[1];
      const out: ObjectValue = {};
      let known = 0;
      for (let i = 0; i < n; i++) {
        const k = r.str();
        const t = attrs[k];
        if (t === undefined) {
          r.skip(); // an attribute this schema does not know: drop it
          continue;
        }
        try {
          out[k] = readValue(r, t);
        } catch (err) {
          within(err, k);
        }
        known++;
      }
      if (known !== namesOf(attrs).length) for (const k of namesOf(attrs)) if (!(k in out)) out[k] = null;
      return out;
    }
  }
  throw new ValueError(`unsupported type ${JSON.stringify(type)}`);
}

function numberFrom(n: number | bigint | string): number | BigNumber {
  if (typeof n === "number") return n;
  if (typeof n === "bigint") return new BigNumber(n.toString());
  const f = Number(n);
  if (Number.isNaN(f)) throw new ValueError(`invalid number ${JSON.stringify(n)}`);
  return canonical(f) === canonical(n) ? f : new BigNumber(n);
}

/** Normalises decimal text so "1.50" and "1.5" compare equal. */
function canonical(n: number | string): string {
  const s = typeof n === "number" ? (Number.isInteger(n) && Math.abs(n) < 1e21 ? BigInt(n).toString() : String(n)) : n;
  return s.includes(".") && !s.includes("e") ? s.replace(/0+$/, "").replace(/\.$/, "") : s;
}

// ---- Value -> msgpack ----

export function encodeMsgpack(type: CtyType, value: Value): Uint8Array {
  const w = new Writer();
  writeValue(w, type, value);
  return w.finish();
}

function mismatch(expected: string, value: Value): ValueError {
  return new ValueError(`expected ${expected}, got ${describe(value)}`);
}

function describe(v: Value): string {
  if (Array.isArray(v)) return "a list";
  if (v instanceof BigNumber) return "a number";
  if (v instanceof Dynamic) return "a dynamic value";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

function writeValue(w: Writer, type: CtyType, value: Value): void {
  if (value === null || value === undefined) return w.nil();
  if (value instanceof Unknown) return w.raw(value.raw);
  if (type === "string") {
    if (typeof value !== "string") throw mismatch("string", value);
    return w.str(value);
  }
  if (type === "bool") {
    if (typeof value !== "boolean") throw mismatch("bool", value);
    return w.bool(value);
  }
  if (type === "number") return writeNumber(w, value);
  if (type === "dynamic") {
    const d = value instanceof Dynamic ? value : new Dynamic(impliedType(value), value);
    w.arrayHeader(2);
    w.bin(Buffer.from(JSON.stringify(d.type)));
    return writeValue(w, d.type, d.value);
  }
  switch (type[0]) {
    case "list":
    case "set":
    case "tuple": {
      if (!Array.isArray(value) || (type[0] === "tuple" && value.length !== type[1].length)) throw mismatch(type[0], value);
      w.arrayHeader(value.length);
      for (let i = 0; i < value.length; i++) {
        try {
          writeValue(w, type[0] === "tuple" ? type[1][i]! : type[1], value[i]!);
        } catch (err) {
          within(err, i);
        }
      }
      return;
    }
    case "map": {
      if (!isObject(value)) throw mismatch("map", value);
      const keys = Object.keys(value).sort();
      w.mapHeader(keys.length);
      for (const k of keys) {
        w.str(k);
        try {
          writeValue(w, type[1], value[k]!);
        } catch (err) {
          within(err, { key: k });
        }
      }
      return;
    }
    case "object": {
      if (!isObject(value)) throw mismatch("object", value);
      // Every attribute is present on the wire, null when absent.
      const keys = namesOf(type[1]);
      w.mapHeader(keys.length);
      for (const k of keys) {
        w.str(k);
        try {
          writeValue(w, type[1][k]!, value[k] ?? null);
        } catch (err) {
          within(err, k);
        }
      }
      return;
    }
  }
  throw new ValueError(`unsupported type ${JSON.stringify(type)}`);
}

function writeNumber(w: Writer, value: Value): void {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new ValueError("numbers must be finite");
    return Number.isSafeInteger(value) ? w.int(value) : w.float(value);
  }
  if (value instanceof BigNumber) {
    if (/^-?\d+$/.test(value.text)) {
      const b = BigInt(value.text);
      if (b >= -(2n ** 63n) && b < 2n ** 64n) return w.int(b);
    }
    return w.str(value.text); // cty's form for numbers beyond int64/float64
  }
  throw mismatch("number", value);
}

export function isObject(v: Value): v is ObjectValue {
  return v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Unknown) && !(v instanceof BigNumber) && !(v instanceof Dynamic);
}

/** The type a plain value would have if it were written into a dynamic attribute. */
export function impliedType(v: Value): CtyType {
  if (typeof v === "string") return "string";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number" || v instanceof BigNumber) return "number";
  if (v instanceof Dynamic) return v.type;
  if (Array.isArray(v)) return ["tuple", v.map(impliedType)];
  if (isObject(v)) return ["object", Object.fromEntries(Object.entries(v).map(([k, x]) => [k, impliedType(x)]))];
  return "dynamic";
}

// ---- JSON (stored state) -> Value ----

/** Converts state JSON (as Terraform stores it) to a value of `type`; attributes the type lacks are dropped. */
export function fromJSON(type: CtyType, json: unknown): Value {
  if (json === null || json === undefined) return null;
  if (type === "string") return typeof json === "string" ? json : String(json);
  if (type === "bool") {
    if (typeof json === "boolean") return json;
    if (json === "true" || json === "false") return json === "true";
    throw new ValueError(`expected bool, got ${JSON.stringify(json)}`);
  }
  if (type === "number") {
    if (typeof json === "number") return json;
    if (typeof json === "string") return numberFrom(json);
    throw new ValueError(`expected number, got ${JSON.stringify(json)}`);
  }
  if (type === "dynamic") {
    const d = json as { value?: unknown; type?: CtyType };
    if (d && typeof d === "object" && "type" in d) return new Dynamic(d.type!, fromJSON(d.type!, d.value));
    throw new ValueError("dynamic value without a type");
  }
  switch (type[0]) {
    case "list":
    case "set":
      if (!Array.isArray(json)) throw new ValueError(`expected ${type[0]}`);
      return json.map((x) => fromJSON(type[1], x));
    case "tuple":
      if (!Array.isArray(json)) throw new ValueError("expected tuple");
      return type[1].map((t, i) => fromJSON(t, json[i]));
    case "map":
      if (typeof json !== "object") throw new ValueError("expected map");
      return Object.fromEntries(Object.entries(json as object).map(([k, x]) => [k, fromJSON(type[1], x)]));
    case "object": {
      if (typeof json !== "object") throw new ValueError("expected object");
      const src = json as Record<string, unknown>;
      return Object.fromEntries(Object.entries(type[1]).map(([k, t]) => [k, fromJSON(t, src[k])]));
    }
  }
  throw new ValueError(`unsupported type ${JSON.stringify(type)}`);
}

/** Deep equality of two values (sets compared in order, which is canonical on the wire). */
export function equal(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  if (a instanceof Unknown || b instanceof Unknown) {
    return a instanceof Unknown && b instanceof Unknown && Buffer.compare(a.raw, b.raw) === 0;
  }
  if (a instanceof BigNumber || b instanceof BigNumber) return String(a) === String(b);
  if (a instanceof Dynamic || b instanceof Dynamic) {
    return a instanceof Dynamic && b instanceof Dynamic && JSON.stringify(a.type) === JSON.stringify(b.type) && equal(a.value, b.value);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => equal(x, b[i]!));
  }
  if (typeof a === "object" && typeof b === "object") {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    return ka.every((k) => k in b && equal(a[k]!, b[k]!));
  }
  return false;
}
