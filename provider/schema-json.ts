// The provider's schema as `terraform providers schema -json` prints it, built from the provider's own
// schema declarations: no Terraform process, no network. The CDKTF binding generator reads this document.
// Field order and omissions follow Terraform's internal/command/jsonprovider (Go structs with omitempty,
// map keys sorted), so the text is byte-identical to Terraform's output.
import type { FunctionDefinition } from "./framework/function.js";
import type { Attribute, Block, Schema } from "./framework/schema.js";
import { siteopsProvider } from "./provider.js";
import type { CtyType } from "./values/cty.js";

export const PROVIDER_ADDRESS = "registry.terraform.io/siteops/siteops";

interface JsonAttribute {
  type: unknown;
  description?: string;
  description_kind?: "plain" | "markdown";
  deprecated?: boolean;
  required?: boolean;
  optional?: boolean;
  computed?: boolean;
  sensitive?: boolean;
}

interface JsonBlockType {
  nesting_mode: "single" | "list" | "set" | "map" | "group";
  block: JsonBlock;
  min_items?: number;
  max_items?: number;
}

interface JsonBlock {
  attributes?: Record<string, JsonAttribute>;
  block_types?: Record<string, JsonBlockType>;
  description?: string;
  description_kind?: "plain" | "markdown";
}

interface JsonSchema {
  version: number;
  block: JsonBlock;
}

interface JsonFunction {
  description?: string;
  summary?: string;
  return_type: unknown;
  parameters?: { name: string; description?: string; type: unknown }[];
}

interface JsonProviderSchema {
  provider: JsonSchema;
  resource_schemas?: Record<string, JsonSchema>;
  data_source_schemas?: Record<string, JsonSchema>;
  functions?: Record<string, JsonFunction>;
}

export interface ProviderSchemasJson {
  format_version: "1.0";
  provider_schemas: Record<string, JsonProviderSchema>;
}

const byName = <T>(entries: [string, T][]): Record<string, T> => Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** cty's JSON type notation; object attribute names sorted as Go marshals them. */
function ctyType(t: CtyType): unknown {
  if (typeof t === "string") return t;
  if (t[0] === "object") return ["object", byName(Object.entries(t[1]).map(([k, v]) => [k, ctyType(v)]))];
  if (t[0] === "tuple") return ["tuple", t[1].map(ctyType)];
  return [t[0], ctyType(t[1])];
}

function attribute(a: Attribute): JsonAttribute {
  // The provider sends every description as markdown (see framework/wire/to-proto.ts); Terraform always prints the kind.
  const out: JsonAttribute = { type: ctyType(a.type) };
  if (a.description) out.description = a.description;
  out.description_kind = "markdown";
  if (a.deprecationMessage) out.deprecated = true;
  if (a.required) out.required = true;
  if (a.optional) out.optional = true;
  if (a.computed) out.computed = true;
  if (a.sensitive) out.sensitive = true;
  return out;
}

function block(b: Block): JsonBlock {
  const out: JsonBlock = {};
  const attrs = Object.entries(b.attributes);
  if (attrs.length) out.attributes = byName(attrs.map(([k, a]) => [k, attribute(a)]));
  const nested = Object.entries(b.blocks ?? {});
  if (nested.length) {
    out.block_types = byName(
      nested.map(([k, nb]) => {
        const bt: JsonBlockType = { nesting_mode: nb.nesting, block: block(nb.block) };
        if (nb.minItems) bt.min_items = nb.minItems;
        if (nb.maxItems) bt.max_items = nb.maxItems;
        return [k, bt];
      }),
    );
  }
  if (b.description) out.description = b.description;
  out.description_kind = "markdown";
  return out;
}

function schema(s: Schema): JsonSchema {
  return { version: s.version ?? 0, block: block(s) };
}

/** What the document needs of a provider definition (a ProviderDefinition fits). */
export interface SchemaSource {
  schema: Schema;
  resources: readonly { typeName: string; schema: Schema }[];
  dataSources: readonly { typeName: string; schema: Schema }[];
  functions?: readonly FunctionDefinition[];
}

/** A function as Terraform's jsonfunction package writes it (omitempty; parameters in order). */
function fn(f: FunctionDefinition): JsonFunction {
  const out: JsonFunction = {
    ...(f.description ? { description: f.description } : {}),
    ...(f.summary ? { summary: f.summary } : {}),
    return_type: ctyType(f.returns),
  };
  if (f.parameters.length)
    out.parameters = f.parameters.map((p) => ({ name: p.name, ...(p.description ? { description: p.description } : {}), type: ctyType(p.type) }));
  return out;
}

/** The `terraform providers schema -json` document of a provider definition (siteops by default). */
export function providerSchemasJson(def: SchemaSource = siteopsProvider(), address = PROVIDER_ADDRESS): ProviderSchemasJson {
  const entry: JsonProviderSchema = { provider: schema(def.schema) };
  if (def.resources.length) entry.resource_schemas = byName(def.resources.map((r) => [r.typeName, schema(r.schema)]));
  if (def.dataSources.length) entry.data_source_schemas = byName(def.dataSources.map((d) => [d.typeName, schema(d.schema)]));
  if (def.functions?.length) entry.functions = byName(def.functions.map((f) => [f.name, fn(f)]));
  return { format_version: "1.0", provider_schemas: { [address]: entry } };
}

/** The document as Terraform prints it: compact JSON and a newline. */
export function providerSchemasJsonText(def?: SchemaSource, address?: string): string {
  // Go's encoding/json escapes <, > and & (and U+2028/U+2029) in strings; they occur nowhere else in JSON.
  const json = JSON.stringify(providerSchemasJson(def, address)).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return `${json}\n`;
}
