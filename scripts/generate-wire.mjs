#!/usr/bin/env node
// `npm run generate:wire`: writes src/generated/wire.ts, the client's request, response and error types,
// from the emulator's TypeBox schemas (emulator/schemas/wire.ts lists them by name): the schemas the
// routes validate with and /openapi.json documents are the one source of the wire. The output imports
// nothing. scripts/check-wire.mjs renders the same into memory and fails CI when the committed file differs.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const WIRE_DIR = "src/generated";
export const WIRE_FILES = ["wire.ts", "README.md"];

export class GenerateError extends Error {
  name = "GenerateError";
}

/** The registry of named wire schemas, loaded from the emulator's source (tsx; no build needed). */
export async function loadWireTypes(root = ROOT) {
  const { tsImport } = await import("tsx/esm/api");
  const mod = await tsImport(pathToFileURL(path.join(root, "wire/registry.ts")).href, {
    parentURL: import.meta.url,
    tsconfig: path.join(root, "tsconfig.json"),
  });
  return mod.WIRE_TYPES;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const literal = (v) => JSON.stringify(v);

function docComment(text, indent) {
  if (!text) return "";
  const lines = String(text).split("\n");
  if (lines.length === 1) return `${indent}/** ${lines[0].replace(/\*\//g, "*\\/")} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l.replace(/\*\//g, "*\\/")}`).join("\n")}\n${indent} */\n`;
}

/** TypeScript for one JSON schema; `names` maps schema objects to the names they are emitted under. */
function render(schema, names, indent, self) {
  const named = names.get(schema);
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
    return `${docComment(prop.description ?? names.docOf?.(prop), inner)}${inner}${name}${required.has(key) ? "" : "?"}: ${render(prop, names, inner)};`;
  });
  return `{\n${lines.join("\n")}\n${indent}}`;
}

export const HEADER = [
  "// GENERATED FILE - DO NOT EDIT. Regenerate with `npm run generate:wire` (scripts/generate-wire.mjs)",
  "// from the emulator's TypeBox schemas (emulator/schemas/wire.ts), the same ones /openapi.json documents.",
  "",
].join("\n");

const README = `<!-- GENERATED FILE - DO NOT EDIT. Regenerate with \`npm run generate:wire\` (scripts/generate-wire.mjs). -->
# Generated wire types

\`wire.ts\` holds the request, response and error bodies of the Site Operations API as TypeScript types,
generated from the emulator's TypeBox schemas (\`emulator/schemas/\`, listed by name in
\`emulator/schemas/wire.ts\`): the schemas the emulator validates with and \`/openapi.json\` documents. It imports
nothing. \`src/resources/*.ts\` re-export these types under the names the package publishes.

## Regenerating

After changing a schema in \`emulator/schemas/\`:

\`\`\`sh
npm run generate:wire         # rewrites src/generated/ from emulator/schemas/wire.ts
node scripts/check-wire.mjs   # what CI runs: fails, listing the differences, when this folder is stale
\`\`\`
`;

/** The generated files, name -> content, for a list of named schemas. */
export function renderWire(wireTypes) {
  const names = new Map();
  for (const w of wireTypes) {
    if (names.has(w.schema)) throw new GenerateError(`${w.name} and ${names.get(w.schema)} are the same schema`);
    names.set(w.schema, w.name);
  }
  const blocks = wireTypes.map((w) => {
    const body = render(w.schema, names, "", w.schema);
    const doc = docComment(w.doc ?? w.schema.description, "");
    return body.startsWith("{") && w.schema.type === "object" ? `${doc}export interface ${w.name} ${body}\n` : `${doc}export type ${w.name} = ${body};\n`;
  });
  return new Map([
    ["wire.ts", `${HEADER}\n${blocks.join("\n")}`],
    ["README.md", README],
  ]);
}

export async function generateWire({ root = ROOT, outDir = path.join(root, WIRE_DIR) } = {}) {
  const files = renderWire(await loadWireTypes(root));
  mkdirSync(outDir, { recursive: true });
  for (const [name, text] of files) writeFileSync(path.join(outDir, name), text);
  return { outDir, files: [...files.keys()] };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    const { outDir, files } = await generateWire();
    console.error(`generate:wire: ${files.join(", ")} written to ${path.relative(process.cwd(), outDir) || outDir}`);
  } catch (err) {
    console.error(`generate:wire: ${err instanceof GenerateError ? err.message : err instanceof Error ? err.stack : err}`);
    process.exit(1);
  }
}
