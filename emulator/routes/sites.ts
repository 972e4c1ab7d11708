// /api/v1/sites: list, get, create, update, delete (DESIGN.md section 2, Site).
import { Type } from "typebox";
import type { App } from "../app.js";
import type { EmulatorContext } from "../context.js";
import { requireAuth, requireWriter } from "../app.js";
import { paginate } from "../pagination.js";
import { stmt } from "../store/db.js";
import { SiteSchema, createSite, deleteSite, getSiteJson, serializeSite, updateSite, type SiteRow } from "../services/sites.js";
import { IdParams, NoContent, PageQuery, originOf } from "./common.js";

const SiteCreate = Type.Object({
  name: Type.String(),
  url: Type.String(),
  wp_version: Type.Optional(Type.String()),
  php_version: Type.Optional(Type.String()),
});

const SiteUpdate = Type.Object({
  name: Type.Optional(Type.String()),
  url: Type.Optional(Type.String()),
  wp_version: Type.Optional(Type.String()),
  php_version: Type.Optional(Type.String()),
});

export function registerSiteRoutes(app: App, ctx: EmulatorContext): void {
  app.get(
    "/sites",
    {
      schema: {
        operationId: "listSites",
        summary: "List the sites of the current account (oldest first)",
        tags: ["sites"],
        querystring: Type.Object(PageQuery),
        response: { 200: Type.Array(SiteSchema) },
      },
    },
    async (req, reply) => {
      const { accountId } = requireAuth(req);
      return paginate(req, reply, {
        count: () => (stmt(ctx.db, "SELECT COUNT(*) AS n FROM sites WHERE account_id = ?").get(accountId) as { n: number }).n,
        rows: (limit, offset) =>
          (stmt(ctx.db, "SELECT * FROM sites WHERE account_id = ? ORDER BY seq LIMIT ? OFFSET ?").all(accountId, limit, offset) as SiteRow[]).map(
            serializeSite,
          ),
      });
    },
  );

  app.get(
    "/sites/:id",
    {
      schema: {
        operationId: "getSite",
        summary: "Get a site",
        tags: ["sites"],
        params: IdParams,
        response: { 200: SiteSchema },
      },
    },
    async (req) => getSiteJson(ctx, requireAuth(req).accountId, req.params.id),
  );

  app.post(
    "/sites",
    {
      schema: {
        operationId: "createSite",
        summary: "Create a site",
        tags: ["sites"],
        body: SiteCreate,
        response: { 201: SiteSchema },
      },
    },
    async (req, reply) => {
      const { accountId } = requireWriter(req);
      const site = createSite(ctx, accountId, req.body, originOf(req));
      return reply.code(201).send(site);
    },
  );

  app.patch(
    "/sites/:id",
    {
      schema: {
        operationId: "updateSite",
        summary: "Update a site's name, url or versions",
        tags: ["sites"],
        params: IdParams,
        body: SiteUpdate,
        response: { 200: SiteSchema },
      },
    },
    async (req) => {
      const { accountId } = requireWriter(req);
      return updateSite(ctx, accountId, req.params.id, req.body, originOf(req));
    },
  );

  app.delete(
    "/sites/:id",
    {
      schema: {
        operationId: "deleteSite",
        summary: "Delete a site with its snapshots, pipelines, checks and records",
        tags: ["sites"],
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      const { accountId } = requireWriter(req);
      deleteSite(ctx, accountId, req.params.id, originOf(req));
      return reply.code(204).send(null);
    },
  );
}
