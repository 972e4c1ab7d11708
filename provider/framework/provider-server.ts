// The framework core: each protocol 6 RPC, in wire-neutral terms, over a ProviderDefinition. Every failure
// becomes a diagnostic; nothing thrown here reaches gRPC.
import * as fromProto from "../protocol/from-proto.js";
import * as toProto from "../protocol/to-proto.js";
import type { ProtoDiagnostic, ProtoDynamicValue } from "../protocol/to-proto.js";
import { UNKNOWN, equal, fromJSON, isObject, isUnknown, type CtyType, type ObjectValue, type Value } from "../values/cty.js";
import { Diagnostics, path, type AttributePath } from "./diagnostics.js";
import type { CallContext, DataSource, ProviderDefinition, Resource } from "./resource.js";
import { blockType, checkSchema, type Block } from "./schema.js";
import { log } from "./log.js";

type Wire = fromProto.WireDynamicValue | null | undefined;

interface Entry<T> {
  impl: T;
  type: CtyType;
}

export class ProviderServer<D> {
  private readonly resources = new Map<string, Entry<Resource<D>>>();
  private readonly dataSources = new Map<string, Entry<DataSource<D>>>();
  private readonly providerType: CtyType;
  private data: D | undefined;
  private configured = false;
  private readonly stopController = new AbortController();

  constructor(private readonly def: ProviderDefinition<D>) {
    checkSchema("provider", def.schema);
    this.providerType = blockType(def.schema);
    for (const r of def.resources) {
      checkSchema(r.typeName, r.schema);
      this.resources.set(r.typeName, { impl: r, type: blockType(r.schema) });
    }
    for (const d of def.dataSources) {
      checkSchema(d.typeName, d.schema);
      this.dataSources.set(d.typeName, { impl: d, type: blockType(d.schema) });
    }
  }

  /** Aborted by StopProvider: resources pass it to the API client so in-flight calls end. */
  get signal(): AbortSignal {
    return this.stopController.signal;
  }

  getMetadata() {
    return {
      server_capabilities: { plan_destroy: false, get_provider_schema_optional: false },
      resources: [...this.resources.keys()].map((type_name) => ({ type_name })),
      data_sources: [...this.dataSources.keys()].map((type_name) => ({ type_name })),
      diagnostics: [],
    };
  }

  getProviderSchema() {
    const map = <T extends { schema: Parameters<typeof toProto.schema>[0] }>(m: Map<string, Entry<T>>) =>
      Object.fromEntries([...m].map(([name, e]) => [name, toProto.schema(e.impl.schema)]));
    return {
      provider: toProto.schema(this.def.schema),
      resource_schemas: map(this.resources),
      data_source_schemas: map(this.dataSources),
      server_capabilities: { plan_destroy: false, get_provider_schema_optional: false },
      diagnostics: [],
    };
  }

  async validateProviderConfig(req: { config?: Wire }) {
    return this.guard("ValidateProviderConfig", async (diags) => {
      const config = this.decodeObject(this.providerType, req.config);
      validateBlock(this.def.schema, config, [], diags);
      if (!diags.hasErrors) this.def.validateConfig?.(config, diags);
      return {};
    });
  }

  async validateResourceConfig(req: { type_name: string; config?: Wire }) {
    return this.guard("ValidateResourceConfig", async (diags) => {
      const { impl, type } = this.resource(req.type_name);
      const config = this.decodeObject(type, req.config);
      validateBlock(impl.schema, config, [], diags);
      if (!diags.hasErrors) impl.validateConfig?.(config, diags);
      return {};
    });
  }

  async validateDataResourceConfig(req: { type_name: string; config?: Wire }) {
    return this.guard("ValidateDataResourceConfig", async (diags) => {
      const { impl, type } = this.dataSource(req.type_name);
      const config = this.decodeObject(type, req.config);
      validateBlock(impl.schema, config, [], diags);
      if (!diags.hasErrors) impl.validateConfig?.(config, diags);
      return {};
    });
  }

  async configureProvider(req: { terraform_version?: string; config?: Wire }) {
    return this.guard("ConfigureProvider", async (diags) => {
      const config = this.decodeObject(this.providerType, req.config);
      const data = await this.def.configure(config, diags, { terraformVersion: req.terraform_version ?? "", signal: this.signal });
      if (!diags.hasErrors) {
        this.data = data;
        this.configured = true;
      }
      return {};
    });
  }

  async upgradeResourceState(req: { type_name: string; version?: number | { toNumber(): number }; raw_state?: { json?: Uint8Array | null; flatmap?: Record<string, string> } | null }) {
    return this.guard("UpgradeResourceState", async (diags) => {
      const { impl, type } = this.resource(req.type_name);
      const target = impl.schema.version ?? 0;
      let version = typeof req.version === "object" && req.version ? req.version.toNumber() : Number(req.version ?? 0);
      const raw = req.raw_state?.json;
      if (!raw || raw.length === 0) {
        if (req.raw_state?.flatmap && Object.keys(req.raw_state.flatmap).length) {
          diags.error("Unsupported state format", "This resource's state uses the legacy flatmap format, which this provider cannot read. Remove it from state and import it again.");
        }
        return { upgraded_state: toProto.dynamicValue(type, null) };
      }
      let json = JSON.parse(Buffer.from(raw).toString("utf8")) as Record<string, unknown>;
      if (version > target) {
        diags.error("Resource state from a newer provider", `The state of this ${req.type_name} was written with schema version ${version}, but this provider only knows up to version ${target}. Use a newer provider version.`);
        return {};
      }
      for (; version < target; version++) {
        const upgrade = impl.stateUpgraders?.[version];
        if (!upgrade) {
          diags.error("Missing state upgrader", `No upgrade from schema version ${version} of ${req.type_name} is defined.`);
          return {};
        }
        json = upgrade(json);
      }
      return { upgraded_state: toProto.dynamicValue(type, fromJSON(type, json)) };
    });
  }

  async readResource(req: { type_name: string; current_state?: Wire; private?: Uint8Array | null }) {
    return this.guard("ReadResource", async (diags) => {
      const { impl, type } = this.resource(req.type_name);
      const state = this.decode(type, req.current_state);
      if (state === null || !isObject(state)) return { new_state: toProto.dynamicValue(type, null), private: req.private ?? undefined };
      const priv = fromProto.privateState(req.private);
      const res = await impl.read({ state, private: priv }, diags, this.context());
      // On an error keep what we had: Terraform must not forget an object because of a network blip.
      const next = diags.hasErrors && res.state === null ? state : res.state;
      return { new_state: toProto.dynamicValue(type, next), private: toProto.privateBytes(res.private ?? priv) };
    });
  }

  async planResourceChange(req: { type_name: string; prior_state?: Wire; proposed_new_state?: Wire; config?: Wire; prior_private?: Uint8Array | null }) {
    return this.guard("PlanResourceChange", async (diags) => {
      const { impl, type } = this.resource(req.type_name);
      const prior = this.decode(type, req.prior_state) as ObjectValue | null;
      const proposed = this.decode(type, req.proposed_new_state) as ObjectValue | null;
      const config = (this.decode(type, req.config) as ObjectValue | null) ?? {};
      if (proposed === null) return { planned_state: toProto.dynamicValue(type, null), planned_private: req.prior_private ?? undefined };
      const { plan, requiresReplace } = planObject(impl.schema, prior, proposed, config);
      return {
        planned_state: toProto.dynamicValue(type, plan),
        requires_replace: requiresReplace.map(toProto.attributePath),
        planned_private: req.prior_private ?? undefined,
      };
    });
  }

  async applyResourceChange(req: { type_name: string; prior_state?: Wire; planned_state?: Wire; config?: Wire; planned_private?: Uint8Array | null }) {
    return this.guard("ApplyResourceChange", async (diags) => {
      const { impl, type } = this.resource(req.type_name);
      const prior = this.decode(type, req.prior_state) as ObjectValue | null;
      const planned = this.decode(type, req.planned_state) as ObjectValue | null;
      const config = (this.decode(type, req.config) as ObjectValue | null) ?? {};
      const priv = fromProto.privateState(req.planned_private);
      const ctx = this.context();
      if (planned === null) {
        if (prior !== null) await impl.delete({ prior, private: priv }, diags, ctx);
        // A failed delete keeps the object in state.
        return { new_state: toProto.dynamicValue(type, diags.hasErrors ? prior : null) };
      }
      const res = prior === null ? await impl.create({ plan: planned, config }, diags, ctx) : await impl.update({ plan: planned, prior, config, private: priv }, diags, ctx);
      let state = res.state ?? (prior === null ? null : prior);
      if (state !== null && !diags.hasErrors) state = resolveUnknowns(state, req.type_name, diags);
      return { new_state: toProto.dynamicValue(type, state), private: toProto.privateBytes(res.private ?? priv) };
    });
  }

  async importResourceState(req: { type_name: string; id: string }) {
    return this.guard("ImportResourceState", async (diags) => {
      const { impl, type } = this.resource(req.type_name);
      if (!impl.importState) {
        diags.error("Resource Import Not Implemented", `${req.type_name} cannot be imported.`);
        return {};
      }
      const partial = impl.importState(req.id, diags);
      if (diags.hasErrors) return {};
      const state: ObjectValue = {};
      for (const name of Object.keys(impl.schema.attributes)) state[name] = partial[name] ?? null;
      return { imported_resources: [{ type_name: req.type_name, state: toProto.dynamicValue(type, state) }] };
    });
  }

  async readDataSource(req: { type_name: string; config?: Wire }) {
    return this.guard("ReadDataSource", async (diags) => {
      const { impl, type } = this.dataSource(req.type_name);
      const config = this.decodeObject(type, req.config);
      const state = await impl.read(config, diags, this.context());
      return { state: toProto.dynamicValue(type, state === null ? null : resolveUnknowns(state, req.type_name, diags)) };
    });
  }

  stopProvider() {
    this.stopController.abort(new Error("Terraform asked the provider to stop"));
    return { Error: "" };
  }

  private context(): CallContext<D> {
    if (!this.configured) throw new ProviderNotConfigured();
    return { data: this.data as D, signal: this.signal };
  }

  private resource(name: string): Entry<Resource<D>> {
    const e = this.resources.get(name);
    if (!e) throw new Error(`unknown resource type ${name}`);
    return e;
  }

  private dataSource(name: string): Entry<DataSource<D>> {
    const e = this.dataSources.get(name);
    if (!e) throw new Error(`unknown data source ${name}`);
    return e;
  }

  private decode(type: CtyType, dv: Wire): Value {
    return fromProto.dynamicValue(type, dv);
  }

  private decodeObject(type: CtyType, dv: Wire): ObjectValue {
    const v = this.decode(type, dv);
    return isObject(v) ? v : {};
  }

  private async guard<R extends object>(rpc: string, fn: (diags: Diagnostics) => Promise<R>): Promise<R & { diagnostics: ProtoDiagnostic[] }> {
    const diags = new Diagnostics();
    const started = Date.now();
    let out: R = {} as R;
    try {
      out = await fn(diags);
    } catch (err) {
      if (err instanceof ProviderNotConfigured) {
        diags.error("Provider not configured", "The provider was not configured before this operation; this is a bug in Terraform or the provider.");
      } else {
        log.error(`${rpc} failed`, { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
        diags.error("Unexpected provider error", `${rpc}: ${err instanceof Error ? err.message : String(err)}\n\nThis is always a bug in the provider; please report it.`);
      }
    }
    log.debug(`served ${rpc}`, { ms: Date.now() - started, diagnostics: diags.items.length });
    return { ...out, diagnostics: toProto.diagnostics(diags.items) };
  }
}

class ProviderNotConfigured extends Error {}

/** Attribute validators and deprecation warnings for one block's known values. */
export function validateBlock(block: Block, config: ObjectValue, at: AttributePath, diags: Diagnostics): void {
  for (const [name, attr] of Object.entries(block.attributes)) {
    const v = config[name] ?? null;
    if (v === null || isUnknown(v)) continue;
    const p = [...at, ...path(name)];
    if (attr.deprecationMessage) diags.warning("Deprecated attribute", attr.deprecationMessage, p);
    for (const validator of attr.validators ?? []) validator.validate(v, p, diags);
  }
  for (const [name, nb] of Object.entries(block.blocks ?? {})) {
    const v = config[name] ?? null;
    if (v === null || isUnknown(v)) continue;
    const p = [...at, ...path(name)];
    if (isObject(v) && (nb.nesting === "single" || nb.nesting === "group")) validateBlock(nb.block, v, p, diags);
    else if (Array.isArray(v)) v.forEach((x, i) => isObject(x) && validateBlock(nb.block, x, [...p, { index: i }], diags));
    else if (isObject(v)) for (const [k, x] of Object.entries(v)) if (isObject(x)) validateBlock(nb.block, x, [...p, { key: k }], diags);
  }
}

/**
 * The framework's planning rules: defaults fill null configuration; when anything changes, computed
 * attributes the configuration leaves null become unknown; then plan modifiers run per attribute.
 */
export function planObject(schema: Block, prior: ObjectValue | null, proposed: ObjectValue, config: ObjectValue): { plan: ObjectValue; requiresReplace: AttributePath[] } {
  const plan: ObjectValue = { ...proposed };
  for (const [name, attr] of Object.entries(schema.attributes)) {
    if (attr.default !== undefined && (config[name] ?? null) === null) plan[name] = attr.default;
  }
  if (prior === null || !equal(plan, prior)) {
    for (const [name, attr] of Object.entries(schema.attributes)) {
      if (attr.computed && attr.default === undefined && (config[name] ?? null) === null) plan[name] = UNKNOWN;
    }
  }
  const requiresReplace: AttributePath[] = [];
  for (const [name, attr] of Object.entries(schema.attributes)) {
    for (const m of attr.planModifiers ?? []) {
      const res = m.modify({ path: path(name), config: config[name] ?? null, state: prior?.[name] ?? null, plan: plan[name] ?? null, priorState: prior });
      if (res.plan !== undefined) plan[name] = res.plan;
      if (res.requiresReplace) requiresReplace.push(path(name));
    }
  }
  return { plan, requiresReplace };
}

/** After apply (and for data sources) nothing may stay unknown: report it and store null instead. */
function resolveUnknowns(state: ObjectValue, typeName: string, diags: Diagnostics): ObjectValue {
  const out: ObjectValue = {};
  for (const [k, v] of Object.entries(state)) {
    if (isUnknown(v)) {
      diags.error("Provider returned invalid result object after apply", `${typeName}: the value of ${k} is still unknown after apply. This is always a bug in the provider.`, path(k));
      out[k] = null;
    } else out[k] = v;
  }
  return out;
}
