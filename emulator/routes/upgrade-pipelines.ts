// /api/v1/sites/:site_id/upgrade_pipelines: list (newest first), get, create, approve. Creating and
// approving need an owner or admin. The state machine is in services/upgrade-pipelines.ts.
import { Type } from "typebox";
import type { App } from "../app.js";
import type { EmulatorContext } from "../context.js";
import { requireAuth, requireWriter } from "../app.js";
import { paginate } from "../pagination.js";
import { stmt } from "../store/db.js";
import { loadSite } from "../services/sites.js";
import {
  UpgradePipelineSchema,
  approvePipeline,
  createPipeline,
  loadPipeline,
  serializePipeline,
  type PipelineRow,
} from "../services/upgrade-pipelines.js";
import { PageQuery, originOf } from "./common.js";
import { emptyBodyAsObject } from "./snapshots.js";

const SiteParams = Type.Object({ site_id: Type.String() });
const ItemParams = Type.Object({ site_id: Type.String(), id: Type.String() });

const PipelineCreate = Type.Object({
  to_wp_version: Type.Optional(Type.String({ description: "Target WordPress version (major.minor); at least one target is required" })),
  to_php_version: Type.Optional(Type.String({ description: "Target PHP version (major.minor)" })),
  requires_approval: Type.Optional(Type.Boolean({ description: "Stop at awaiting_approval before applying (default true)" })),
  snapshot_id: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: "A completed snapshot of this site; else the pipeline takes one" })),
});

const PipelineApprove = Type.Object({
  comment: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
});

export function registerUpgradePipelineRoutes(app: App, ctx: EmulatorContext): void {
  app.get(
    "/sites/:site_id/upgrade_pipelines",
    {
      schema: {
        operationId: "listUpgradePipelines",
        summary: "List the upgrade pipelines of a site (newest first)",
        tags: ["upgrade pipelines"],
        params: SiteParams,
        querystring: Type.Object(PageQuery),
        response: { 200: Type.Array(UpgradePipelineSchema) },
      },
    },
    async (req, reply) => {
      const site = loadSite(ctx, requireAuth(req).accountId, req.params.site_id);
      return paginate(req, reply, {
        count: () => (stmt(ctx.db, "SELECT COUNT(*) AS n FROM upgrade_pipelines WHERE site_id = ?").get(site.id) as { n: number }).n,
        rows: (limit, offset) =>
          (stmt(ctx.db, "SELECT * FROM upgrade_pipelines WHERE site_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?").all(site.id, limit, offset) as PipelineRow[]).map(
            serializePipeline,
          ),
      });
    },
  );

  app.get(
    "/sites/:site_id/upgrade_pipelines/:id",
    {
      schema: {
        operationId: "getUpgradePipeline",
        summary: "Get an upgrade pipeline",
        tags: ["upgrade pipelines"],
        params: ItemParams,
        response: { 200: UpgradePipelineSchema },
      },
    },
    async (req) => {
      const site = loadSite(ctx, requireAuth(req).accountId, req.params.site_id);
      return serializePipeline(loadPipeline(ctx, site.id, req.params.id));
    },
  );

  app.post(
    "/sites/:site_id/upgrade_pipelines",
    {
      schema: {
        operationId: "createUpgradePipeline",
        summary: "Open an upgrade pipeline to newer WordPress and/or PHP versions",
        tags: ["upgrade pipelines"],
        params: SiteParams,
        body: PipelineCreate,
        response: { 201: UpgradePipelineSchema },
      },
    },
    async (req, reply) => {
      const site = loadSite(ctx, requireAuth(req).accountId, req.params.site_id);
      requireWriter(req);
      return reply.code(201).send(createPipeline(ctx, site, req.body ?? {}, originOf(req)));
    },
  );

  app.post(
    "/sites/:site_id/upgrade_pipelines/:id/approve",
    {
      schema: {
        operationId: "approveUpgradePipeline",
        summary: "Approve a pipeline that is awaiting approval",
        tags: ["upgrade pipelines"],
        params: ItemParams,
        body: PipelineApprove,
        response: { 200: UpgradePipelineSchema },
      },
      preValidation: emptyBodyAsObject,
    },
    async (req) => {
      const site = loadSite(ctx, requireAuth(req).accountId, req.params.site_id);
      const row = loadPipeline(ctx, site.id, req.params.id);
      const auth = requireWriter(req);
      return approvePipeline(ctx, row, auth.userId, req.body?.comment ?? null, originOf(req));
    },
  );
}
