// Terraform attributes from a resource's field table (wire/generated/fields.ts): each field's type and description
// as the wire has them, and whether a user sets it from what create takes (required; optional, and computed where
// the service fills it in when not given; computed only). What Terraform adds is layered per attribute by the
// schema that uses it: validators, plan modifiers, semantic equality, a longer or another description, another
// type or mode. A field is left out only by name, with the reason; a field the wire gains becomes an attribute of
// the resource and of the data sources without an edit (test/wire/coverage.test.ts holds every consumer to that).
import type { FieldTable, WireField } from "../wire/generated/fields.js";
import type { Attribute } from "./framework/schema.js";
import type { FieldKind } from "../src/index.js";
import type { Answer, ResponseFields } from "./response-fields.js";
import type { CtyType, Value } from "./values/cty.js";

type TfType<F> = F extends { type: "string" }
  ? "string"
  : F extends { type: "integer" | "number" }
    ? "number"
    : F extends { type: "boolean" }
      ? "bool"
      : F extends { type: "array"; items: "string" }
        ? readonly ["list", "string"]
        : "dynamic";

/** The mode a resource's attribute takes from what create takes of the field. */
type ResourceMode<F> = F extends { create: "required" }
  ? { required: true }
  : F extends { create: "optional"; nullable: true }
    ? { optional: true }
    : F extends { create: "optional" }
      ? { optional: true; computed: true }
      : { computed: true };

/** What Terraform adds to one attribute: any of Attribute's keys, and `more`, a sentence after the wire's description. */
type Layer = Partial<Attribute> & { more?: string };
/** A field the schema does not have, and why. */
interface LeftOut {
  leftOut: string;
}
export type Layers<T extends FieldTable> = { readonly [K in keyof T]?: Layer | LeftOut };

type Merge<A, B> = Omit<A, keyof B | "more"> & Omit<B, "more">;
type Kept<T, L> = { [K in keyof T]: L extends { readonly [P in K]: LeftOut } ? never : K }[keyof T];
type Shown<T> = { [K in keyof T]: T[K] extends { read: false } ? never : K }[keyof T];

/** A resource's attributes: every field of the table but those left out. */
export type ResourceAttributes<T extends FieldTable, L> = {
  -readonly [K in Kept<T, L>]: Merge<{ type: TfType<T[K]>; description: string } & ResourceMode<T[K]>, K extends keyof L ? L[K] : unknown>;
};
/** A data source's attributes: every field answers show, computed, but those left out. */
export type ComputedAttributes<T extends FieldTable, L> = {
  -readonly [K in Kept<T, L> & Shown<T> & keyof T]: Merge<{ type: TfType<T[K]>; description: string; computed: true }, K extends keyof L ? L[K] : unknown>;
};

function tfType(field: WireField): CtyType {
  if (field.type === "string") return "string";
  if (field.type === "integer" || field.type === "number") return "number";
  if (field.type === "boolean") return "bool";
  if (field.type === "array" && field.items === "string") return ["list", "string"];
  return "dynamic";
}

function modeOf(field: WireField): Pick<Attribute, "required" | "optional" | "computed"> {
  if (field.create === "required") return { required: true };
  if (field.create === "optional") return field.nullable ? { optional: true } : { optional: true, computed: true };
  return { computed: true };
}

function attribute(name: string, field: WireField, base: Pick<Attribute, "required" | "optional" | "computed">, layer: Layer | undefined): Attribute {
  const { more, ...rest } = layer ?? {};
  const description = [field.description ?? name, more].filter(Boolean).join(" ");
  return { type: tfType(field), description, ...base, ...rest } as Attribute;
}

const isLeftOut = (layer: Layer | LeftOut | undefined): layer is LeftOut => layer !== undefined && "leftOut" in layer;

/** The attributes of a resource from its table, with `layers` on top. */
export function resourceAttributes<T extends FieldTable, const L extends Layers<T>>(table: T, layers: L): ResourceAttributes<T, L> {
  const out: Record<string, Attribute> = {};
  for (const [name, field] of Object.entries(table)) {
    const layer = layers[name as keyof T];
    if (!isLeftOut(layer)) out[name] = attribute(name, field, modeOf(field), layer);
  }
  return out as unknown as ResourceAttributes<T, L>;
}

/** The attributes of a data source from a table: every field answers show, computed, with `layers` on top. */
export function computedAttributes<T extends FieldTable, const L extends Layers<T>>(table: T, layers: L): ComputedAttributes<T, L> {
  const out: Record<string, Attribute> = {};
  for (const [name, field] of Object.entries(table)) {
    const layer = layers[name as keyof T];
    if (field.read !== false && !isLeftOut(layer)) out[name] = attribute(name, field, { computed: true }, layer);
  }
  return out as unknown as ComputedAttributes<T, L>;
}

/** The object type of values with these attributes (an element of a list of records). */
export function objectType<A extends Readonly<Record<string, { type: CtyType }>>>(attributes: A): readonly ["object", { [K in keyof A]: A[K]["type"] }] {
  return ["object", Object.fromEntries(Object.entries(attributes).map(([name, a]) => [name, a.type]))] as never;
}

/** "`a`, `b` and `c`" */
export const andList = (items: readonly string[]): string => (items.length > 1 ? `${items.slice(0, -1).join(", ")} and ${items.at(-1)}` : (items[0] ?? ""));

/** The fields left out by `layers`, with why. */
export function leftOutOf(layers: Layers<FieldTable>): Record<string, string> {
  return Object.fromEntries(Object.entries(layers).flatMap(([name, layer]) => (isLeftOut(layer) ? [[name, layer.leftOut]] : [])));
}

/**
 * Whether a planned value changes the prior one for the API: known (or null where null unsets: an optional
 * attribute the service does not fill in), and not a spelling of the same value by the attribute's semantic
 * equality (a spelling that means the same is not sent).
 */
export async function changes(attribute: Attribute, next: Value, was: Value): Promise<boolean> {
  if (next === was) return false;
  if (next === null) return !attribute.computed;
  if (Array.isArray(next) && Array.isArray(was)) return JSON.stringify([...next].sort()) !== JSON.stringify([...was].sort());
  return !(was !== null && attribute.semanticEquals && (await attribute.semanticEquals(was, next)));
}

const KIND: Record<WireField["type"], FieldKind> = {
  string: "string",
  integer: "number",
  number: "number",
  boolean: "boolean",
  array: "array",
  object: "object",
};

/**
 * The values of `names` (fields of `table`) in an answer, for state: each checked by its wire type where it is read
 * (the core checks only the fields it needs). A field missing or mistyped keeps `known`'s value (the plan's or the
 * state's) with a warning, or is null with a warning.
 */
export function stateFromAnswer(
  table: FieldTable,
  names: readonly string[],
  answer: Answer,
  fields: ResponseFields,
  known: Readonly<Record<string, unknown>> | null = null,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const field = table[name]!;
    const kind = field.type === "array" && field.items === "string" ? "string[]" : KIND[field.type];
    const standIn = known?.[name] as never;
    out[name] = fields.take(answer, name, kind, { nullable: field.nullable, orNull: true, ...(standIn === undefined ? {} : { standIn }) }) ?? null;
  }
  return out;
}
