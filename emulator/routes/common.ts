// Small pieces the route modules of identity, sites and webhooks share: the request's origin for
// the activity log, and the schemas of ids and pagination parameters.
import { Type } from "typebox";
import type { FastifyRequest } from "fastify";
import type { Origin } from "../services/sites.js";
import { requireAuth } from "../app.js";

/** Who did it, from where, in which request: the activity log's view of a request. */
export function originOf(req: FastifyRequest): Origin {
  return { actor: requireAuth(req).actor, ip: req.ip, requestId: req.id };
}

/** Path ids are plain strings in the schema: a wrong shape is a 404 from the handler, not a 400. */
export const IdParams = Type.Object({ id: Type.String() });

export const PageQuery = {
  page: Type.Optional(Type.String({ description: "1-based page number" })),
  per_page: Type.Optional(Type.String({ description: "Items per page (default 20, max 100)" })),
};

export const NoContent = Type.Null({ description: "No content" });
