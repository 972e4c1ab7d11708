// Every /api/v1 route module, registered in this order under the /api/v1 prefix.
import type { RouteModule } from "../http.js";
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
import { registerSnapshotUploadRoutes } from "./snapshot-uploads.js";

export const routeModules: readonly RouteModule[] = [
  // Identity, sites, activity, webhooks.
  registerAuthRoutes,
  registerMeRoutes,
  registerAccountRoutes,
  registerUserRoutes,
  registerSiteRoutes,
  registerActivityLogRoutes,
  registerWebhookEndpointRoutes,
  // A site's children.
  registerHealthCheckRoutes,
  registerSnapshotRoutes,
  registerVulnerabilityRecordRoutes,
  registerUpgradePipelineRoutes,
  registerSnapshotUploadRoutes,
];
