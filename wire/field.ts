// How a field of the wire is marked, and how a resource declares its fields once. Every field of a resource says
// where it comes from (`spec` or `assumed`, a schema keyword that /openapi.json shows); a resource built with
// defineFields() declares each field with what create and update take of it, and its read, create and update
// schemas all come from that one declaration. scripts/generate-wire.mjs reads the marks into the field tables
// (wire/generated/fields.ts) that the CLI, the provider and the emulator derive their field lists from.
import { Type, type TOptional, type TSchema } from "typebox";

/** The schema keyword that carries a field's origin (the emulator's Ajv is told it: DOC_KEYWORDS in emulator/openapi.ts). */
export const ORIGIN = "x-origin";

/**
 * Where a field comes from. `spec`: docs/spec/site-operations-service.md lists it (a site's seven fields, the JWT
 * login's answer). `assumed`: the spec leaves it "not shown"; the emulator serves it as docs/design.md section 2
 * decides, and what the toolkit relies on of it is in that section's table "What the toolkit assumes". Whether
 * create or update takes a field is always assumed: the spec shows no request body but the JWT ones.
 */
export type Origin = "spec" | "assumed";

/** A field the spec lists. */
export function spec<T extends TSchema>(schema: T): T {
  return Type.With(schema, { [ORIGIN]: "spec" }) as unknown as T;
}

/** A field the spec leaves unshown (docs/design.md section 2, "What the toolkit assumes"). */
export function assumed<T extends TSchema>(schema: T): T {
  return Type.With(schema, { [ORIGIN]: "assumed" }) as unknown as T;
}

/** Marks every field of `properties` assumed (a resource whose fields the spec does not show). */
export function allAssumed<const P extends Record<string, TSchema>>(properties: P): P {
  return Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, assumed(schema)])) as P;
}

/** The origin marked on a schema, if any. */
export function originOf(schema: TSchema): Origin | undefined {
  const value = (schema as Record<string, unknown>)[ORIGIN];
  return value === "spec" || value === "assumed" ? value : undefined;
}

type Write = "required" | "optional";

/** A field that create or update takes: its schema as read, and as written when the service checks more there. */
export interface Writable<R extends TSchema = TSchema, I extends TSchema = TSchema, C extends Write | false = Write | false, U extends boolean = boolean> {
  readonly read: R;
  readonly input: I;
  readonly create: C;
  readonly update: U;
}

/**
 * A field create and/or update take. `input` is what they validate the value with when it is stricter than what
 * answers show (no control characters in a name); it takes the field's origin, and its description unless it has one.
 */
export function writable<R extends TSchema, const C extends Write | false = false, const U extends boolean = false, I extends TSchema = R>(
  read: R,
  how: { create?: C; update?: U; input?: I },
): Writable<R, I, C, U> {
  const own = how.input as { description?: string } | undefined;
  const marks = { description: own?.description ?? (read as { description?: string }).description, [ORIGIN]: originOf(read) };
  return {
    read,
    input: (how.input ? Type.With(how.input, marks) : read) as I,
    create: (how.create ?? false) as C,
    update: (how.update ?? false) as U,
  };
}

type Declared = TSchema | Writable;
type ReadOf<F> = F extends Writable<infer R> ? R : F;
/** The input schema; the read one where writable() was given none (I is then TSchema itself). */
type InputOf<F> = F extends Writable<infer R, infer I> ? (TSchema extends I ? R : I) : never;
type CreateKeys<D> = { [K in keyof D]: D[K] extends Writable<TSchema, TSchema, Write> ? K : never }[keyof D];
type UpdateKeys<D> = { [K in keyof D]: D[K] extends Writable<TSchema, TSchema, Write | false, true> ? K : never }[keyof D];

/** The properties of a resource's read, create and update schemas, from one declaration of its fields. */
export interface Fields<D extends Record<string, Declared>> {
  read: { -readonly [K in keyof D]: ReadOf<D[K]> };
  create: { -readonly [K in CreateKeys<D>]: D[K] extends Writable<TSchema, TSchema, "required"> ? InputOf<D[K]> : TOptional<InputOf<D[K]>> };
  update: { -readonly [K in UpdateKeys<D>]: TOptional<InputOf<D[K]>> };
}

/** Declares a resource's fields once (in the order answers show them); a field is read-only unless writable(). */
export function defineFields<const D extends Record<string, Declared>>(declared: D): Fields<D> {
  const read: Record<string, TSchema> = {};
  const create: Record<string, TSchema> = {};
  const update: Record<string, TSchema> = {};
  for (const [name, field] of Object.entries(declared)) {
    const w = isWritable(field) ? field : undefined;
    read[name] = w ? w.read : field;
    if (w?.create) create[name] = w.create === "required" ? w.input : Type.Optional(w.input);
    if (w?.update) update[name] = Type.Optional(w.input);
  }
  return { read, create, update } as unknown as Fields<D>;
}

function isWritable(field: Declared): field is Writable {
  return typeof field === "object" && field !== null && "read" in field && "input" in field;
}
