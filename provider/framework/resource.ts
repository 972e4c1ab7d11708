// What a provider, a resource and a data source implement. The framework (provider-server.ts) does the
// protocol work around them: wire conversion, validation, planning, import, state upgrades, private state.
import type { ObjectValue } from "../values/cty.js";
import type { Diagnostics } from "./diagnostics.js";
import type { Schema } from "./schema.js";

/** Per-resource JSON kept by Terraform next to the state but never shown to the user. */
export type PrivateState = Record<string, unknown>;

export interface CallContext<D> {
  /** What the provider's configure() returned. */
  data: D;
  /** Aborted when Terraform asks the provider to stop (Ctrl-C). */
  signal: AbortSignal;
}

export interface ResourceResult {
  state: ObjectValue | null;
  private?: PrivateState;
}

export interface Resource<D> {
  typeName: string;
  schema: Schema;
  /** Cross-attribute checks; attribute validators have already run. Values may be unknown. */
  validateConfig?(config: ObjectValue, diags: Diagnostics): void;
  create(req: { plan: ObjectValue; config: ObjectValue }, diags: Diagnostics, ctx: CallContext<D>): Promise<ResourceResult>;
  /** Return state null when the object is gone: Terraform then plans to create it again. */
  read(req: { state: ObjectValue; private: PrivateState }, diags: Diagnostics, ctx: CallContext<D>): Promise<ResourceResult>;
  update(req: { plan: ObjectValue; prior: ObjectValue; config: ObjectValue; private: PrivateState }, diags: Diagnostics, ctx: CallContext<D>): Promise<ResourceResult>;
  delete(req: { prior: ObjectValue; private: PrivateState }, diags: Diagnostics, ctx: CallContext<D>): Promise<void>;
  /** Turns `terraform import` ids into a partial state; Terraform reads the rest with read(). */
  importState?(id: string, diags: Diagnostics): ObjectValue;
  /**
   * State upgraders keyed by the schema version they upgrade *from*; each returns the JSON state of the next
   * version. The framework chains them up to schema.version.
   */
  stateUpgraders?: Record<number, (state: Record<string, unknown>) => Record<string, unknown>>;
}

export interface DataSource<D> {
  typeName: string;
  schema: Schema;
  validateConfig?(config: ObjectValue, diags: Diagnostics): void;
  read(config: ObjectValue, diags: Diagnostics, ctx: CallContext<D>): Promise<ObjectValue | null>;
}

export interface ProviderDefinition<D> {
  /** The provider's local name, the prefix of its resource type names. */
  typeName: string;
  schema: Schema;
  validateConfig?(config: ObjectValue, diags: Diagnostics): void;
  /** Returns the data every resource call receives; reports problems as diagnostics. */
  configure(config: ObjectValue, diags: Diagnostics, ctx: { terraformVersion: string; signal: AbortSignal }): Promise<D | undefined>;
  resources: Resource<D>[];
  dataSources: DataSource<D>[];
}
