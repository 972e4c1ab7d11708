// Terraform values to and from msgpack, by type: the DynamicValue encoding of plugin protocol 6. The
// wire alone cannot tell an object from a map, a set from a list, or where a dynamic value's type travels,
// so every conversion is driven by the cty type. What is written is what go-cty's msgpack.Marshal writes
// for the value read (docs/design.md, "Values byte for byte"; test/provider/differential/cty.test.ts).
import { formOfFloat, parseNumber, type NumberForm } from "./cty-number.js";
import { typeFromJSON, typeToJSON } from "./cty-type-json.js";
import { MsgpackError, Reader } from "./msgpack.js";
import { Writer } from "./msgpack-writer.js";
import {
  BigNumber,
  Dynamic,
  Unknown,
  ValueError,
  byUtf8,
  impliedType,
  isObject,
  namesOf,
  numberFrom,
  setOwn,
  within,
  type CtyType,
  type ObjectValue,
  type Value,
} from "./cty.js";

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
  if (r.isExt()) return new Unknown(r.unknown());
  if (type === "string") return r.str();
  if (type === "bool") return r.bool();
  if (type === "number") return numberFrom(r.num());
  if (type === "dynamic") {
    if (r.arrayLength() !== 2) throw new ValueError("dynamic value must be a [type, value] pair");
    const concrete = typeFromJSON(r.str());
    return new Dynamic(concrete, readValue(r, concrete));
  }
  switch (type[0]) {
    case "list":
    case "set":
      return readElements(r, r.arrayLength(), () => type[1]);
    case "tuple": {
      const n = r.arrayLength();
      if (n !== type[1].length) throw new ValueError(`tuple of ${type[1].length} elements expected`);
      return readElements(r, n, (i) => type[1][i]!);
    }
    case "map": {
      const n = r.mapLength();
      const out: ObjectValue = {};
      for (let i = 0; i < n; i++) {
        const k = r.str();
        setOwn(out, k, readWithin(r, type[1], { key: k }));
      }
      return out;
    }
    case "object":
      return readObject(r, type[1]);
  }
  throw new ValueError(`unsupported type ${JSON.stringify(type)}`);
}

/** One value inside a container; a failure names where (paths are built only on failure). */
function readWithin(r: Reader, type: CtyType, step: string | number | { key: string }): Value {
  try {
    return readValue(r, type);
  } catch (err) {
    return within(err, step);
  }
}

function readElements(r: Reader, n: number, typeAt: (i: number) => CtyType): Value[] {
  const out: Value[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = readWithin(r, typeAt(i), i);
  return out;
}

function readObject(r: Reader, attrs: { readonly [name: string]: CtyType }): ObjectValue {
  const n = r.mapLength();
  const out: ObjectValue = {};
  let known = 0;
  for (let i = 0; i < n; i++) {
    const k = r.str();
    const t = attrs[k];
    // A type is a string or an array: anything else is inherited (constructor, toString, __proto__).
    if (t === undefined || (typeof t !== "string" && !Array.isArray(t))) {
      r.skip(); // an attribute this schema does not know: drop it
      continue;
    }
    setOwn(out, k, readWithin(r, t, k));
    known++;
  }
  // Every attribute is there, null when the wire left it out.
  if (known !== namesOf(attrs).length) for (const k of namesOf(attrs)) if (!Object.hasOwn(out, k)) setOwn(out, k, null);
  return out;
}

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
    w.bin(Buffer.from(typeToJSON(d.type)));
    return writeValue(w, d.type, d.value);
  }
  switch (type[0]) {
    case "list":
    case "set":
    case "tuple":
      if (!Array.isArray(value) || (type[0] === "tuple" && value.length !== type[1].length)) throw mismatch(type[0], value);
      w.arrayHeader(value.length);
      for (let i = 0; i < value.length; i++) writeWithin(w, type[0] === "tuple" ? type[1][i]! : type[1], value[i]!, i);
      return;
    case "map": {
      if (!isObject(value)) throw mismatch("map", value);
      const keys = Object.keys(value).sort(byUtf8);
      w.mapHeader(keys.length);
      for (const k of keys) {
        w.str(k);
        writeWithin(w, type[1], value[k]!, { key: k });
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
        let x = value[k];
        // Functions are inherited (constructor, toString), never values; so is a __proto__ not its own.
        if (x === undefined || typeof x === "function" || (k === "__proto__" && !Object.hasOwn(value, k))) x = null;
        writeWithin(w, type[1][k]!, x, k);
      }
      return;
    }
  }
  throw new ValueError(`unsupported type ${JSON.stringify(type)}`);
}

function writeWithin(w: Writer, type: CtyType, value: Value, step: string | number | { key: string }): void {
  try {
    writeValue(w, type, value);
  } catch (err) {
    within(err, step);
  }
}

function writeNumber(w: Writer, value: Value): void {
  if (typeof value === "number") {
    if (Number.isSafeInteger(value)) return w.int(value);
    if (Number.isNaN(value)) throw new ValueError("NaN is not a number Terraform knows");
    return writeForm(w, formOfFloat(value));
  }
  if (value instanceof BigNumber) {
    const form = parseNumber(value.text);
    if (!form) throw new ValueError(`invalid number ${JSON.stringify(value.text)}`);
    return writeForm(w, form);
  }
  throw mismatch("number", value);
}

function writeForm(w: Writer, form: NumberForm): void {
  if ("int" in form) return w.int(form.int);
  if ("float" in form) return w.float(form.float);
  return w.str(form.text);
}
