// Schema declaration: the TypeScript counterpart of terraform-plugin-framework's schema package. One schema
// drives the wire type (msgpack conversion), validation, planning and the generated docs.
import type { CtyType, Value } from "../values/cty.js";
import type { PlanModifier } from "./plan-modifiers.js";
import type { Validator } from "./validators.js";

export interface Attribute {
  type: CtyType;
  /** Markdown; shown in `terraform providers schema` and the generated docs. */
  description: string;
  required?: boolean;
  optional?: boolean;
  computed?: boolean;
  sensitive?: boolean;
  deprecationMessage?: string;
  validators?: readonly Validator[];
  planModifiers?: readonly PlanModifier[];
  /** Planned when the configuration leaves the attribute null (requires optional + computed). */
  default?: Value;
  /**
   * Semantic equality (terraform-plugin-framework's `StringSemanticEquals`): whether `next` means the same as
   * `kept`, two known values that differ (two spellings of one URL). Where they do, the framework keeps `kept`,
   * the value Terraform already has (semantic-equality.ts). A promise when it needs code loaded lazily.
   */
  semanticEquals?: (kept: Value, next: Value) => boolean | Promise<boolean>;
}

export interface NestedBlock {
  nesting: "single" | "list" | "set" | "map" | "group";
  block: Block;
  minItems?: number;
  maxItems?: number;
}

export interface Block {
  description?: string;
  attributes: { readonly [name: string]: Attribute };
  blocks?: { readonly [name: string]: NestedBlock };
}

export interface Schema extends Block {
  description: string;
  /** Bump when stored state needs an upgrade; see Resource.stateUpgraders. */
  version?: number;
}

/**
 * Declares a schema keeping its literal shape (`type: "string"`, `required: true`), from which the resource's
 * typed model is derived (see model.ts): `const siteSchema = defineSchema({ ... })`.
 */
export function defineSchema<const S extends Schema>(schema: S): S {
  return schema;
}

/** The object type of values conforming to a block. */
export function blockType(block: Block): CtyType {
  const attrs: Record<string, CtyType> = {};
  for (const [name, a] of Object.entries(block.attributes)) attrs[name] = a.type;
  for (const [name, b] of Object.entries(block.blocks ?? {})) {
    const inner = blockType(b.block);
    attrs[name] =
      b.nesting === "single" || b.nesting === "group" ? inner : b.nesting === "list" ? ["list", inner] : b.nesting === "set" ? ["set", inner] : ["map", inner];
  }
  return ["object", attrs];
}

export function checkSchema(name: string, block: Block): void {
  for (const [attr, a] of Object.entries(block.attributes)) {
    const modes = [a.required, a.optional || a.computed].filter(Boolean).length;
    if (modes !== 1) throw new Error(`${name}.${attr}: exactly one of required, or optional/computed, must be set`);
    if (a.default !== undefined && !(a.optional && a.computed)) throw new Error(`${name}.${attr}: a default needs optional + computed`);
  }
}
