// Registers every background job with the scheduler.
import type { EmulatorContext } from "../context.js";
import type { Job } from "./scheduler.js";
import { webhookDeliveriesJob } from "./webhook-deliveries.js";

export type JobFactory = (ctx: EmulatorContext) => Job;

export const jobFactories: JobFactory[] = [];

jobFactories.push(webhookDeliveriesJob);

export function registerJobs(ctx: EmulatorContext): void {
  for (const make of jobFactories) ctx.scheduler.register(make(ctx));
}
