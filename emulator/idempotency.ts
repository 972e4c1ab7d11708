// Idempotency-Key on POST: the same key and body within 24 h replays the first response and
// creates nothing; the same key with another body is 422; a concurrent duplicate is 409.
import { createHash } from "node:crypto";
import type { EmulatorContext } from "./context.js";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { App } from "./http.js";
import { HttpError } from "./errors.js";
import { findIdempotencyKey, insertIdempotencyKey, pruneIdempotencyKeys } from "./store/idempotency-keys.js";

const TTL_MS = 24 * 3600 * 1000;

declare module "fastify" {
  interface FastifyRequest {
    idempotency?: { key: string; hash: string; scope: string };
  }
}

export function installIdempotency(app: App, ctx: EmulatorContext): void {
  const inFlight = new Set<string>();

  const preHandler = async (req: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    if (!req.auth) return;
    const header = req.headers["idempotency-key"];
    const key = Array.isArray(header) ? header[0] : header;
    if (!key) return;
    if (key.length > 255) throw new HttpError(400, "Idempotency-Key must be at most 255 characters");
    const hash = createHash("sha256")
      .update(`${req.method} ${req.url.split("?")[0]}\n${JSON.stringify(req.body ?? null)}`)
      .digest("hex");
    const { accountId, userId } = req.auth;
    pruneIdempotencyKeys(ctx.db, ctx.clock.nowMs() - TTL_MS);
    const row = findIdempotencyKey(ctx.db, accountId, userId, key);
    if (row) {
      if (row.request_hash !== hash) {
        throw new HttpError(422, "Idempotency-Key was already used with different request parameters");
      }
      reply.header("Idempotent-Replayed", "true");
      await reply.code(row.status).type("application/json; charset=utf-8").send(row.body);
      return reply;
    }
    const scope = `${accountId}/${userId}/${key}`;
    if (inFlight.has(scope)) throw new HttpError(409, "A request with this Idempotency-Key is already in progress");
    inFlight.add(scope);
    req.idempotency = { key, hash, scope };
  };

  const onSend = async (req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const idem = req.idempotency;
    if (!idem || !req.auth) return payload;
    inFlight.delete(idem.scope);
    // Transient answers are not final: a retry with the same key must be able to succeed.
    if (reply.statusCode >= 500 || reply.statusCode === 429 || reply.statusCode === 409) return payload;
    if (typeof payload === "string") {
      insertIdempotencyKey(ctx.db, {
        accountId: req.auth.accountId, userId: req.auth.userId, key: idem.key, hash: idem.hash, status: reply.statusCode, body: payload, atMs: ctx.clock.nowMs(),
      });
    }
    return payload;
  };

  const onResponse = async (req: FastifyRequest): Promise<void> => {
    if (req.idempotency) inFlight.delete(req.idempotency.scope);
  };

  // Only POSTs take part: attaching the hooks per route keeps them off every GET.
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes("POST")) return;
    const list = <T>(existing: T | T[] | undefined): T[] => (existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]);
    route.preHandler = [...list(route.preHandler), preHandler] as typeof route.preHandler;
    route.onSend = [...list(route.onSend), onSend] as typeof route.onSend;
    route.onResponse = [...list(route.onResponse), onResponse] as typeof route.onResponse;
  });
}
