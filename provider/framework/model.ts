// Typed models: plan, state and configuration decoded by the schema into plain objects whose TypeScript type
// is derived from the schema declaration (what `req.Plan.Get` / `resp.State.Set` do in
// terraform-plugin-framework). A resource reads `plan.name` as a string, never an asserted `Value`.
//
// Which model a method receives follows what Terraform guarantees at that point:
//   Model<S>     apply-time plan and config, prior state at update/delete, new state: required attributes
//                are known and non-null, the rest may be null ("known after apply" decodes as null: the
//                API decides). A conversion the schema does not allow is a diagnostic, never a throw.
//   Stored<S>    state given to read: possibly partial (an import sets only the identity attribute).
//   Planned<S>   configuration and plan during validation and planning: any value may still be unknown.
import { BigNumber, Dynamic, Unknown, isObject, type CtyType, type ObjectValue, type Value } from "../values/cty.js";
import type { AttributePath, Diagnostics, PathStep } from "./diagnostics.js";
import type { Attribute, Block, NestedBlock } from "./schema.js";

/** The TypeScript type of a known, non-null value of a cty type. */
type ValueOf<T> = T extends "string"
  ? string
  : T extends "number"
    ? number
    : T extends "bool"
      ? boolean
      : T extends readonly ["list" | "set", infer E]
        ? ValueOf<E>[]
        : T extends readonly ["map", infer E]
          ? { [key: string]: ValueOf<E> }
          : T extends readonly ["object", infer O]
            ? { -readonly [K in keyof O]: ValueOf<O[K]> | null }
            : Value; // dynamic

type AttributeModel<A> = A extends { type: infer T; required: true } ? ValueOf<T> : A extends { type: infer T } ? ValueOf<T> | null : never;

type NestedModel<N, Wrap extends "model" | "stored"> = N extends { block: infer B extends Block; nesting: infer M }
  ? M extends "list" | "set"
    ? Inner<B, Wrap>[]
    : M extends "map"
      ? { [key: string]: Inner<B, Wrap> }
      : M extends "group"
        ? Inner<B, Wrap>
        : Inner<B, Wrap> | null
  : never;
type Inner<B extends Block, Wrap> = Wrap extends "model" ? Model<B> : Stored<B>;
type Blocks<B extends Block> = B["blocks"] extends object ? B["blocks"] : Record<never, never>;

/** Values Terraform guarantees known: apply-time plan and config, prior state, the state a resource returns. */
export type Model<B extends Block> = string extends keyof B["attributes"]
  ? ObjectValue // a schema not declared with defineSchema: no attribute names to type
  : { -readonly [K in keyof B["attributes"]]: AttributeModel<B["attributes"][K]> } & { -readonly [K in keyof Blocks<B>]: NestedModel<Blocks<B>[K], "model"> };

/** The state read() receives: every attribute may be null (an imported object has only its identity). */
export type Stored<B extends Block> = string extends keyof B["attributes"]
  ? ObjectValue
  : { -readonly [K in keyof B["attributes"]]: ValueOf<B["attributes"][K]["type"]> | null } & {
      -readonly [K in keyof Blocks<B>]: NestedModel<Blocks<B>[K], "stored">;
    };

/** A model (or value) in which any value below the top, at any depth, may still be unknown (validation, planning). */
export type Planned<T> = T extends BigNumber | Dynamic | Unknown
  ? T
  : T extends readonly (infer E)[]
    ? Value extends E
      ? T // already any Value, unknowns included
      : (Unknown | Planned<E>)[]
    : T extends object
      ? string extends keyof T
        ? T
        : { [K in keyof T]: Unknown | Planned<T[K]> }
      : T;

/** What model decoding checks: "known" (apply), "stored" (read), "planned" (validate, plan). */
export type ModelMode = "known" | "stored" | "planned";

const CONVERSION = "Value Conversion Error";

/**
 * Checks `value` against the block for `mode` and returns it as a model: unknown values become null (except
 * in "planned" mode), numbers beyond float64 are refused, and so is null in a required attribute ("known").
 * Objects are copied only where a value changes. Returns undefined after reporting a diagnostic.
 */
export function decodeModel(block: Block, value: ObjectValue, mode: ModelMode, diags: Diagnostics, at: AttributePath = []): ObjectValue | undefined {
  const errors = diags.items.length;
  const out = convertBlock(block, value, mode, diags, at);
  return diags.items.length > errors ? undefined : out;
}

function convertBlock(block: Block, obj: ObjectValue, mode: ModelMode, diags: Diagnostics, at: AttributePath): ObjectValue {
  let out = obj;
  const set = (name: string, v: Value) => {
    if (out === obj) out = { ...obj };
    out[name] = v;
  };
  for (const name in block.attributes) {
    const attr = block.attributes[name]!;
    const v = obj[name] ?? null;
    const next = convertAttribute(attr, v, mode, diags, at, name);
    if (next !== v || !(name in obj)) set(name, next);
  }
  if (block.blocks) {
    for (const name in block.blocks) {
      const v = obj[name] ?? null;
      const next = convertNested(block.blocks[name]!, v, mode, diags, [...at, { attribute: name }]);
      if (next !== v || !(name in obj)) set(name, next);
    }
  }
  return out;
}

function convertAttribute(attr: Attribute, v: Value, mode: ModelMode, diags: Diagnostics, at: AttributePath, name: string): Value {
  if (v instanceof Unknown) return mode === "planned" ? v : null;
  if (v === null) {
    if (mode === "known" && attr.required) {
      diags.error(CONVERSION, `Received null for the required attribute ${name}. This is always a bug in the provider or Terraform.`, [
        ...at,
        { attribute: name },
      ]);
    }
    return null;
  }
  return convertValue(attr.type, v, mode, diags, [...at, { attribute: name }]);
}

function convertNested(nb: NestedBlock, v: Value, mode: ModelMode, diags: Diagnostics, at: AttributePath): Value {
  if (v instanceof Unknown)
    return mode === "planned" ? v : nb.nesting === "single" ? null : nb.nesting === "group" ? convertBlock(nb.block, {}, mode, diags, at) : [];
  if (v === null) return nb.nesting === "single" ? null : nb.nesting === "group" ? convertBlock(nb.block, {}, mode, diags, at) : nb.nesting === "map" ? {} : [];
  if (Array.isArray(v)) return mapArray(v, (x, i) => (isObject(x) ? convertBlock(nb.block, x, mode, diags, [...at, { index: i }]) : x));
  if (!isObject(v)) return v;
  if (nb.nesting === "map") return mapObject(v, (x, k) => (isObject(x) ? convertBlock(nb.block, x, mode, diags, [...at, { key: k }]) : x));
  return convertBlock(nb.block, v, mode, diags, at);
}

/** Inside attribute values, by type: unknowns (unless planning), big numbers, null elements of collections. */
function convertValue(type: CtyType, v: Value, mode: ModelMode, diags: Diagnostics, at: readonly PathStep[]): Value {
  if (v === null || typeof v !== "object") return v;
  if (v instanceof Unknown) return mode === "planned" ? v : null;
  if (v instanceof BigNumber) {
    const near = v.nearestFloat(); // a decimal such as 0.1, as terraform-plugin-framework's Float64 reads it
    if (near !== undefined) return near;
    diags.error(CONVERSION, `The number ${v.text} cannot be represented exactly by the provider.`, at);
    return null;
  }
  if (typeof type === "string") return v; // a dynamic value carries its own type: handed over as it is
  const element = (t: CtyType, x: Value, step: PathStep): Value => {
    if (x === null && mode !== "planned" && type[0] !== "object") {
      diags.error(CONVERSION, "Received a null element in a collection, which the provider cannot hold.", [...at, step]);
    }
    return convertValue(t, x, mode, diags, [...at, step]);
  };
  switch (type[0]) {
    case "list":
    case "set":
      return Array.isArray(v) ? mapArray(v, (x, i) => element(type[1], x, { index: i })) : v;
    case "tuple":
      return Array.isArray(v) ? mapArray(v, (x, i) => convertValue(type[1][i] ?? "dynamic", x, mode, diags, [...at, { index: i }])) : v;
    case "map":
      return isObject(v) ? mapObject(v, (x, k) => element(type[1], x, { key: k })) : v;
    case "object":
      return isObject(v) ? mapObject(v, (x, k) => convertValue(type[1][k] ?? "dynamic", x, mode, diags, [...at, { attribute: k }])) : v;
  }
  return v;
}

function mapArray(a: Value[], f: (x: Value, i: number) => Value): Value[] {
  let out = a;
  for (let i = 0; i < a.length; i++) {
    const next = f(a[i]!, i);
    if (next !== a[i]) {
      if (out === a) out = [...a];
      out[i] = next;
    }
  }
  return out;
}

function mapObject(o: ObjectValue, f: (x: Value, k: string) => Value): ObjectValue {
  let out = o;
  for (const k in o) {
    const next = f(o[k]!, k);
    if (next !== o[k]) {
      if (out === o) out = { ...o };
      out[k] = next;
    }
  }
  return out;
}
