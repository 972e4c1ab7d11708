// The framework core: the tfplugin6 Provider service (protocol/tfplugin6.ts) over a ProviderDefinition, each
// RPC's request decoded and its reply encoded by the converters in wire/ (the resource RPCs' work is in
// resource-rpcs.ts). Values are decoded by the schema into the typed models resources work with (model.ts);
// every failure becomes a diagnostic, and nothing thrown here reaches gRPC.
import { setMaxListeners } from "node:events";
import { log } from "../log.js";
import type * as tfplugin6 from "../protocol/tfplugin6.js";
import type { CtyType, ObjectValue } from "../values/cty.js";
import { Diagnostics } from "./diagnostics.js";
import { FunctionError, type FunctionDefinition } from "./function.js";
import { decodeModel, type ModelMode } from "./model.js";
import type { ErasedDataSource, ErasedProvider, ErasedResource } from "./erased.js";
import type { AnyProvider, CallContext } from "./resource.js";
import { CallActivity, ImportGuard } from "./import-guard.js";
import { applyResourceChange, importResourceState, objectOf, planResourceChange, readResource, type Contexts } from "./resource-rpcs.js";
import { keepEquivalent } from "./semantic-equality.js";
import { upgradeState } from "./state-upgrade.js";
import { blockType, checkSchema, type Schema } from "./schema.js";
import { validateBlock } from "./validation.js";
import * as fromProto from "./wire/from-proto.js";
import * as toProto from "./wire/to-proto.js";

type Wire = tfplugin6.ReceivedDynamicValue | null | undefined;

interface Entry<T> {
  impl: T;
  type: CtyType;
}

/**
 * get_provider_schema_optional: the schema never changes within a Terraform command, so Terraform may reuse the
 * one it got from the first provider process it started instead of asking each later one (3 of the 4 processes
 * of an apply skip GetProviderSchema). plan_destroy: Terraform (1.3+) asks PlanResourceChange about each destroy
 * too (proposed state null), so a resource can refuse one at plan time (Resource.planDestroy).
 */
const SERVER_CAPABILITIES = { plan_destroy: true, get_provider_schema_optional: true };

/**
 * How long requests that change something may still run after Terraform asked the provider to stop (Ctrl-C):
 * a write already sent is answered and recorded in the state instead of being cut off with its outcome unknown
 * (docs/design.md section 4, "Interrupted applies"). Terraform waits for the provider meanwhile; a second Ctrl-C
 * ends it at once, and the next apply finds what was created by the create's idempotency key.
 */
const STOP_GRACE_MS = 10_000;

export class ProviderServer<D> implements tfplugin6.ProviderService {
  private readonly def: ErasedProvider<D>;
  private readonly resources = new Map<string, Entry<ErasedResource<D>>>();
  private readonly dataSources = new Map<string, Entry<ErasedDataSource<D>>>();
  private readonly functions = new Map<string, FunctionDefinition>();
  private readonly providerType: CtyType;
  private data: D | undefined;
  private configured = false;
  private readonly stopController = new AbortController();
  /** Aborted STOP_GRACE_MS after the stop: the writes' signal. */
  private readonly writeController = new AbortController();
  /** Every RPC in flight, for the import guard's "quiet" (import-guard.ts). */
  private readonly activity = new CallActivity();
  /** GetProviderSchema's answer: the same for the life of the process. */
  private schemaReply: ReturnType<ProviderServer<D>["buildSchemaReply"]> | undefined;

  constructor(def: AnyProvider<D>) {
    // Every in-flight API call listens to this one signal (-parallelism=50 means 50 listeners): not a leak.
    setMaxListeners(0, this.stopController.signal, this.writeController.signal);
    this.def = def as unknown as ErasedProvider<D>;
    checkSchema("provider", def.schema);
    this.providerType = blockType(def.schema);
    for (const r of def.resources as unknown as ErasedResource<D>[]) {
      checkSchema(r.typeName, r.schema);
      if (r.identity !== undefined && r.schema.attributes[r.identity]?.type !== "string") {
        throw new Error(`${r.typeName}: the identity attribute ${r.identity} must be a string attribute`);
      }
      this.resources.set(r.typeName, { impl: r, type: blockType(r.schema) });
    }
    for (const d of def.dataSources as unknown as ErasedDataSource<D>[]) {
      checkSchema(d.typeName, d.schema);
      this.dataSources.set(d.typeName, { impl: d, type: blockType(d.schema) });
    }
    for (const f of def.functions ?? []) this.functions.set(f.name, f);
  }

  /** Aborted by StopProvider: resources pass it to the API client so in-flight reads and waits end. */
  get signal(): AbortSignal {
    return this.stopController.signal;
  }

  /** Aborted STOP_GRACE_MS after StopProvider: what resources pass with the requests that change something. */
  get writeSignal(): AbortSignal {
    return this.writeController.signal;
  }

  getMetadata() {
    return {
      server_capabilities: SERVER_CAPABILITIES,
      resources: [...this.resources.keys()].map((type_name) => ({ type_name })),
      data_sources: [...this.dataSources.keys()].map((type_name) => ({ type_name })),
      functions: [...this.functions.keys()].map((name) => ({ name })),
      diagnostics: [],
    };
  }

  getProviderSchema() {
    return (this.schemaReply ??= this.buildSchemaReply());
  }

  private buildSchemaReply() {
    const map = <T extends { schema: Schema }>(m: Map<string, Entry<T>>) =>
      Object.fromEntries([...m].map(([name, e]) => [name, toProto.schema(e.impl.schema)]));
    return {
      provider: toProto.schema(this.def.schema),
      resource_schemas: map(this.resources),
      data_source_schemas: map(this.dataSources),
      functions: this.functionSignatures(),
      server_capabilities: SERVER_CAPABILITIES,
      diagnostics: [],
    };
  }

  async validateProviderConfig(req: tfplugin6.ValidateProviderConfigRequest) {
    return this.guard("ValidateProviderConfig", async (diags) => {
      this.validate(this.def, this.providerType, req.config, diags);
      return {};
    });
  }

  async validateResourceConfig(req: tfplugin6.ConfigRequest) {
    return this.guard("ValidateResourceConfig", async (diags) => {
      const { impl, type } = this.resource(req.type_name);
      this.validate(impl, type, req.config, diags);
      return {};
    });
  }

  async validateDataResourceConfig(req: tfplugin6.ConfigRequest) {
    return this.guard("ValidateDataResourceConfig", async (diags) => {
      const { impl, type } = this.dataSource(req.type_name);
      this.validate(impl, type, req.config, diags);
      return {};
    });
  }

  async configureProvider(req: tfplugin6.ConfigureProviderRequest) {
    return this.guard("ConfigureProvider", async (diags) => {
      const config = this.model(this.def.schema, this.object(this.providerType, req.config), "planned", diags);
      if (!config) return {};
      const data = await this.def.configure(config, diags, { terraformVersion: req.terraform_version ?? "", signal: this.signal });
      if (!diags.hasErrors) {
        this.data = data;
        this.configured = true;
      }
      return {};
    });
  }

  async upgradeResourceState(req: tfplugin6.UpgradeResourceStateRequest) {
    return this.guard("UpgradeResourceState", async (diags) => {
      const { impl, type } = this.resource(req.type_name);
      return upgradeState(impl, type, req, diags);
    });
  }

  async readResource(req: tfplugin6.ReadResourceRequest) {
    return this.guard("ReadResource", (diags) => readResource(this.resource(req.type_name), req, diags, this.contexts));
  }

  async planResourceChange(req: tfplugin6.PlanResourceChangeRequest) {
    return this.guard("PlanResourceChange", (diags) => planResourceChange(this.resource(req.type_name), req, diags, this.contexts));
  }

  async applyResourceChange(req: tfplugin6.ApplyResourceChangeRequest) {
    return this.guard("ApplyResourceChange", (diags) => applyResourceChange(this.resource(req.type_name), req, diags, this.contexts));
  }

  async importResourceState(req: tfplugin6.ImportResourceStateRequest) {
    return this.guard("ImportResourceState", (diags) => importResourceState(this.resource(req.type_name), req, diags, this.contexts));
  }

  async readDataSource(req: tfplugin6.ConfigRequest) {
    return this.guard("ReadDataSource", async (diags) => {
      const { impl, type } = this.dataSource(req.type_name);
      const config = this.model(impl.schema, this.object(type, req.config), "known", diags);
      if (!config) return {};
      const state = await impl.read(config, diags, this.context());
      // A value looked up by (a URL) keeps the configuration's spelling where the service's means the same.
      return { state: toProto.dynamicValue(type, state && (await keepEquivalent(impl.schema, state, config))) };
    });
  }

  getFunctions() {
    return { functions: this.functionSignatures(), diagnostics: [] };
  }

  private functionSignatures() {
    return Object.fromEntries([...this.functions].map(([name, f]) => [name, toProto.functionSignature(f)]));
  }

  /** Runs a function. Its failures are FunctionErrors (Terraform shows them on the call), never diagnostics. */
  async callFunction(req: tfplugin6.CallFunctionRequest) {
    const f = this.functions.get(req.name);
    if (!f) return { error: { text: `The provider has no function named ${JSON.stringify(req.name)}.` } };
    const wire = req.arguments ?? [];
    if (wire.length !== f.parameters.length) {
      return { error: { text: `${f.name} takes ${f.parameters.length} arguments, got ${wire.length}.` } };
    }
    try {
      const args = f.parameters.map((p, i) => fromProto.dynamicValue(p.type, wire[i]));
      return { result: toProto.dynamicValue(f.returns, await f.run(args)) };
    } catch (err) {
      if (err instanceof FunctionError) return { error: { text: err.message, ...(err.argument === undefined ? {} : { function_argument: err.argument }) } };
      log.error(`CallFunction ${f.name} failed`, { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      return { error: { text: `${f.name}: ${err instanceof Error ? err.message : String(err)} (a bug in the provider; please report it)` } };
    }
  }

  stopProvider() {
    if (!this.stopController.signal.aborted) {
      this.stopController.abort(new Error("Terraform asked the provider to stop"));
      log.info(
        `Terraform asked the provider to stop: reads and waits end now, requests that change something get up to ${STOP_GRACE_MS / 1000} s to be answered`,
      );
      // Unref'd: a provider whose writes all ended exits on Shutdown without waiting for it.
      setTimeout(() => this.writeController.abort(new Error("Terraform asked the provider to stop")), STOP_GRACE_MS).unref();
    }
    return { Error: "" };
  }

  /** Attribute validators at every level, then (when they pass) the cross-attribute checks on the model. */
  private validate(
    impl: { schema: Schema; validateConfig?(config: ObjectValue, diags: Diagnostics): void },
    type: CtyType,
    wire: Wire,
    diags: Diagnostics,
  ): void {
    const config = this.object(type, wire);
    validateBlock(impl.schema, config, [], diags);
    if (diags.hasErrors || !impl.validateConfig) return;
    const model = this.model(impl.schema, config, "planned", diags);
    if (model) impl.validateConfig(model, diags);
  }

  private model(schema: Schema, value: ObjectValue, mode: ModelMode, diags: Diagnostics): ObjectValue | undefined {
    return decodeModel(schema, value, mode, diags);
  }

  private context(): CallContext<D> {
    if (!this.configured) throw new ProviderNotConfigured();
    return { data: this.data as D, signal: this.signal, writeSignal: this.writeSignal };
  }

  private readonly contexts: Contexts<D> = {
    call: () => this.context(),
    plan: () => ({ data: this.configured ? this.data : undefined, signal: this.signal }),
    imports: new ImportGuard(this.activity.whenQuiet),
  };

  private resource(name: string): Entry<ErasedResource<D>> {
    const e = this.resources.get(name);
    if (!e) throw new Error(`unknown resource type ${name}`);
    return e;
  }

  private dataSource(name: string): Entry<ErasedDataSource<D>> {
    const e = this.dataSources.get(name);
    if (!e) throw new Error(`unknown data source ${name}`);
    return e;
  }

  private object(type: CtyType, dv: Wire): ObjectValue {
    return objectOf(type, dv);
  }

  private async guard<R extends object>(rpc: string, fn: (diags: Diagnostics) => Promise<R>): Promise<R & { diagnostics: tfplugin6.Diagnostic[] }> {
    const diags = new Diagnostics();
    const started = log.enabled("debug") ? Date.now() : 0;
    let out: R = {} as R;
    this.activity.begin();
    try {
      out = await fn(diags);
    } catch (err) {
      if (err instanceof ProviderNotConfigured) {
        diags.error("Provider not configured", "The provider was not configured before this operation; this is a bug in Terraform or the provider.");
      } else {
        log.error(`${rpc} failed`, { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
        diags.error(
          "Unexpected provider error",
          `${rpc}: ${err instanceof Error ? err.message : String(err)}\n\nThis is always a bug in the provider; please report it.`,
        );
      }
    } finally {
      this.activity.end();
    }
    if (started) log.debug(`served ${rpc}`, { ms: Date.now() - started, diagnostics: diags.items.length });
    return { ...out, diagnostics: diags.items.length ? toProto.diagnostics(diags.items) : [] };
  }
}

class ProviderNotConfigured extends Error {}
