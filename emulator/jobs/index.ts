// Registers every background job with the scheduler.
import type { EmulatorContext } from "../context.js";
import type { Job } from "./scheduler.js";
import { webhookDeliveriesJob } from "./webhook-deliveries.js";
import { snapshotsJob } from "./snapshots.js";
import { healthChecksJob } from "./health-checks.js";
import { upgradePipelinesJob } from "./upgrade-pipelines.js";

type JobFactory = (ctx: EmulatorContext) => Job;

const jobFactories: JobFactory[] = [];

jobFactories.push(webhookDeliveriesJob);
jobFactories.push(snapshotsJob, upgradePipelinesJob, healthChecksJob);

export function registerJobs(ctx: EmulatorContext): void {
  for (const make of jobFactories) ctx.scheduler.register(make(ctx));
}
