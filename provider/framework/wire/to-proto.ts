// Framework -> wire: schemas, diagnostics, attribute paths, dynamic values, private state and function
// signatures as the tfplugin6 messages (protocol/tfplugin6.ts), ready for protobuf.ts to encode.
import type * as tfplugin6 from "../../protocol/tfplugin6.js";
import { type CtyType, type Value } from "../../values/cty.js";
import { encodeMsgpack } from "../../values/cty-msgpack.js";
import type { AttributePath, Diagnostic } from "../diagnostics.js";
import type { FunctionDefinition } from "../function.js";
import type { PrivateState } from "../resource.js";
import type { Block, Schema } from "../schema.js";

const SEVERITY = { error: 1, warning: 2 } as const;
const MARKDOWN = 1;
const NESTING = { single: 1, list: 2, set: 3, map: 4, group: 5 } as const;

export function dynamicValue(type: CtyType, value: Value): tfplugin6.DynamicValue {
  return { msgpack: encodeMsgpack(type, value) };
}

export function attributePath(p: AttributePath): tfplugin6.AttributePath {
  return {
    steps: p.map((s) => ("attribute" in s ? { attribute_name: s.attribute } : "key" in s ? { element_key_string: s.key } : { element_key_int: s.index })),
  };
}

function diagnostic(d: Diagnostic): tfplugin6.Diagnostic {
  return {
    severity: SEVERITY[d.severity],
    summary: d.summary,
    detail: d.detail ?? "",
    ...(d.path && d.path.length ? { attribute: attributePath(d.path) } : {}),
  };
}

export function diagnostics(list: readonly Diagnostic[]): tfplugin6.Diagnostic[] {
  return list.map(diagnostic);
}

function block(b: Block, version: number): Record<string, unknown> {
  return {
    version,
    description: b.description ?? "",
    description_kind: MARKDOWN,
    attributes: Object.entries(b.attributes)
      // By code point: localeCompare's first call builds ICU's collator, a cost on the schema process's only RPC.
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
      .map(([name, a]) => ({
        name,
        type: Buffer.from(JSON.stringify(a.type)),
        description: a.description,
        description_kind: MARKDOWN,
        required: !!a.required,
        optional: !!a.optional,
        computed: !!a.computed,
        sensitive: !!a.sensitive,
        deprecated: !!a.deprecationMessage,
      })),
    block_types: Object.entries(b.blocks ?? {}).map(([name, nb]) => ({
      type_name: name,
      block: block(nb.block, version),
      nesting: NESTING[nb.nesting],
      min_items: nb.minItems ?? 0,
      max_items: nb.maxItems ?? 0,
    })),
  };
}

export function schema(s: Schema): Record<string, unknown> {
  const version = s.version ?? 0;
  return { version, block: block(s, version) };
}

/** Private state as Terraform stores it: opaque bytes, here JSON; empty when there is nothing to keep. */
export function privateBytes(p: PrivateState | undefined): Uint8Array {
  return p && Object.keys(p).length ? Buffer.from(JSON.stringify(p)) : new Uint8Array(0);
}

/** A function's signature as GetFunctions and GetProviderSchema describe it. */
export function functionSignature(f: FunctionDefinition): Record<string, unknown> {
  return {
    parameters: f.parameters.map((p) => ({
      name: p.name,
      type: Buffer.from(JSON.stringify(p.type)),
      allow_null_value: false,
      allow_unknown_values: false,
      description: p.description,
      description_kind: MARKDOWN,
    })),
    return: { type: Buffer.from(JSON.stringify(f.returns)) },
    summary: f.summary,
    description: f.description,
    description_kind: MARKDOWN,
  };
}
