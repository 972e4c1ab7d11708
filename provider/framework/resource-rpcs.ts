// The resource RPCs (ReadResource, PlanResourceChange, ApplyResourceChange, ImportResourceState) over one
// resource: the framework's work around the resource's own methods (models, planning, semantic equality,
// destroy plans, identity checks, an object imported and destroyed in one plan: import-guard.ts).
// provider-server.ts finds the resource and guards each call.
import type * as tfplugin6 from "../protocol/tfplugin6.js";
import { equal, isObject, type CtyType, type ObjectValue, type Value } from "../values/cty.js";
import { Diagnostics, path } from "./diagnostics.js";
import type { ErasedResource } from "./erased.js";
import { movedError, type ImportGuard } from "./import-guard.js";
import { decodeModel, type ModelMode } from "./model.js";
import { planObject } from "./planning.js";
import type { CallContext, PlanContext, PrivateState } from "./resource.js";
import { keepEquivalent } from "./semantic-equality.js";
import * as fromProto from "./wire/from-proto.js";
import * as toProto from "./wire/to-proto.js";

type Wire = tfplugin6.ReceivedDynamicValue | null | undefined;

export interface ResourceEntry<D> {
  impl: ErasedResource<D>;
  type: CtyType;
}

/** What the resource's methods receive: `call()` throws when the provider is not configured. */
export interface Contexts<D> {
  call(): CallContext<D>;
  plan(): PlanContext<D>;
  /** The objects this process's plan imports and destroys. */
  imports: ImportGuard;
}

export async function readResource<D>({ impl, type }: ResourceEntry<D>, req: tfplugin6.ReadResourceRequest, diags: Diagnostics, ctx: Contexts<D>) {
  const current = fromProto.dynamicValue(type, req.current_state);
  if (current === null || !isObject(current)) return { new_state: toProto.dynamicValue(type, null), private: req.private ?? undefined };
  const state = stored(impl, current, "stored", diags);
  if (!state) return { new_state: toProto.dynamicValue(type, current), private: req.private ?? undefined };
  const priv = fromProto.privateState(req.private);
  const res = await impl.read({ state, private: priv }, diags, ctx.call());
  // On an error keep what we had: Terraform must not forget an object because of a network blip.
  const next = res.state === null ? (diags.hasErrors ? current : null) : await keepEquivalent(impl.schema, res.state, current);
  // An object gone takes its private state with it: Terraform hands a removed object's private state to the plan
  // of its new one, where it would read as the replacement of an object that still exists (site-protection.ts).
  if (next === null) return { new_state: toProto.dynamicValue(type, null) };
  return { new_state: unchanged(type, next, current, req.current_state), private: toProto.privateBytes(res.private ?? priv) };
}

export async function planResourceChange<D>({ impl, type }: ResourceEntry<D>, req: tfplugin6.PlanResourceChangeRequest, diags: Diagnostics, ctx: Contexts<D>) {
  const prior = fromProto.dynamicValue(type, req.prior_state) as ObjectValue | null;
  const proposed = fromProto.dynamicValue(type, req.proposed_new_state) as ObjectValue | null;
  const config = (fromProto.dynamicValue(type, req.config) as ObjectValue | null) ?? {};
  const priv = fromProto.privateState(req.prior_private);
  if (proposed === null) {
    // A destroy: Terraform asks because the server declares plan_destroy (provider-server.ts).
    if (prior !== null && !(await planDestroy(impl, prior, priv, diags, ctx))) return {};
    return { planned_state: toProto.dynamicValue(type, null), planned_private: req.prior_private ?? undefined };
  }
  // The imported object's own plan, when its destroy elsewhere came after its import (import-guard.ts).
  const id = identityOf(impl, prior);
  if (id !== undefined && ctx.imports.both(impl.typeName, id)) {
    movedError(diags, "imported", impl.typeName, id, path(impl.identity!));
    return {};
  }
  const { plan, requiresReplace } = planObject(impl.schema, prior, await keepEquivalent(impl.schema, proposed, prior), config);
  if (impl.modifyPlan) {
    const priorModel = prior === null ? null : decodeModel(impl.schema, prior, "known", diags);
    if (priorModel === undefined) return {};
    await impl.modifyPlan({ plan, prior: priorModel, config, requiresReplace, private: priv }, diags, ctx.plan());
    if (diags.hasErrors) return {};
  }
  return {
    planned_state: prior === null ? toProto.dynamicValue(type, plan) : unchanged(type, plan, prior, req.prior_state),
    requires_replace: requiresReplace.map(toProto.attributePath),
    planned_private: req.prior_private ?? undefined,
  };
}

/**
 * A planned destroy: the resource's own check (planDestroy), and the guard against destroying an object this plan
 * imports at another address, which wins over a refusal (a refusal's advice would delete it). False: refused.
 */
async function planDestroy<D>(impl: ErasedResource<D>, prior: ObjectValue, priv: PrivateState, diags: Diagnostics, ctx: Contexts<D>): Promise<boolean> {
  const refusal = new Diagnostics();
  if (impl.planDestroy) {
    const priorModel = decodeModel(impl.schema, prior, "known", diags);
    if (!priorModel) return false;
    await impl.planDestroy({ prior: priorModel, private: priv }, refusal, ctx.plan());
  }
  const id = identityOf(impl, prior);
  if (id !== undefined) {
    const moved = await ctx.imports.destroyMoved(impl.typeName, id, refusal.hasErrors);
    if (moved) {
      movedError(diags, "destroy", impl.typeName, id, path(impl.identity!));
      return false;
    }
  }
  diags.items.push(...refusal.items);
  return !refusal.hasErrors;
}

/** The identity attribute's value in `value`, when the resource has one and it is set. */
function identityOf<D>(impl: ErasedResource<D>, value: ObjectValue | null): string | undefined {
  const id = impl.identity && value ? value[impl.identity] : undefined;
  return typeof id === "string" ? id : undefined;
}

export async function applyResourceChange<D>(
  { impl, type }: ResourceEntry<D>,
  req: tfplugin6.ApplyResourceChangeRequest,
  diags: Diagnostics,
  ctx: Contexts<D>,
) {
  const priorValue = fromProto.dynamicValue(type, req.prior_state) as ObjectValue | null;
  const plannedValue = fromProto.dynamicValue(type, req.planned_state) as ObjectValue | null;
  const priv = fromProto.privateState(req.planned_private);
  const call = ctx.call();
  const prior = priorValue === null ? null : stored(impl, priorValue, "known", diags);
  if (prior === undefined) return { new_state: toProto.dynamicValue(type, priorValue) };
  if (plannedValue === null) {
    if (prior !== null) await impl.delete({ prior, private: priv }, diags, call);
    // A failed (or refused) delete keeps the object in state.
    return { new_state: toProto.dynamicValue(type, diags.hasErrors ? priorValue : null) };
  }
  const plan = prior === null ? decodeModel(impl.schema, plannedValue, "known", diags) : stored(impl, plannedValue, "known", diags);
  const config = decodeModel(impl.schema, objectOf(type, req.config), "known", diags);
  if (!plan || !config) return { new_state: toProto.dynamicValue(type, priorValue) };
  const res = prior === null ? await impl.create({ plan, config }, diags, call) : await impl.update({ plan, prior, config, private: priv }, diags, call);
  // The service may spell a value otherwise than the plan: where it means the same, the plan's spelling stays.
  const state = res.state === null ? priorValue : await keepEquivalent(impl.schema, res.state, plannedValue);
  return { new_state: toProto.dynamicValue(type, state), private: toProto.privateBytes(res.private ?? priv) };
}

export async function importResourceState<D>(
  { impl, type }: ResourceEntry<D>,
  req: tfplugin6.ImportResourceStateRequest,
  diags: Diagnostics,
  ctx: Contexts<D>,
) {
  let partial: ObjectValue;
  if (impl.importState) partial = await impl.importState(req.id, diags, ctx.call());
  else if (impl.identity) {
    const id = req.id.trim();
    if (!id)
      diags.error(
        "Invalid import ID",
        `Import a ${req.type_name} by its ${impl.identity}, e.g. \`terraform import ${req.type_name}.example <${impl.identity}>\`.`,
        path(impl.identity),
      );
    partial = { [impl.identity]: id };
  } else {
    diags.error("Resource Import Not Implemented", `${req.type_name} cannot be imported.`);
    return {};
  }
  if (diags.hasErrors) return {};
  const id = identityOf(impl, partial);
  if (id !== undefined && ctx.imports.imported(req.type_name, id)) {
    movedError(diags, "import", req.type_name, id);
    return {};
  }
  const state: ObjectValue = {};
  for (const name of Object.keys(impl.schema.attributes)) state[name] = partial[name] ?? null;
  return { imported_resources: [{ type_name: req.type_name, state: toProto.dynamicValue(type, state) }] };
}

/**
 * `value` as a reply's DynamicValue: the request's own msgpack bytes when `value` equals the value they decoded to
 * (`received`), as in every refresh and plan of an object that has not changed; encoded otherwise.
 */
function unchanged(type: CtyType, value: Value, received: Value, wire: Wire): tfplugin6.DynamicValue {
  return wire?.msgpack?.length && equal(value, received) ? { msgpack: wire.msgpack } : toProto.dynamicValue(type, value);
}

/** A model of a stored object, whose identity attribute (if the resource has one) must be set. */
function stored<D>(impl: ErasedResource<D>, value: ObjectValue, mode: ModelMode, diags: Diagnostics): ObjectValue | undefined {
  const model = decodeModel(impl.schema, value, mode, diags);
  if (model && impl.identity && typeof model[impl.identity] !== "string") {
    diags.error(
      `${impl.typeName} without ${impl.identity}`,
      `This object's state has no ${impl.identity}, so the provider cannot find it. Remove it from the state (terraform state rm) and import it again.`,
      path(impl.identity),
    );
    return undefined;
  }
  return model;
}

/** The value as an object: the configuration of a resource is one, or absent. */
export function objectOf(type: CtyType, dv: Wire): ObjectValue {
  const v = fromProto.dynamicValue(type, dv);
  return isObject(v) ? v : {};
}
