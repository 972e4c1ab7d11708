// /api/v1/sites/:site_id/snapshots: list (newest first), get, create, delete. Members may create
// snapshots; deleting needs an owner or admin. The upload endpoint is in snapshot-upload.ts.
import { Type } from "typebox";
import type { App } from "../app.js";
import type { EmulatorContext } from "../context.js";
import { requireAuth, requireWriter } from "../app.js";
import { unprocessable } from "../errors.js";
import { paginate } from "../pagination.js";
import { stmt } from "../store/db.js";
import { loadSite } from "../services/sites.js";
import {
  SnapshotSchema,
  createSnapshot,
  deleteSnapshot,
  loadSnapshot,
  serializeSnapshot,
  snapshotInUse,
  type SnapshotRow,
  type SnapshotTrigger,
} from "../services/snapshots.js";
import { NoContent, PageQuery, originOf } from "./common.js";

const SiteParams = Type.Object({ site_id: Type.String() });
const ItemParams = Type.Object({ site_id: Type.String(), id: Type.String() });

const SnapshotCreate = Type.Object({
  description: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
  trigger: Type.Optional(Type.Unsafe<SnapshotTrigger>({ type: "string", enum: ["manual", "scheduled", "pre_upgrade", "system"] })),
  upload: Type.Optional(Type.Boolean({ description: "true: wait in `requested` for data sent to the upload endpoint" })),
});

/** Every field is optional: a POST without a body (`curl -X POST`) means `{}`. */
export async function emptyBodyAsObject(req: { body: unknown }): Promise<void> {
  if (req.body === undefined) req.body = {};
}

export function registerSnapshotRoutes(app: App, ctx: EmulatorContext): void {
  app.get(
    "/sites/:site_id/snapshots",
    {
      schema: {
        operationId: "listSnapshots",
        summary: "List the snapshots of a site (newest first)",
        tags: ["snapshots"],
        params: SiteParams,
        querystring: Type.Object(PageQuery),
        response: { 200: Type.Array(SnapshotSchema) },
      },
    },
    async (req, reply) => {
      const site = loadSite(ctx, requireAuth(req).accountId, req.params.site_id);
      return paginate(req, reply, {
        count: () => (stmt(ctx.db, "SELECT COUNT(*) AS n FROM snapshots WHERE site_id = ?").get(site.id) as { n: number }).n,
        rows: (limit, offset) =>
          (stmt(ctx.db, "SELECT * FROM snapshots WHERE site_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?").all(site.id, limit, offset) as SnapshotRow[]).map(
            serializeSnapshot,
          ),
      });
    },
  );

  app.get(
    "/sites/:site_id/snapshots/:id",
    {
      schema: {
        operationId: "getSnapshot",
        summary: "Get a snapshot",
        tags: ["snapshots"],
        params: ItemParams,
        response: { 200: SnapshotSchema },
      },
    },
    async (req) => {
      const site = loadSite(ctx, requireAuth(req).accountId, req.params.site_id);
      return serializeSnapshot(loadSnapshot(ctx, site.id, req.params.id));
    },
  );

  app.post(
    "/sites/:site_id/snapshots",
    {
      schema: {
        operationId: "createSnapshot",
        summary: "Create a snapshot (captured by the service, or `upload: true` to send the data)",
        tags: ["snapshots"],
        params: SiteParams,
        body: SnapshotCreate,
        response: { 201: SnapshotSchema },
      },
      preValidation: emptyBodyAsObject,
    },
    async (req, reply) => {
      // Members may create snapshots: only authentication is required.
      const site = loadSite(ctx, requireAuth(req).accountId, req.params.site_id);
      const body = req.body ?? {};
      const snapshot = createSnapshot(ctx, site, { description: body.description, trigger: body.trigger, upload: body.upload }, originOf(req));
      return reply.code(201).send(snapshot);
    },
  );

  app.delete(
    "/sites/:site_id/snapshots/:id",
    {
      schema: {
        operationId: "deleteSnapshot",
        summary: "Delete a snapshot and its data",
        tags: ["snapshots"],
        params: ItemParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      const site = loadSite(ctx, requireAuth(req).accountId, req.params.site_id);
      const row = loadSnapshot(ctx, site.id, req.params.id);
      requireWriter(req);
      if (snapshotInUse(ctx, row.id)) throw unprocessable("Snapshot is in use by a running upgrade pipeline");
      deleteSnapshot(ctx, row, originOf(req));
      return reply.code(204).send(null);
    },
  );
}
