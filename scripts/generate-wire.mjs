#!/usr/bin/env node
// `npm run generate:wire`: writes, from the TypeBox schemas of wire/ (wire/registry.ts lists the published types
// and the resources), src/generated/wire.ts, the client's request, response and error types, and
// wire/generated/fields.ts, each resource's field table (scripts/generate-wire-fields.mjs). The schemas the
// emulator's routes validate with and /openapi.json documents are the one source of the wire. Both outputs import
// nothing. scripts/check-wire.mjs renders the same into memory and fails CI when a committed file differs.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { FIELDS_README, FieldTableError, REGENERATING, renderFieldTables } from "./generate-wire-fields.mjs";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** What the generator writes, by path from the root. */
export const OUTPUTS = ["src/generated/wire.ts", "src/generated/README.md", "wire/generated/fields.ts", "wire/generated/README.md"];

export class GenerateError extends Error {
  name = "GenerateError";
}

/** A registry module's named wire schemas and resources, loaded from source (tsx; no build needed). */
export async function loadRegistry(file = path.join(ROOT, "wire/registry.ts")) {
  const { tsImport } = await import("tsx/esm/api");
  const mod = await tsImport(pathToFileURL(file).href, { parentURL: import.meta.url, tsconfig: path.join(ROOT, "tsconfig.json") });
  return { wireTypes: mod.WIRE_TYPES, resources: mod.RESOURCES };
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const literal = (v) => JSON.stringify(v);

function docComment(text, indent) {
  if (!text) return "";
  const lines = String(text).split("\n");
  if (lines.length === 1) return `${indent}/** ${lines[0].replace(/\*\//g, "*\\/")} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l.replace(/\*\//g, "*\\/")}`).join("\n")}\n${indent} */\n`;
}

/** A schema's shape less what marks it as a field (origin, description): a named type used as a field stays a
 * reference to its name. */
const shapeKey = (schema) => JSON.stringify(schema, (key, value) => (key === "x-origin" || key === "description" ? undefined : value));

/** TypeScript for one JSON schema; `names` maps schema objects (and their shapes) to the names they are emitted under. */
function render(schema, names, indent, self) {
  const named = names.get(schema) ?? names.shapes.get(shapeKey(schema));
  if (named && schema !== self) return named;
  const union = (parts) => [...new Set(parts)].join(" | ");
  if (schema.anyOf) return union(schema.anyOf.map((s) => render(s, names, indent)));
  if (schema.oneOf) return union(schema.oneOf.map((s) => render(s, names, indent)));
  if ("const" in schema) return literal(schema.const);
  if (schema.enum) return union(schema.enum.map(literal));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length > 1) return union(types.map((type) => render({ ...schema, type }, names, indent)));
  switch (types[0]) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array": {
      const item = render(schema.items ?? {}, names, indent);
      return /[ |&]/.test(item) && !item.startsWith("{") ? `(${item})[]` : `${item}[]`;
    }
    case "object":
      return renderObject(schema, names, indent);
    case undefined:
      return "unknown";
    default:
      throw new GenerateError(`unsupported schema type ${types[0]}`);
  }
}

function renderObject(schema, names, indent) {
  const props = Object.entries(schema.properties ?? {});
  const extra = schema.patternProperties ? Object.values(schema.patternProperties)[0] : schema.additionalProperties === true ? {} : undefined;
  if (props.length === 0) return extra ? `Record<string, ${render(extra, names, indent)}>` : "Record<string, never>";
  if (extra) throw new GenerateError("objects with both properties and additional properties are not supported");
  const required = new Set(schema.required ?? []);
  const inner = `${indent}  `;
  const lines = props.map(([key, prop]) => {
    const name = IDENT.test(key) ? key : literal(key);
    return `${docComment(prop.description, inner)}${inner}${name}${required.has(key) ? "" : "?"}: ${render(prop, names, inner)};`;
  });
  return `{\n${lines.join("\n")}\n${indent}}`;
}

export const HEADER = [
  "// GENERATED FILE - DO NOT EDIT. Regenerate with `npm run generate:wire` (scripts/generate-wire.mjs)",
  "// from the TypeBox schemas of wire/ (wire/registry.ts), the ones the emulator validates with and /openapi.json documents.",
  "",
].join("\n");

const README = `<!-- GENERATED FILE - DO NOT EDIT. Regenerate with \`npm run generate:wire\` (scripts/generate-wire.mjs). -->
# Generated wire types

\`wire.ts\` holds the request, response and error bodies of the Site Operations API as TypeScript types,
generated from the TypeBox schemas of \`wire/\` (listed by name in \`wire/registry.ts\`): the schemas the
emulator validates with and \`/openapi.json\` documents. It imports nothing, so the client ships no typebox.
\`src/resources/*.ts\` re-export these types under the names the package publishes.

${REGENERATING}`;

/** The generated files, path from the root -> content, for a registry's named schemas and resources. */
export function renderWire({ wireTypes, resources }) {
  const names = new Map();
  names.shapes = new Map();
  for (const w of wireTypes) {
    if (names.has(w.schema)) throw new GenerateError(`${w.name} and ${names.get(w.schema)} are the same schema`);
    names.set(w.schema, w.name);
    names.shapes.set(shapeKey(w.schema), w.name);
  }
  const blocks = wireTypes.map((w) => {
    const body = render(w.schema, names, "", w.schema);
    const doc = docComment(w.doc ?? w.schema.description, "");
    return body.startsWith("{") && w.schema.type === "object" ? `${doc}export interface ${w.name} ${body}\n` : `${doc}export type ${w.name} = ${body};\n`;
  });
  let fields;
  try {
    fields = renderFieldTables(resources);
  } catch (err) {
    throw err instanceof FieldTableError ? new GenerateError(err.message) : err;
  }
  const texts = [`${HEADER}\n${blocks.join("\n")}`, README, fields, FIELDS_README];
  return new Map(OUTPUTS.map((file, i) => [file, texts[i]]));
}

export async function generateWire({ root = ROOT } = {}) {
  const files = renderWire(await loadRegistry());
  for (const [file, text] of files) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return { files: [...files.keys()] };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    const { files } = await generateWire();
    console.error(`generate:wire: ${files.join(", ")} written`);
  } catch (err) {
    console.error(`generate:wire: ${err instanceof GenerateError ? err.message : err instanceof Error ? err.stack : err}`);
    process.exit(1);
  }
}
