// /api/v1/sites/:site_id/snapshots: list (newest first), get, create, delete. Members may create
// snapshots; deleting needs an owner or admin. The upload endpoint is in snapshot-uploads.ts.
import { Type } from "typebox";
import type { App } from "../http.js";
import type { EmulatorContext } from "../context.js";
import { originOf, requireAuth, requireWriter } from "../auth/guards.js";
import { paginate } from "../pagination.js";
import { NoContent, PageQuery, SiteItemParams, SiteParams } from "../../wire/common.js";
import { SnapshotCreateSchema, SnapshotSchema } from "../../wire/snapshots.js";
import { loadSite } from "../services/sites.js";
import { createSnapshot, deleteSnapshot, getSnapshot, listSnapshots, loadSnapshot } from "../services/snapshots.js";
import { emptyBodyAsObject } from "./body.js";

const tags = ["snapshots"];

export function registerSnapshotRoutes(app: App, ctx: EmulatorContext): void {
  app.get(
    "/sites/:site_id/snapshots",
    {
      schema: {
        operationId: "listSnapshots",
        summary: "List the snapshots of a site (newest first)",
        tags,
        params: SiteParams,
        querystring: Type.Object(PageQuery),
        response: { 200: Type.Array(SnapshotSchema) },
      },
    },
    async (req, reply) => paginate(req, reply, listSnapshots(ctx, loadSite(ctx, requireAuth(req).accountId, req.params.site_id).id)),
  );

  app.get(
    "/sites/:site_id/snapshots/:id",
    { schema: { operationId: "getSnapshot", summary: "Get a snapshot", tags, params: SiteItemParams, response: { 200: SnapshotSchema } } },
    async (req) => getSnapshot(ctx, loadSite(ctx, requireAuth(req).accountId, req.params.site_id).id, req.params.id),
  );

  app.post(
    "/sites/:site_id/snapshots",
    {
      schema: {
        operationId: "createSnapshot",
        summary: "Create a snapshot (captured by the service, or `upload: true` to send the data)",
        tags,
        params: SiteParams,
        body: SnapshotCreateSchema,
        response: { 201: SnapshotSchema },
      },
      preValidation: emptyBodyAsObject,
    },
    async (req, reply) => {
      // Members may create snapshots: only authentication is required.
      const site = loadSite(ctx, requireAuth(req).accountId, req.params.site_id);
      const { description, trigger, upload } = req.body ?? {};
      return reply.code(201).send(createSnapshot(ctx, site, { description, trigger, upload }, originOf(req)));
    },
  );

  app.delete(
    "/sites/:site_id/snapshots/:id",
    { schema: { operationId: "deleteSnapshot", summary: "Delete a snapshot and its data", tags, params: SiteItemParams, response: { 204: NoContent } } },
    async (req, reply) => {
      const row = loadSnapshot(ctx, loadSite(ctx, requireAuth(req).accountId, req.params.site_id).id, req.params.id);
      requireWriter(req);
      deleteSnapshot(ctx, row, originOf(req));
      return reply.code(204).send(null);
    },
  );
}
