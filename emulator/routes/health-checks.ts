// /api/v1/sites/:site_id/health_checks: list (newest first) and get. Read only; checks are run by the
// service (jobs/health-checks.ts) and the control API.
import { Type } from "typebox";
import type { App } from "../app.js";
import type { EmulatorContext } from "../context.js";
import { requireAuth } from "../app.js";
import { notFound } from "../errors.js";
import { isId } from "../ids.js";
import { paginate } from "../pagination.js";
import { stmt } from "../store/db.js";
import { loadSite } from "../services/sites.js";
import { HealthCheckSchema, serializeHealthCheck, type HealthCheckRow } from "../services/health-checks.js";
import { PageQuery } from "./common.js";

const SiteParams = Type.Object({ site_id: Type.String() });
const ItemParams = Type.Object({ site_id: Type.String(), id: Type.String() });

export function registerHealthCheckRoutes(app: App, ctx: EmulatorContext): void {
  app.get(
    "/sites/:site_id/health_checks",
    {
      schema: {
        operationId: "listHealthChecks",
        summary: "List the health checks of a site (newest first)",
        tags: ["health checks"],
        params: SiteParams,
        querystring: Type.Object(PageQuery),
        response: { 200: Type.Array(HealthCheckSchema) },
      },
    },
    async (req, reply) => {
      const site = loadSite(ctx, requireAuth(req).accountId, req.params.site_id);
      return paginate(req, reply, {
        count: () => (stmt(ctx.db, "SELECT COUNT(*) AS n FROM health_checks WHERE site_id = ?").get(site.id) as { n: number }).n,
        rows: (limit, offset) =>
          (stmt(ctx.db, "SELECT * FROM health_checks WHERE site_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?").all(site.id, limit, offset) as HealthCheckRow[]).map(
            serializeHealthCheck,
          ),
      });
    },
  );

  app.get(
    "/sites/:site_id/health_checks/:id",
    {
      schema: {
        operationId: "getHealthCheck",
        summary: "Get a health check",
        tags: ["health checks"],
        params: ItemParams,
        response: { 200: HealthCheckSchema },
      },
    },
    async (req) => {
      const site = loadSite(ctx, requireAuth(req).accountId, req.params.site_id);
      if (!isId("hc", req.params.id)) throw notFound();
      const row = stmt(ctx.db, "SELECT * FROM health_checks WHERE id = ? AND site_id = ?").get(req.params.id, site.id) as HealthCheckRow | undefined;
      if (!row) throw notFound();
      return serializeHealthCheck(row);
    },
  );
}
