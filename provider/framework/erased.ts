// Resources, data sources and providers as the server calls them (provider-server.ts). Their typed models
// (model.ts) are, at run time, the plain wire values, so the server handles them as such.
import type { ObjectValue } from "../values/cty.js";
import type { AttributePath, Diagnostics } from "./diagnostics.js";
import type { CallContext, PlanContext, PrivateState } from "./resource.js";
import type { FunctionDefinition } from "./function.js";
import type { Schema } from "./schema.js";

/** A resource as the server calls it: at run time models are the plain wire values (see model.ts). */
export interface ErasedResource<D> {
  typeName: string;
  schema: Schema;
  identity?: string;
  validateConfig?(config: ObjectValue, diags: Diagnostics): void;
  modifyPlan?(
    req: { plan: ObjectValue; prior: ObjectValue | null; config: ObjectValue; requiresReplace: AttributePath[]; private: PrivateState },
    diags: Diagnostics,
    ctx: PlanContext<D>,
  ): void | Promise<void>;
  planDestroy?(req: { prior: ObjectValue; private: PrivateState }, diags: Diagnostics, ctx: PlanContext<D>): void | Promise<void>;
  create(req: { plan: ObjectValue; config: ObjectValue }, diags: Diagnostics, ctx: CallContext<D>): Promise<Result>;
  read(req: { state: ObjectValue; private: PrivateState }, diags: Diagnostics, ctx: CallContext<D>): Promise<Result>;
  update(req: { plan: ObjectValue; prior: ObjectValue; config: ObjectValue; private: PrivateState }, diags: Diagnostics, ctx: CallContext<D>): Promise<Result>;
  delete(req: { prior: ObjectValue; private: PrivateState }, diags: Diagnostics, ctx: CallContext<D>): Promise<void>;
  importState?(id: string, diags: Diagnostics, ctx: CallContext<D>): ObjectValue | Promise<ObjectValue>;
  stateUpgraders?: Record<number, (state: Record<string, unknown>) => Record<string, unknown>>;
}
interface Result {
  state: ObjectValue | null;
  private?: PrivateState;
}
export interface ErasedDataSource<D> {
  typeName: string;
  schema: Schema;
  validateConfig?(config: ObjectValue, diags: Diagnostics): void;
  read(config: ObjectValue, diags: Diagnostics, ctx: CallContext<D>): Promise<ObjectValue | null>;
}
export interface ErasedProvider<D> {
  typeName: string;
  schema: Schema;
  validateConfig?(config: ObjectValue, diags: Diagnostics): void;
  configure(config: ObjectValue, diags: Diagnostics, ctx: { terraformVersion: string; signal: AbortSignal }): Promise<D | undefined>;
  functions?: FunctionDefinition[];
}
