// The request and reply hooks of a profile that asks for them (profile.ts; the `minimal` one): a Rails-wrapped
// body unwrapped before validation, 204s with no body, and fields no client knows on every resource object of
// a JSON answer. The default profile installs none of them, so its requests take no extra step.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { App } from "./http.js";
import type { Profile } from "./profile.js";

/** Installs the hooks `profile` needs (call before the routes are registered). */
export function installProfileHooks(app: App, profile: Profile): void {
  const wrappers = new Map(Object.entries(profile.bodyWrappers));
  if (wrappers.size) app.addHook("preValidation", unwrapBody(wrappers));
  if (profile.noContent.length || profile.extraFields) app.addHook("onSend", shapeReply(profile));
}

const routeKey = (req: FastifyRequest): string => `${req.method} ${req.routeOptions.url}`;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `{"site": {...}}` on a route that takes a site is `{...}`: a body whose one key is the name, with an object. */
function unwrapBody(wrappers: Map<string, string>) {
  return async (req: FastifyRequest): Promise<void> => {
    const name = wrappers.get(routeKey(req));
    if (name === undefined || !isPlainObject(req.body)) return;
    const keys = Object.keys(req.body);
    const inner = req.body[name];
    if (keys.length === 1 && keys[0] === name && isPlainObject(inner)) req.body = inner;
  };
}

function shapeReply(profile: Profile) {
  const noContent = new Set(profile.noContent);
  const extraFields = profile.extraFields;
  // Synchronous (a callback hook, not an async one): the idempotency key of a keyed write is recorded in the
  // write's own transaction only if every onSend hook before it runs in the same tick (idempotency.ts).
  const shape = (req: FastifyRequest, reply: FastifyReply, payload: unknown): unknown => {
    const route = req.routeOptions.url;
    if (route === undefined || !route.startsWith("/api/")) return payload;
    // A string, even empty, takes Fastify's 204 path, which drops Content-Type and Content-Length.
    if (reply.statusCode === 204) return "";
    if (reply.statusCode === 200 && noContent.has(routeKey(req))) {
      reply.code(204);
      return "";
    }
    if (!extraFields || reply.statusCode < 200 || reply.statusCode > 299 || typeof payload !== "string") return payload;
    if (!String(reply.getHeader("content-type") ?? "").startsWith("application/json")) return payload;
    const body: unknown = JSON.parse(payload);
    const paths = recordPaths(req, route);
    if (Array.isArray(body)) {
      for (const item of body) if (isPlainObject(item)) Object.assign(item, extraFields(paths.item(item)));
    } else if (isPlainObject(body)) Object.assign(body, extraFields(paths.object(body)));
    else return payload;
    return JSON.stringify(body);
  };
  return (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, value?: unknown) => void): void => {
    let shaped: unknown;
    try {
      shaped = shape(req, reply, payload);
    } catch (err) {
      done(err as Error);
      return;
    }
    done(null, shaped);
  };
}

/**
 * The path of the record an answer shows (`links.self`): a route naming the record (`.../:id`, or an action
 * below it such as `/approve`) up to its `:id`; a created record or a list's item below the collection's path;
 * anything else (`/me`, a sign-in) the route's own path.
 */
function recordPaths(req: FastifyRequest, route: string) {
  const params = (req.params ?? {}) as Record<string, string>;
  const segments = route.split("/").map((s) => (s.startsWith(":") ? encodeURIComponent(params[s.slice(1)] ?? "") : s));
  const idAt = route.split("/").lastIndexOf(":id");
  const path = segments.join("/");
  const below = (record: Record<string, unknown>): string => (typeof record.id === "string" ? `${path}/${encodeURIComponent(record.id)}` : path);
  return {
    item: below,
    object: (record: Record<string, unknown>): string => {
      if (idAt >= 0) return segments.slice(0, idAt + 1).join("/");
      return req.method === "POST" ? below(record) : path;
    },
  };
}
