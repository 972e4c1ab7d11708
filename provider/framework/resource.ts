// What a provider, a resource and a data source implement, in typed models derived from their schemas
// (model.ts). The framework (provider-server.ts) does the protocol work around them: wire conversion,
// validation, planning, import, state upgrades, private state.
import type { AttributePath, Diagnostics } from "./diagnostics.js";
import type { Model, Planned, Stored } from "./model.js";
import type { FunctionDefinition } from "./function.js";
import type { Schema } from "./schema.js";

/** Per-resource JSON kept by Terraform next to the state but never shown to the user. */
export type PrivateState = Record<string, unknown>;

export interface CallContext<D> {
  /** What the provider's configure() returned. */
  data: D;
  /** Aborted when Terraform asks the provider to stop (Ctrl-C): for reads and waits, which the next run resumes. */
  signal: AbortSignal;
  /**
   * For requests that change something (create, update, delete): aborted only STOP_GRACE_MS after Terraform
   * asked to stop (provider-server.ts), so that a write already sent is answered and its result recorded in
   * the state rather than lost.
   */
  writeSignal: AbortSignal;
}

export interface PlanContext<D> {
  /** What configure() returned; undefined when Terraform plans before the provider could be configured. */
  data: D | undefined;
  signal: AbortSignal;
}

/** Names of a schema's string attributes: the candidates for a resource's identity. */
type StringAttribute<S extends Schema> = { [K in keyof S["attributes"]]: S["attributes"][K]["type"] extends "string" ? K : never }[keyof S["attributes"]] &
  string;

/** A model whose identity attribute is known to be set. */
type WithIdentity<M, I extends string> = [I] extends [never] ? M : M & { [K in I]: string };

interface ResourceResult<S extends Schema> {
  state: Model<S> | null;
  private?: PrivateState;
}

interface ModifyPlanRequest<S extends Schema> {
  /** The plan after defaults, unknown marking and attribute plan modifiers; change it in place. */
  plan: Planned<Model<S>>;
  /** null when the resource is being created. Read only, as is every value a method receives but `plan` here: the
   * framework answers with the request's own bytes when the result equals what they decoded to (resource-rpcs.ts). */
  prior: Model<S> | null;
  config: Planned<Model<S>>;
  /** Append attribute paths whose change needs the resource replaced. */
  requiresReplace: AttributePath[];
  /**
   * The prior private state. Terraform plans the new object of a replacement (`-replace`, `replace_triggered_by`,
   * a requires-replace change) with a null prior but the replaced object's private state: a `prior` of null with
   * a non-empty `private` is that object being replaced, not a create.
   */
  private: PrivateState;
}

export interface Resource<D, S extends Schema = Schema, I extends StringAttribute<S> = never> {
  typeName: string;
  schema: S;
  /**
   * The computed attribute that identifies the remote object (e.g. "id"). The framework then guarantees it
   * is set in every state read(), update() and delete() receive (a state without it is reported, not
   * passed on), and `terraform import <id>` sets it, unless importState says otherwise.
   */
  identity?: I;
  /** Cross-attribute checks; attribute validators have already run. Values may be unknown. */
  validateConfig?(config: Planned<Model<S>>, diags: Diagnostics): void;
  /**
   * Resource-level plan modification (terraform-plugin-framework's ModifyPlan), after the attribute plan
   * modifiers; not called when the resource is being destroyed.
   */
  modifyPlan?(req: ModifyPlanRequest<S>, diags: Diagnostics, ctx: PlanContext<D>): void | Promise<void>;
  /**
   * Checks a planned destroy (`terraform destroy`, a `removed` block, a resource taken out of the configuration;
   * not the old half of a replacement, which Terraform does not plan apart): an error refuses it at plan time.
   */
  planDestroy?(req: { prior: Model<S>; private: PrivateState }, diags: Diagnostics, ctx: PlanContext<D>): void | Promise<void>;
  create(req: { plan: Model<S>; config: Model<S> }, diags: Diagnostics, ctx: CallContext<D>): Promise<ResourceResult<S>>;
  /** Return state null when the object is gone: Terraform then plans to create it again. */
  read(req: { state: WithIdentity<Stored<S>, I>; private: PrivateState }, diags: Diagnostics, ctx: CallContext<D>): Promise<ResourceResult<S>>;
  update(
    req: { plan: WithIdentity<Model<S>, I>; prior: WithIdentity<Model<S>, I>; config: Model<S>; private: PrivateState },
    diags: Diagnostics,
    ctx: CallContext<D>,
  ): Promise<ResourceResult<S>>;
  delete(req: { prior: WithIdentity<Model<S>, I>; private: PrivateState }, diags: Diagnostics, ctx: CallContext<D>): Promise<void>;
  /** Turns a `terraform import` id into a partial state; Terraform reads the rest with read(). Default, with
   * an identity: the id, trimmed, becomes the identity attribute. It may ask the API (e.g. to find an object
   * by name): the provider is configured by then. */
  importState?(id: string, diags: Diagnostics, ctx: CallContext<D>): Partial<Stored<S>> | Promise<Partial<Stored<S>>>;
  /**
   * State upgraders keyed by the schema version they upgrade *from*; each returns the JSON state of the next
   * version. The framework chains them up to schema.version.
   */
  stateUpgraders?: Record<number, (state: Record<string, unknown>) => Record<string, unknown>>;
}

export interface DataSource<D, S extends Schema = Schema> {
  typeName: string;
  schema: S;
  validateConfig?(config: Planned<Model<S>>, diags: Diagnostics): void;
  /** Terraform reads a data source only once its configuration is wholly known. */
  read(config: Model<S>, diags: Diagnostics, ctx: CallContext<D>): Promise<Model<S> | null>;
}

export interface ProviderDefinition<D, S extends Schema = Schema> {
  /** The provider's local name, the prefix of its resource type names. */
  typeName: string;
  schema: S;
  validateConfig?(config: Planned<Model<S>>, diags: Diagnostics): void;
  /** Returns the data every resource call receives; reports problems as diagnostics. Values may be unknown. */
  configure(config: Planned<Model<S>>, diags: Diagnostics, ctx: { terraformVersion: string; signal: AbortSignal }): Promise<D | undefined>;
  resources: AnyResource<D>[];
  dataSources: AnyDataSource<D>[];
  /** Provider-defined functions; they never see the provider's configuration. */
  functions?: FunctionDefinition[];
}

// Resources, data sources and providers of any schema, as a provider lists them and the server takes them.
// TypeScript has no "some schema S" type: `any` stands for it here, and only here; the server sees the
// values as the plain wire values they are (provider-server.ts).
// biome-ignore-start lint/suspicious/noExplicitAny: no "some schema S" type in TypeScript (above)
type AnyResource<D> = Resource<D, any, any>;
type AnyDataSource<D> = DataSource<D, any>;
export type AnyProvider<D> = ProviderDefinition<D, any>;
// biome-ignore-end lint/suspicious/noExplicitAny: no "some schema S" type in TypeScript (above)
