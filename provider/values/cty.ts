// Terraform values (cty) in JavaScript: the representation, equality, and stored state JSON. Their msgpack
// form, by type, is cty-msgpack.ts.
//
//   null -> null        string -> string     bool -> boolean       number -> number | BigNumber
//   list/set/tuple -> Value[]                map/object -> ObjectValue (plain object)
//   unknown -> Unknown (its msgpack bytes kept verbatim: refinements survive the round trip)
//   dynamic -> Dynamic (the concrete type travels with the value)
import { nearestFloat, parseNumber } from "./cty-number.js";
import { MsgpackError } from "./msgpack.js";

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

/** A number that a float64 cannot hold exactly (or an integer beyond 2^53); `text` is its decimal form as
 * it came, which is how cty writes it. */
export class BigNumber {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
  /** The float64 nearest a decimal such as 0.1 that prints as the same decimal; else undefined. */
  nearestFloat(): number | undefined {
    return nearestFloat(this.text);
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

/** Rethrows an error from inside a container with the container's step added to its path. */
export function within(err: unknown, step: string | number | { key: string }): never {
  if (err instanceof ValueError) throw err.within(step);
  if (err instanceof MsgpackError) throw new ValueError(err.message).within(step);
  throw err;
}

/** Orders strings by their UTF-8 bytes, as Go's sort.Strings does (JavaScript's sort() compares UTF-16
 * code units, which puts U+10000 and above before U+E000-U+FFFF). */
export function byUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (D800-DFFF) encode code points above every BMP one: move them past E000-FFFF.
    if (x >= 0xd800 && y >= 0xd800) return (x >= 0xe000 ? x - 0x800 : x + 0x2000) - (y >= 0xe000 ? y - 0x800 : y + 0x2000);
    return x - y;
  }
  return a.length - b.length;
}

/** Attribute names of an object type, sorted as they go on the wire (computed once per type). */
const sortedNames = new WeakMap<object, string[]>();
export function namesOf(attrs: { readonly [name: string]: CtyType }): string[] {
  let names = sortedNames.get(attrs);
  if (!names) sortedNames.set(attrs, (names = Object.keys(attrs).sort(byUtf8)));
  return names;
}

/** Sets a property as an own data property: `obj[k] = v` with k "__proto__" would set the prototype. */
export function setOwn(obj: ObjectValue, k: string, v: Value): void {
  if (k === "__proto__") Object.defineProperty(obj, k, { value: v, enumerable: true, writable: true, configurable: true });
  else obj[k] = v;
}

export const isUnknown = (v: unknown): v is Unknown => v instanceof Unknown;

/** A msgpack or JSON number as a Value: a float64 when it holds the number exactly (an integer up to 2^53),
 * else a BigNumber with its decimal text. A string is read as cty reads it: "", " 1" or "0x10" are refused. */
export function numberFrom(n: number | bigint | string): number | BigNumber {
  if (typeof n === "number") {
    if (Number.isNaN(n)) throw new ValueError("NaN is not a number Terraform knows");
    return n;
  }
  if (typeof n === "bigint") return Number.isSafeInteger(Number(n)) ? Number(n) : new BigNumber(n.toString());
  const form = parseNumber(n);
  if (!form) throw new ValueError(`invalid number ${JSON.stringify(n)}`);
  if ("float" in form) return form.float;
  if ("int" in form) return numberFrom(form.int);
  return new BigNumber(n);
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
      return Object.fromEntries(Object.entries(type[1]).map(([k, t]) => [k, fromJSON(t, Object.hasOwn(src, k) ? src[k] : null)]));
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
    return ka.every((k) => Object.hasOwn(b, k) && equal(a[k]!, b[k]!));
  }
  return false;
}
