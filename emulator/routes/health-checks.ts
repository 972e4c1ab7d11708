// /api/v1/sites/:site_id/health_checks: list (newest first) and get. Read only; checks are run by the
// service (jobs/health-checks.ts) and the control API.
import { Type } from "typebox";
import type { App } from "../http.js";
import type { EmulatorContext } from "../context.js";
import { requireAuth } from "../auth/guards.js";
import { paginate } from "../pagination.js";
import { PageQuery, SiteItemParams, SiteParams } from "../../wire/common.js";
import { HealthCheckSchema } from "../../wire/health-checks.js";
import { getHealthCheck, listHealthChecks } from "../services/health-checks.js";
import { loadSite } from "../services/sites.js";

const tags = ["health checks"];

export function registerHealthCheckRoutes(app: App, ctx: EmulatorContext): void {
  app.get(
    "/sites/:site_id/health_checks",
    {
      schema: {
        operationId: "listHealthChecks",
        summary: "List the health checks of a site (newest first)",
        tags,
        params: SiteParams,
        querystring: Type.Object(PageQuery),
        response: { 200: Type.Array(HealthCheckSchema) },
      },
    },
    async (req, reply) => paginate(req, reply, listHealthChecks(ctx, loadSite(ctx, requireAuth(req).accountId, req.params.site_id).id)),
  );

  app.get(
    "/sites/:site_id/health_checks/:id",
    { schema: { operationId: "getHealthCheck", summary: "Get a health check", tags, params: SiteItemParams, response: { 200: HealthCheckSchema } } },
    async (req) => getHealthCheck(ctx, loadSite(ctx, requireAuth(req).accountId, req.params.site_id).id, req.params.id),
  );
}
