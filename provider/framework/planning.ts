// The framework's planning rules (PlanResourceChange), applied at every level of nested blocks as
// validation is, in the framework's order:
//   1. defaults fill attributes the configuration leaves null;
//   2. when the planned object differs from the prior state, computed attributes the configuration leaves
//      null become unknown ("known after apply"), in nested blocks too;
//   3. plan modifiers run per attribute, given the prior value at the same path (list and set elements by
//      position, map elements by key, as terraform-plugin-framework matches them).
// The resource-level modifyPlan hook runs after these (provider-server.ts).
import { UNKNOWN, equal, isObject, type ObjectValue, type Value } from "../values/cty.js";
import type { AttributePath } from "./diagnostics.js";
import type { Block, NestedBlock } from "./schema.js";

export interface PlannedObject {
  plan: ObjectValue;
  requiresReplace: AttributePath[];
}

export function planObject(schema: Block, prior: ObjectValue | null, proposed: ObjectValue, config: ObjectValue): PlannedObject {
  const plan = withDefaults(schema, proposed, config);
  if (prior === null || !equal(plan, prior)) markUnknown(schema, plan, config);
  const requiresReplace: AttributePath[] = [];
  modify(schema, [], plan, prior, config, prior, requiresReplace);
  return { plan, requiresReplace };
}

/** The elements of a nested block's value paired with the same element of another value (config, prior). */
function pairs(nb: NestedBlock, v: Value, other: Value): [ObjectValue, ObjectValue | null, string | number | null][] {
  if (isObject(v) && (nb.nesting === "single" || nb.nesting === "group")) return [[v, isObject(other) ? other : null, null]];
  if (Array.isArray(v)) {
    const o = Array.isArray(other) ? other : [];
    return v.flatMap((x, i) =>
      isObject(x) ? [[x, isObject(o[i] ?? null) ? (o[i] as ObjectValue) : null, i] as [ObjectValue, ObjectValue | null, number]] : [],
    );
  }
  if (isObject(v) && nb.nesting === "map") {
    const o = isObject(other) ? other : {};
    return Object.entries(v).flatMap(([k, x]) =>
      isObject(x) ? [[x, isObject(o[k] ?? null) ? (o[k] as ObjectValue) : null, k] as [ObjectValue, ObjectValue | null, string]] : [],
    );
  }
  return [];
}

/** Replaces each element of a nested block's value by `f(element, ...)`; returns a new value. */
function mapNested(nb: NestedBlock, v: Value, other: Value, f: (x: ObjectValue, o: ObjectValue | null) => ObjectValue): Value {
  if (isObject(v) && (nb.nesting === "single" || nb.nesting === "group")) return f(v, isObject(other) ? other : null);
  if (Array.isArray(v)) {
    const o = Array.isArray(other) ? other : [];
    return v.map((x, i) => (isObject(x) ? f(x, isObject(o[i] ?? null) ? (o[i] as ObjectValue) : null) : x));
  }
  if (isObject(v) && nb.nesting === "map") {
    const o = isObject(other) ? other : {};
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, isObject(x) ? f(x, isObject(o[k] ?? null) ? (o[k] as ObjectValue) : null) : x]));
  }
  return v;
}

/** Step 1, copying every object it passes through (later steps change the copies in place). */
function withDefaults(block: Block, proposed: ObjectValue, config: ObjectValue | null): ObjectValue {
  const out: ObjectValue = { ...proposed };
  for (const name in block.attributes) {
    const d = block.attributes[name]!.default;
    if (d !== undefined && (config?.[name] ?? null) === null) out[name] = d;
  }
  for (const name in block.blocks ?? {}) {
    const nb = block.blocks![name]!;
    out[name] = mapNested(nb, proposed[name] ?? null, config?.[name] ?? null, (x, c) => withDefaults(nb.block, x, c));
  }
  return out;
}

/** Step 2. */
function markUnknown(block: Block, plan: ObjectValue, config: ObjectValue | null): void {
  for (const name in block.attributes) {
    const attr = block.attributes[name]!;
    if (attr.computed && attr.default === undefined && (config?.[name] ?? null) === null) plan[name] = UNKNOWN;
  }
  for (const name in block.blocks ?? {}) {
    const nb = block.blocks![name]!;
    for (const [x, c] of pairs(nb, plan[name] ?? null, config?.[name] ?? null)) markUnknown(nb.block, x, c);
  }
}

/** Step 3. `priorState` is the whole prior object (null when creating), `prior` the one at this level. */
function modify(
  block: Block,
  at: AttributePath,
  plan: ObjectValue,
  prior: ObjectValue | null,
  config: ObjectValue | null,
  priorState: ObjectValue | null,
  replace: AttributePath[],
): void {
  for (const name in block.attributes) {
    const modifiers = block.attributes[name]!.planModifiers;
    if (!modifiers) continue;
    const p = [...at, { attribute: name }];
    for (const m of modifiers) {
      const res = m.modify({ path: p, config: config?.[name] ?? null, state: prior?.[name] ?? null, plan: plan[name] ?? null, priorState });
      if (res.plan !== undefined) plan[name] = res.plan;
      if (res.requiresReplace) replace.push(p);
    }
  }
  for (const name in block.blocks ?? {}) {
    const nb = block.blocks![name]!;
    const configs = pairs(nb, plan[name] ?? null, config?.[name] ?? null);
    const priors = pairs(nb, plan[name] ?? null, prior?.[name] ?? null);
    configs.forEach(([x, c, step], i) => {
      const p = [...at, { attribute: name }, ...(step === null ? [] : [typeof step === "number" ? { index: step } : { key: step }])];
      modify(nb.block, p, x, priors[i]![1], c, priorState, replace);
    });
  }
}
