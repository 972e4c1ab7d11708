// What `siteops export` writes of each resource type: its arguments, read from the resource's schema (the
// attributes a user sets, required or optional, and nested blocks, in the schema's order), each valued from the
// API record: an argument that is a field of the resource's table (wire/generated/fields.ts) by the record's field
// of its name, any other by the one function declared here, less those left out on purpose, each with the reason.
// An argument that is no wire field and is named in neither place fails typecheck here and
// test/provider/export-arguments.test.ts, and `siteops export` refuses to run rather than drop it.
import type { Site, WebhookEndpoint } from "../../src/index.js";
import { siteFields, webhookEndpointFields, type FieldTable } from "../../wire/generated/fields.js";
import type { Schema } from "../framework/schema.js";
import { siteSchema } from "../resources/site-schema.js";
import { webhookEndpointSchema } from "../resources/webhook-endpoint-schema.js";

/** An argument's value, before a renderer writes it in its language. */
export type Value = string | boolean | readonly string[];

/** Attributes and nested blocks of a schema, by name. */
type MemberOf<S extends Schema> = keyof S["attributes"] | keyof NonNullable<S["blocks"]>;

/** The arguments of a schema: the attributes a user may set (required or optional) and the nested blocks. */
type ArgumentOf<S extends Schema> =
  | { [K in keyof S["attributes"]]: S["attributes"][K] extends { required: true } | { optional: true } ? K : never }[keyof S["attributes"]]
  | keyof NonNullable<S["blocks"]>;

type ValueOf<R> = (record: R) => Value | undefined;

/** How one resource type is exported. */
interface ResourceExport<R> {
  schema: Schema;
  /** What export does not write though it is (or names) a member of the schema, each with why. */
  leftOut: Readonly<Record<string, string>>;
  /** Each exported argument's value from the API record; undefined writes nothing (the service has none). */
  values: Readonly<Record<string, ValueOf<R>>>;
  /** The arguments written, in the schema's order. */
  names: readonly string[];
  /** A record's arguments, in that order, without those it has no value for. */
  attrs(record: R): [string, Value][];
}

/** The schema's arguments (attributes a user sets, then nested blocks), in its order. */
function argumentsOf(schema: Schema): string[] {
  const settable = Object.entries(schema.attributes).flatMap(([name, a]) => (a.required || a.optional ? [name] : []));
  return [...settable, ...Object.keys(schema.blocks ?? {})];
}

/** What is wrong with a declaration: an argument neither valued nor left out, a value for what is no argument
 * (computed only, or gone), a name left out that the schema does not have, or one both valued and left out. */
export function coverageProblems(schema: Schema, values: object, leftOut: object): string[] {
  const args = argumentsOf(schema);
  const members = new Set([...Object.keys(schema.attributes), ...Object.keys(schema.blocks ?? {})]);
  return [
    ...args.filter((n) => !(n in values) && !(n in leftOut)).map((n) => `${n} is an argument but neither exported nor left out`),
    ...Object.keys(values)
      .filter((n) => !args.includes(n))
      .map((n) => `${n} has a value but is not an argument of the schema`),
    ...Object.keys(leftOut)
      .filter((n) => !members.has(n))
      .map((n) => `${n} is left out but the schema has no such attribute or block`),
    ...Object.keys(values)
      .filter((n) => n in leftOut)
      .map((n) => `${n} is both exported and left out`),
  ];
}

/** The record's field of that name, as an argument's value (null: none). */
const fieldValue =
  (name: string): ValueOf<object> =>
  (record) => {
    const value = (record as Record<string, unknown>)[name];
    return typeof value === "string" || typeof value === "boolean" || Array.isArray(value) ? (value as Value) : undefined;
  };

/** A resource's export, checked against its schema once, when the module loads (the CLI loads it only to export). */
function resourceExport<S extends Schema, R, F extends FieldTable, Left extends MemberOf<S> = never>(
  typeName: string,
  declaration: {
    schema: S;
    /** The resource's wire fields: an argument of a field's name is valued by the record's field. */
    fields: F;
    leftOut: Record<Left, string>;
    values: { [K in Exclude<ArgumentOf<S>, Left | keyof F>]: ValueOf<R> } & { [K in Exclude<ArgumentOf<S>, Left> & keyof F]?: ValueOf<R> };
  },
): ResourceExport<R> {
  const { schema, fields, leftOut } = declaration;
  const byName = Object.fromEntries(argumentsOf(schema).flatMap((name) => (name in fields && !(name in leftOut) ? [[name, fieldValue(name)]] : [])));
  const values = { ...byName, ...declaration.values };
  const problems = coverageProblems(schema, values, leftOut);
  if (problems.length) throw new Error(`siteops export of ${typeName} (provider/export/arguments.ts): ${problems.join("; ")}`);
  const table = values as Record<string, ValueOf<R>>;
  const names = argumentsOf(schema).filter((n) => n in table);
  return {
    schema,
    leftOut,
    values: table,
    names,
    attrs: (record) =>
      names.flatMap((n) => {
        const value = table[n]!(record);
        return value === undefined ? [] : [[n, value] as [string, Value]];
      }),
  };
}

const siteExport = resourceExport<typeof siteSchema, Site, typeof siteFields, "upgrade">("siteops_site", {
  schema: siteSchema,
  fields: siteFields,
  leftOut: {
    upgrade:
      "a policy of this configuration (how a version change is applied), not something the service records: an adopted site takes the default until the user writes one",
  },
  values: {
    // The default, written out so that an adopted site is visibly protected.
    deletion_protection: () => true,
  },
});

const webhookEndpointExport = resourceExport<typeof webhookEndpointSchema, WebhookEndpoint, typeof webhookEndpointFields, "secret">(
  "siteops_webhook_endpoint",
  {
    schema: webhookEndpointSchema,
    fields: webhookEndpointFields,
    leftOut: {
      secret:
        "the service shows it only in the answer to the endpoint's creation, never again, so an imported endpoint holds null; computed only today, and were it ever settable, export still could not read it",
    },
    values: {
      // The API has no "unset": an empty description is none.
      description: (e) => (typeof e.description === "string" && e.description ? e.description : undefined),
      enabled_events: (e) => [...e.enabled_events].sort(),
      enabled: (e) => e.status === "enabled",
    },
  },
);

/** The resource types `siteops export` writes, by type name. */
export const EXPORTS = { siteops_site: siteExport, siteops_webhook_endpoint: webhookEndpointExport } as const;

export type ExportedType = keyof typeof EXPORTS;
