// Every /api/v1 route module, registered in this order under the /api/v1 prefix.
import type { App } from "../app.js";
import type { EmulatorContext } from "../context.js";
import { registerAuthRoutes } from "./auth.js";
import { registerMeRoutes } from "./me.js";
import { registerAccountRoutes } from "./accounts.js";
import { registerUserRoutes } from "./users.js";
import { registerSiteRoutes } from "./sites.js";
import { registerActivityLogRoutes } from "./activity-logs.js";
import { registerWebhookEndpointRoutes } from "./webhook-endpoints.js";
import { registerHealthCheckRoutes } from "./health-checks.js";
import { registerSnapshotRoutes } from "./snapshots.js";
import { registerVulnerabilityRecordRoutes } from "./vulnerability-records.js";
import { registerUpgradePipelineRoutes } from "./upgrade-pipelines.js";
import { registerSnapshotUploadRoutes } from "./snapshot-upload.js";

export type RouteModule = (app: App, ctx: EmulatorContext) => void | Promise<void>;

export const routeModules: RouteModule[] = [];

// Identity, sites, activity, webhooks.
routeModules.push(
  registerAuthRoutes,
  registerMeRoutes,
  registerAccountRoutes,
  registerUserRoutes,
  registerSiteRoutes,
  registerActivityLogRoutes,
  registerWebhookEndpointRoutes,
);

routeModules.push(registerHealthCheckRoutes, registerSnapshotRoutes, registerVulnerabilityRecordRoutes, registerUpgradePipelineRoutes, registerSnapshotUploadRoutes);
