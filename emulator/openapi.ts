// GET /openapi.json: an OpenAPI 3.1 document built from the very schemas the routes validate with
// (collected as routes are registered), so the document cannot drift from behaviour.
//
// Error responses are declared from the request pipeline of app.ts (which applies to every route) and
// what each route takes: a body, a query, an upload; writes need an owner or admin except those members
// may make (docs/design.md section 2, Authentication).
import type { RouteOptions } from "fastify";
import type { App } from "./http.js";
import { ErrorSchema, UploadConflictSchema, ValidationErrorSchema } from "../wire/common.js";
import { ORIGIN } from "../wire/field.js";

/** Keywords of the wire's schemas that only document (OpenAPI extensions such as a field's origin, spec or
 * assumed): the validator is told them so that it passes over them. */
export const DOC_KEYWORDS = [ORIGIN];

interface Collected {
  method: string;
  url: string;
  schema: Record<string, unknown>;
  public: boolean;
}

const collected = new WeakMap<App, Collected[]>();

export function collectOpenApi(app: App): void {
  const list: Collected[] = [];
  collected.set(app, list);
  app.addHook("onRoute", (route: RouteOptions) => {
    if (!route.url.startsWith("/api/v1") || route.method === "HEAD") return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === "HEAD") continue;
      list.push({
        method: method.toLowerCase(),
        url: route.url,
        schema: (route.schema ?? {}) as Record<string, unknown>,
        public: Boolean((route.config as { public?: boolean } | undefined)?.public),
      });
    }
  });
}

function toParameters(schema: Record<string, unknown>): unknown[] {
  const params: unknown[] = [];
  for (const [where, key] of [
    ["path", "params"],
    ["query", "querystring"],
  ] as const) {
    const s = schema[key] as { properties?: Record<string, unknown>; required?: string[] } | undefined;
    for (const [name, prop] of Object.entries(s?.properties ?? {})) {
      params.push({ name, in: where, required: where === "path" || (s?.required ?? []).includes(name), schema: prop });
    }
  }
  return params;
}

/** Writes a member may make: creating a snapshot (and sending its data), and ending their own session. */
const MEMBER_WRITES = new Set(["createSnapshot", "uploadSnapshotData", "revokeToken", "deleteApiToken"]);

const ref = (name: string) => ({ content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } } });

/** The 4xx answers this route can give, with docs/design.md's bodies. */
function errorResponses(r: Collected): Record<string, unknown> {
  const s = r.schema;
  const json = Boolean(s.body);
  const upload = Boolean(s.consumes);
  const post = r.method === "post";
  const out: Record<string, unknown> = {};
  const add = (code: number, when: boolean, description: string, schema = "Error"): void => {
    if (when) out[code] = { description, ...ref(schema) };
  };
  add(400, json || upload || post || Boolean(s.querystring), "Malformed JSON, a bad query value or a bad header");
  add(401, true, r.public ? "Wrong credentials" : "Missing, unknown, expired or revoked credentials");
  add(403, !r.public && r.method !== "get" && !MEMBER_WRITES.has(String(s.operationId)), "The caller is a member: only owners and admins may do this");
  add(404, !r.public, "No such record in the current account (or X-Account-Id names an account the user is not in)");
  add(
    409,
    (post && !r.public) || upload,
    upload ? "The upload continues at another offset, or another upload to it is in progress" : "A request with this Idempotency-Key is in progress",
    upload ? "UploadConflict" : "Error",
  );
  add(413, json || upload, "Payload too large");
  add(415, json || upload, "Unsupported media type");
  add(422, json || post || upload || s.operationId === "deleteSnapshot", "Validation failed, or a state that does not allow this", "ValidationError");
  add(429, true, "Rate limit exceeded (with Retry-After)");
  return out;
}

function buildOpenApiDocument(app: App): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of collected.get(app) ?? []) {
    const path = r.url.replace(/:([A-Za-z_]+)/g, "{$1}");
    const s = r.schema;
    const responses: Record<string, unknown> = {};
    for (const [code, body] of Object.entries((s.response as Record<string, unknown>) ?? {})) {
      responses[code] = { description: code === "204" ? "No content" : "Response", content: { "application/json": { schema: body } } };
      if (code === "204") delete (responses[code] as Record<string, unknown>).content;
    }
    Object.assign(responses, errorResponses(r));
    responses.default = { description: "Error", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
    const op: Record<string, unknown> = {
      operationId: (s.operationId as string) ?? `${r.method}_${path}`,
      summary: s.summary,
      tags: s.tags,
      parameters: toParameters(s),
      responses,
    };
    if (s.body) op.requestBody = { required: true, content: { "application/json": { schema: s.body } } };
    if (s.consumes)
      op.requestBody = {
        required: true,
        content: Object.fromEntries((s.consumes as string[]).map((t) => [t, { schema: { type: "string", format: "binary" } }])),
      };
    if (r.public) op.security = [];
    (paths[path] ??= {})[r.method] = op;
  }
  return {
    openapi: "3.1.0",
    info: { title: "Site Operations API (siteops emulator)", version: "v1" },
    servers: [{ url: "/" }],
    security: [{ apiToken: [] }, { bearer: [] }],
    components: {
      securitySchemes: {
        apiToken: { type: "apiKey", in: "header", name: "Authorization", description: "`token <API_TOKEN>`" },
        bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
      },
      schemas: { Error: ErrorSchema, ValidationError: ValidationErrorSchema, UploadConflict: UploadConflictSchema },
    },
    paths,
  };
}

export function registerOpenApiRoute(app: App): void {
  let cached: Record<string, unknown> | undefined;
  app.get("/openapi.json", async () => (cached ??= buildOpenApiDocument(app)));
}
