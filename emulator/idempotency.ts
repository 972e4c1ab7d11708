// Idempotency-Key on POST and PATCH: the same key and body within 24 h replays the first response and
// changes nothing (a repeated PATCH must not undo a change another writer made in between); the same key
// with another body is 422; a concurrent duplicate is 409. The login endpoints take part too (a refresh
// whose answer was lost must not count as reuse of the spent refresh token, a one-time code cannot be sent
// twice): their answers carry credentials, so they are stored sealed with a key only the same request
// (idempotency key and body, password or refresh token included) can derive.
// The key and the write commit together, or neither (issue 40 item 2): a keyed request's handler runs inside one
// transaction (the services' own transactions nest in it as savepoints), and Fastify serialises the answer and
// runs the onSend hooks in the same tick as `reply.send`, so the key row is inserted before the COMMIT. The
// answer leaves the process only after it: onSend below is async, so Fastify writes the response in a later
// microtask. A handler that awaits before it writes (a sign-in, a revocation, an upload's bytes) ends the
// transaction at its first await; its key is then recorded after the write, as before (docs/design.md).
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { EmulatorContext } from "./context.js";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { App } from "./http.js";
import { HttpError } from "./errors.js";
import { findIdempotencyKey, insertIdempotencyKey, pruneIdempotencyKeys } from "./store/idempotency-keys.js";

const TTL_MS = 24 * 3600 * 1000;

declare module "fastify" {
  interface FastifyRequest {
    idempotency?: { key: string; hash: string; scope: string; owner: [string, string]; seal: Buffer | undefined };
  }
}

export function installIdempotency(app: App, ctx: EmulatorContext): void {
  const inFlight = new Set<string>();

  const preHandler = async (req: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const open = !req.auth && req.routeOptions.config?.public === true;
    if (!req.auth && !open) return;
    const header = req.headers["idempotency-key"];
    const key = Array.isArray(header) ? header[0] : header;
    if (!key) return;
    if (key.length > 255) throw new HttpError(400, "Idempotency-Key must be at most 255 characters");
    const request = `${req.method} ${req.url.split("?")[0]}\n${JSON.stringify(req.body ?? null)}`;
    const hash = createHash("sha256").update(request).digest("hex");
    const [accountId, userId] = req.auth ? [req.auth.accountId, req.auth.userId] : ["", ""];
    const seal = open ? createHash("sha256").update(`seal\n${key}\n${request}`).digest() : undefined;
    pruneIdempotencyKeys(ctx.db, ctx.clock.nowMs() - TTL_MS);
    const row = findIdempotencyKey(ctx.db, accountId, userId, key);
    if (row) {
      if (row.request_hash !== hash) {
        throw new HttpError(422, "Idempotency-Key was already used with different request parameters");
      }
      reply.header("Idempotent-Replayed", "true");
      await reply
        .code(row.status)
        .type("application/json; charset=utf-8")
        .send(seal ? unseal(row.body, seal) : row.body);
      return reply;
    }
    const scope = `${accountId}/${userId}/${key}`;
    if (inFlight.has(scope)) throw new HttpError(409, "A request with this Idempotency-Key is already in progress");
    inFlight.add(scope);
    req.idempotency = { key, hash, scope, owner: [accountId, userId], seal };
  };

  const onSend = async (req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const idem = req.idempotency;
    if (!idem) return payload;
    inFlight.delete(idem.scope);
    // Transient answers are not final: a retry with the same key must be able to succeed.
    if (reply.statusCode >= 500 || reply.statusCode === 429 || reply.statusCode === 409) return payload;
    if (typeof payload === "string") {
      insertIdempotencyKey(ctx.db, {
        accountId: idem.owner[0],
        userId: idem.owner[1],
        key: idem.key,
        hash: idem.hash,
        status: reply.statusCode,
        body: idem.seal ? sealed(payload, idem.seal) : payload,
        atMs: ctx.clock.nowMs(),
      });
    }
    return payload;
  };

  const onResponse = async (req: FastifyRequest): Promise<void> => {
    if (req.idempotency) inFlight.delete(req.idempotency.scope);
  };

  // Only POSTs and PATCHes take part: attaching the hooks per route keeps them off every GET.
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes("POST") && !methods.includes("PATCH")) return;
    const list = <T>(existing: T | T[] | undefined): T[] => (existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]);
    route.preHandler = [...list(route.preHandler), preHandler] as typeof route.preHandler;
    const handler = route.handler;
    route.handler = function keyedWrite(this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
      if (!req.idempotency) return handler.call(this, req, reply);
      return ctx.db.transaction(() => handler.call(this, req, reply))();
    } as typeof route.handler;
    route.onSend = [...list(route.onSend), onSend] as typeof route.onSend;
    route.onResponse = [...list(route.onResponse), onResponse] as typeof route.onResponse;
  });
}

/** AES-256-GCM: base64 of iv | tag | ciphertext. */
function sealed(text: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), data]).toString("base64");
}

function unseal(stored: string, key: Buffer): string {
  const raw = Buffer.from(stored, "base64");
  const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}
