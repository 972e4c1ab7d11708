// Validation of a configuration by its schema (ValidateResourceConfig and friends): each attribute's
// validators and deprecation warnings, at every level of nested blocks, on known non-null values only
// (unknown values are checked again once known, at apply).
import { isObject, isUnknown, type ObjectValue } from "../values/cty.js";
import type { AttributePath, Diagnostics } from "./diagnostics.js";
import type { Block } from "./schema.js";

export function validateBlock(block: Block, config: ObjectValue, at: AttributePath, diags: Diagnostics): void {
  for (const name in block.attributes) {
    const attr = block.attributes[name]!;
    const v = config[name] ?? null;
    if (v === null || isUnknown(v)) continue;
    const p = [...at, { attribute: name }];
    if (attr.deprecationMessage) diags.warning("Deprecated attribute", attr.deprecationMessage, p);
    for (const validator of attr.validators ?? []) validator.validate(v, p, diags);
  }
  for (const [name, nb] of Object.entries(block.blocks ?? {})) {
    const v = config[name] ?? null;
    if (v === null || isUnknown(v)) continue;
    const p = [...at, { attribute: name }];
    if (isObject(v) && (nb.nesting === "single" || nb.nesting === "group")) validateBlock(nb.block, v, p, diags);
    else if (Array.isArray(v)) v.forEach((x, i) => isObject(x) && validateBlock(nb.block, x, [...p, { index: i }], diags));
    else if (isObject(v)) for (const [k, x] of Object.entries(v)) if (isObject(x)) validateBlock(nb.block, x, [...p, { key: k }], diags);
  }
}
