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

/** A value, or a promise of it when a semanticEquals had to be asked (they may load the API client). */
type Maybe<T> = T | Promise<T>;

/** `then` of the values, at once when none is a promise: a plan or apply whose values are all equal (nearly every
 * one) runs no promise and no microtask here, the same pairing whatever the path. */
function all<T, R>(items: Maybe<T>[], then: (values: T[]) => R): Maybe<R> {
  return items.some((x) => x instanceof Promise) ? Promise.all(items).then(then) : then(items as T[]);
}

/**
 * `next` with the value of `kept` (at the same path) wherever an attribute's semanticEquals says the two mean the
 * same. Null and unknown values are left as they are. Returns `next` itself when nothing changes; a promise only
 * when a semanticEquals was asked.
 */
export function keepEquivalent(block: Block, next: ObjectValue, kept: ObjectValue | null): Maybe<ObjectValue> {
  if (kept === null) return next;
  const names: string[] = [];
  const values: Maybe<Value>[] = [];
  for (const name in block.attributes) {
    const same = block.attributes[name]!.semanticEquals;
    if (!same) continue;
    const was = kept[name] ?? null;
    const now = next[name] ?? null;
    if (was === null || now === null || isUnknown(was) || isUnknown(now) || equal(was, now)) continue;
    names.push(name);
    values.push(Promise.resolve(same(was, now)).then((yes) => (yes ? was : now)));
  }
  for (const name in block.blocks ?? {}) {
    names.push(name);
    values.push(keepNested(block.blocks![name]!, next[name] ?? null, kept[name] ?? null));
  }
  return all(values, (kept2) => {
    let out = next;
    kept2.forEach((v, i) => {
      const name = names[i]!;
      if (v === (next[name] ?? null)) return;
      if (out === next) out = { ...next };
      out[name] = v;
    });
    return out;
  });
}

/** A nested block's elements paired with those of `kept` the way planning pairs them: lists by position, maps by
 * key. Set elements have no position to pair by, so they are left alone. */
function keepNested(nb: NestedBlock, v: Value, kept: Value): Maybe<Value> {
  if (nb.nesting === "single" || nb.nesting === "group") return isObject(v) && isObject(kept) ? keepEquivalent(nb.block, v, kept) : v;
  if (nb.nesting === "list" && Array.isArray(v) && Array.isArray(kept)) {
    const items = v.map((x, i) => (isObject(x) && isObject(kept[i] ?? null) ? keepEquivalent(nb.block, x, kept[i] as ObjectValue) : x));
    return all(items, (out) => (out.every((x, i) => x === v[i]) ? v : out));
  }
  if (nb.nesting === "map" && isObject(v) && isObject(kept)) {
    const keys = Object.keys(v);
    const items = keys.map((k) => {
      const x = v[k]!;
      return isObject(x) && isObject(kept[k] ?? null) ? keepEquivalent(nb.block, x, kept[k] as ObjectValue) : x;
    });
    return all(items, (out) => (out.every((x, i) => x === v[keys[i]!]) ? v : Object.fromEntries(keys.map((k, i) => [k, out[i]!]))));
  }
  return v;
}
