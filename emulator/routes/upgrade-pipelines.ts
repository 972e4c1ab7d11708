// /api/v1/sites/:site_id/upgrade_pipelines: list (newest first), get, create, approve. Creating and
// approving need an owner or admin. The state machine is in services/upgrade-pipelines.ts.
import type { FastifyReply, FastifyRequest } from "fastify";
import { Type } from "typebox";
import type { App } from "../http.js";
import type { EmulatorContext } from "../context.js";
import { originOf, requireAuth, requireWriter } from "../auth/guards.js";
import { paginate } from "../pagination.js";
import { PageQuery, SiteItemParams, SiteParams } from "../../wire/common.js";
import { PipelineApproveSchema, PipelineCreateSchema, UpgradePipelineSchema } from "../../wire/upgrade-pipelines.js";
import { loadSite } from "../services/sites.js";
import { approvePipeline, createPipeline, getPipeline, listPipelines, loadPipeline } from "../services/upgrade-pipelines.js";
import { emptyBodyAsObject } from "./body.js";

const tags = ["upgrade pipelines"];

/** Pipeline states named otherwise in the answer (control/pipeline-states.ts). Synchronous, before the
 * idempotency hook records the answer (idempotency.ts): a replay carries the same names. */
const shownStates =
  (ctx: EmulatorContext) =>
  (_req: FastifyRequest, _reply: FastifyReply, payload: unknown, done: (err: Error | null, value?: unknown) => void): void => {
    let shown: unknown;
    try {
      shown = ctx.pipelineStates.shownPayload(payload);
    } catch (err) {
      done(err as Error);
      return;
    }
    done(null, shown);
  };

export function registerUpgradePipelineRoutes(app: App, ctx: EmulatorContext): void {
  const onSend = shownStates(ctx);
  app.get(
    "/sites/:site_id/upgrade_pipelines",
    {
      schema: {
        operationId: "listUpgradePipelines",
        summary: "List the upgrade pipelines of a site (newest first)",
        tags,
        params: SiteParams,
        querystring: Type.Object(PageQuery),
        response: { 200: Type.Array(UpgradePipelineSchema) },
      },
      onSend,
    },
    async (req, reply) => paginate(req, reply, listPipelines(ctx, loadSite(ctx, requireAuth(req).accountId, req.params.site_id).id)),
  );

  app.get(
    "/sites/:site_id/upgrade_pipelines/:id",
    {
      schema: { operationId: "getUpgradePipeline", summary: "Get an upgrade pipeline", tags, params: SiteItemParams, response: { 200: UpgradePipelineSchema } },
      onSend,
    },
    async (req) => getPipeline(ctx, loadSite(ctx, requireAuth(req).accountId, req.params.site_id).id, req.params.id),
  );

  app.post(
    "/sites/:site_id/upgrade_pipelines",
    {
      schema: {
        operationId: "createUpgradePipeline",
        summary: "Open an upgrade pipeline to newer WordPress and/or PHP versions",
        tags,
        params: SiteParams,
        body: PipelineCreateSchema,
        response: { 201: UpgradePipelineSchema },
      },
      onSend,
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
        tags,
        params: SiteItemParams,
        body: PipelineApproveSchema,
        response: { 200: UpgradePipelineSchema },
      },
      preValidation: emptyBodyAsObject,
      onSend,
    },
    async (req) => {
      const row = loadPipeline(ctx, loadSite(ctx, requireAuth(req).accountId, req.params.site_id).id, req.params.id);
      const auth = requireWriter(req);
      return approvePipeline(ctx, row, auth.userId, req.body?.comment ?? null, originOf(req));
    },
  );
}
