// The field tables of wire/generated/fields.ts, rendered by `npm run generate:wire` (scripts/generate-wire.mjs)
// from the resources wire/registry.ts lists: per resource, each field as plain data (JSON type, nullable, shown in
// answers, taken by create and update, description, spec or assumed), so that the CLI, the provider and the
// emulator derive their field lists from the wire without loading typebox.

export class FieldTableError extends Error {
  name = "FieldTableError";
}

const ORIGIN = "x-origin";
const literal = (v) => JSON.stringify(v);

/** The JSON type of a schema: { type, nullable, items?, values? } (values: the strings an enum allows). */
function jsonTypeOf(schema, where) {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const nullable = branches.some((b) => b.type === "null");
    const rest = branches.filter((b) => b.type !== "null");
    if (rest.length > 0 && rest.every((b) => typeof b.const === "string")) return { type: "string", nullable, values: rest.map((b) => b.const) };
    if (rest.length !== 1) throw new FieldTableError(`${where}: a union of ${rest.length} types has no one JSON type`);
    const inner = jsonTypeOf(rest[0], where);
    return { ...inner, nullable: nullable || inner.nullable };
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const nullable = types.includes("null");
  const type = types.filter((t) => t !== "null");
  if (typeof schema.const === "string") return { type: "string", nullable, values: [schema.const] };
  if (type.length !== 1) throw new FieldTableError(`${where}: a field needs one JSON type (got ${literal(schema.type)})`);
  const out = { type: type[0], nullable };
  if (schema.enum) out.values = schema.enum.filter((v) => v !== null);
  if (type[0] === "array") out.items = jsonTypeOf(schema.items ?? {}, `${where}[]`).type ?? "unknown";
  return out;
}

const required = (object, name) => (object?.required ?? []).includes(name);

/** One resource's rows: the fields answers show, in their order, then those only create or update take. */
function fieldRows(resource) {
  const { name, read, created, create, update } = resource;
  const names = [...new Set([read, created, create, update].flatMap((s) => Object.keys(s?.properties ?? {})))];
  return names.map((field) => {
    const where = `${name}.${field}`;
    const shown = read.properties[field] ?? created?.properties[field];
    const schema = shown ?? create?.properties[field] ?? update?.properties[field];
    const origin = [shown, create?.properties[field], update?.properties[field]].find((s) => s?.[ORIGIN])?.[ORIGIN];
    if (origin !== "spec" && origin !== "assumed") {
      throw new FieldTableError(`${where} is not marked: wrap its schema in spec() or assumed() (wire/field.ts)`);
    }
    const description = shown?.description ?? schema.description;
    return {
      name: field,
      ...jsonTypeOf(schema, where),
      read: required(read, field) ? true : created && required(created, field) ? "created" : false,
      create: create?.properties[field] ? (required(create, field) ? "required" : "optional") : false,
      update: Boolean(update?.properties[field]),
      ...(description ? { description } : {}),
      origin,
    };
  });
}

function renderRow(row) {
  const { name, ...rest } = row;
  const parts = Object.entries(rest).map(([k, v]) => `${k}: ${Array.isArray(v) ? `[${v.map(literal).join(", ")}]` : literal(v)}`);
  return `  ${/^[A-Za-z_$][\w$]*$/.test(name) ? name : literal(name)}: { ${parts.join(", ")} },`;
}

const PREAMBLE = `// GENERATED FILE - DO NOT EDIT. Regenerate with \`npm run generate:wire\` (scripts/generate-wire.mjs) from the
// resources wire/registry.ts lists. Plain data: the parts import it without typebox.

/** One field of a resource, as the service shows and takes it. */
export interface WireField {
  /** JSON type of the value; \`items\`: of an array's elements. */
  readonly type: "string" | "integer" | "number" | "boolean" | "array" | "object";
  readonly items?: string;
  /** The values a string may take, where the wire lists them. */
  readonly values?: readonly string[];
  /** JSON null is one of its values. */
  readonly nullable: boolean;
  /** Answers show it: always (true), in the answer to the create only ("created"), or never (false: write only). */
  readonly read: boolean | "created";
  /** The create request takes it: "required", "optional", or not (false). */
  readonly create: "required" | "optional" | false;
  /** The update (PATCH) request takes it, always optional. */
  readonly update: boolean;
  readonly description?: string;
  /**
   * "spec": docs/spec/site-operations-service.md lists it. "assumed": the spec leaves it "not shown"; what the
   * toolkit relies on of such a field is in docs/design.md section 2, "What the toolkit assumes". Whether create or
   * update takes a field is assumed for every field.
   */
  readonly origin: "spec" | "assumed";
}

/** A resource's fields by name, in the order answers show them. */
export type FieldTable = Readonly<Record<string, WireField>>;
`;

/** wire/generated/fields.ts for the registry's resources. */
export function renderFieldTables(resources) {
  const blocks = resources.map((resource) => {
    const rows = fieldRows(resource);
    const doc = resource.doc ? `/** ${resource.doc} */\n` : "";
    return `${doc}export const ${resource.name}Fields = {\n${rows.map(renderRow).join("\n")}\n} as const satisfies FieldTable;\n`;
  });
  const all = `/** Every table, by resource. */\nexport const FIELD_TABLES = { ${resources.map((r) => `${r.name}: ${r.name}Fields`).join(", ")} } as const;\n`;
  return `${PREAMBLE}\n${blocks.join("\n")}\n${all}`;
}

/** The "Regenerating" section both generated READMEs end with. */
export const REGENERATING = `## Regenerating

After changing a schema in \`wire/\`:

\`\`\`sh
npm run generate:wire         # rewrites src/generated/ and wire/generated/ from wire/registry.ts
node scripts/check-wire.mjs   # what CI runs: fails, listing the differences, when either is stale
\`\`\`
`;

export const FIELDS_README = `<!-- GENERATED FILE - DO NOT EDIT. Regenerate with \`npm run generate:wire\` (scripts/generate-wire.mjs). -->
# Generated field tables

\`fields.ts\` holds, per resource of the Site Operations API, its fields as plain data: JSON type, nullable,
whether answers show it and create and update take it, its description, and whether the spec gives it or we assume
it. It is generated from the TypeBox schemas in \`wire/\` (the resources listed in \`wire/registry.ts\`) and imports
nothing, so the CLI, the provider and the emulator derive their field lists from it without loading typebox.

${REGENERATING}`;
