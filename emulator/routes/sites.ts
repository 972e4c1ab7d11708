// /api/v1/sites: list, get, create, update, delete (docs/design.md section 2, Site).
import { Type } from "typebox";
import type { App } from "../http.js";
import type { EmulatorContext } from "../context.js";
import { originOf, requireAuth, requireWriter } from "../auth/guards.js";
import { paginate } from "../pagination.js";
import { IdParams, NoContent, PageQuery } from "../../wire/common.js";
import { SiteCreateSchema, SiteSchema, SiteUpdateSchema } from "../../wire/sites.js";
import { createSite, deleteSite, getSite, listSites, updateSite } from "../services/sites.js";

const tags = ["sites"];

export function registerSiteRoutes(app: App, ctx: EmulatorContext): void {
  app.get(
    "/sites",
    {
      schema: {
        operationId: "listSites",
        summary: "List the sites of the current account (oldest first)",
        tags,
        querystring: Type.Object(PageQuery),
        response: { 200: Type.Array(SiteSchema) },
      },
    },
    async (req, reply) => paginate(req, reply, listSites(ctx, requireAuth(req).accountId)),
  );

  app.get("/sites/:id", { schema: { operationId: "getSite", summary: "Get a site", tags, params: IdParams, response: { 200: SiteSchema } } }, async (req) =>
    getSite(ctx, requireAuth(req).accountId, req.params.id),
  );

  app.post(
    "/sites",
    { schema: { operationId: "createSite", summary: "Create a site", tags, body: SiteCreateSchema, response: { 201: SiteSchema } } },
    async (req, reply) => reply.code(201).send(createSite(ctx, requireWriter(req).accountId, req.body, originOf(req))),
  );

  app.patch(
    "/sites/:id",
    {
      schema: {
        operationId: "updateSite",
        summary: "Update a site's name, url or versions",
        tags,
        params: IdParams,
        body: SiteUpdateSchema,
        response: { 200: SiteSchema },
      },
    },
    async (req) => updateSite(ctx, requireWriter(req).accountId, req.params.id, req.body, originOf(req)),
  );

  app.delete(
    "/sites/:id",
    {
      schema: {
        operationId: "deleteSite",
        summary: "Delete a site with its snapshots, pipelines, checks and records",
        tags,
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      deleteSite(ctx, requireWriter(req).accountId, req.params.id, originOf(req));
      return reply.code(204).send(null);
    },
  );
}
