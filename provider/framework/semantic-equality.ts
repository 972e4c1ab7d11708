// Semantic equality, for attributes that declare `semanticEquals` (schema.ts): where a new value means the same
// as the one Terraform already has, the framework keeps the one it has. A service that rewrites what it stores
// (a URL's host in lower case, `6.5` as `6.5.0`) then neither fails an apply ("Provider produced inconsistent
// result after apply", which taints the object) nor shows a diff. terraform-plugin-framework keeps the plan's
// value after create and update, the prior state's after a read, the configuration's in a data source; this
// framework does the same, and also plans the prior state's value when the configuration spells it otherwise
// (Terraform accepts a planned value equal to the prior state in place of the configured one), so the plan after
// an import is empty too.
import { equal, isObject, isUnknown, type ObjectValue, type Value } from "../values/cty.js";
import type { Block, NestedBlock } from "./schema.js";

/**
 * `next` with the value of `kept` (at the same path) wherever an attribute's semanticEquals says the two mean the
 * same. Null and unknown values are left as they are. Returns `next` itself when nothing changes.
 */
export async function keepEquivalent(block: Block, next: ObjectValue, kept: ObjectValue | null): Promise<ObjectValue> {
  if (kept === null) return next;
  let out = next;
  const set = (name: string, v: Value) => {
    if (out === next) out = { ...next };
    out[name] = v;
  };
  for (const name in block.attributes) {
    const same = block.attributes[name]!.semanticEquals;
    if (!same) continue;
    const was = kept[name] ?? null;
    const now = next[name] ?? null;
    if (was === null || now === null || isUnknown(was) || isUnknown(now) || equal(was, now)) continue;
    if (await same(was, now)) set(name, was);
  }
  for (const name in block.blocks ?? {}) {
    const v = next[name] ?? null;
    const kept2 = await keepNested(block.blocks![name]!, v, kept[name] ?? null);
    if (kept2 !== v) set(name, kept2);
  }
  return out;
}

/** A nested block's elements paired with those of `kept` the way planning pairs them: lists by position, maps by
 * key. Set elements have no position to pair by, so they are left alone. */
async function keepNested(nb: NestedBlock, v: Value, kept: Value): Promise<Value> {
  if (nb.nesting === "single" || nb.nesting === "group") return isObject(v) && isObject(kept) ? keepEquivalent(nb.block, v, kept) : v;
  if (nb.nesting === "list" && Array.isArray(v) && Array.isArray(kept)) {
    const out = await Promise.all(v.map(async (x, i) => (isObject(x) && isObject(kept[i] ?? null) ? keepEquivalent(nb.block, x, kept[i] as ObjectValue) : x)));
    return out.every((x, i) => x === v[i]) ? v : out;
  }
  if (nb.nesting === "map" && isObject(v) && isObject(kept)) {
    const entries = await Promise.all(
      Object.entries(v).map(
        async ([k, x]) => [k, isObject(x) && isObject(kept[k] ?? null) ? await keepEquivalent(nb.block, x, kept[k] as ObjectValue) : x] as const,
      ),
    );
    return entries.every(([k, x]) => x === v[k]) ? v : Object.fromEntries(entries);
  }
  return v;
}
