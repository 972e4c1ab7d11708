// What route handlers ask of a request's caller: that there is one (requireAuth), that it may write
// (requireWriter: owners and admins; members only read, and create snapshots), and its Origin.
import type { FastifyRequest } from "fastify";
import type { AuthContext, Origin } from "./auth-context.js";
import { forbidden, unauthorized } from "../errors.js";

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the authenticate hook in app.ts on every /api/v1 route not marked public. */
    auth?: AuthContext;
  }
}

/** Owners and admins write; members may only read (and create snapshots, checked by that route). */
function canWrite(auth: AuthContext): boolean {
  return auth.role === "owner" || auth.role === "admin";
}

/** The authenticated caller; routes call this instead of reading req.auth. */
export function requireAuth(req: FastifyRequest): AuthContext {
  if (!req.auth) throw unauthorized();
  return req.auth;
}

/** The caller, who must be an owner or admin of the current account. */
export function requireWriter(req: FastifyRequest): AuthContext {
  const auth = requireAuth(req);
  if (!canWrite(auth)) throw forbidden();
  return auth;
}

/** The request as the origin of a write, for the activity log. */
export function originOf(req: FastifyRequest, actor = requireAuth(req).actor): Origin {
  return { actor, ip: req.ip, requestId: req.id };
}
