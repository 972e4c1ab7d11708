// GET /openapi.json: an OpenAPI 3.1 document built from the very schemas the routes validate with
// (collected as routes are registered), so the document cannot drift from behaviour.
import type { RouteOptions } from "fastify";
import type { App } from "./http.js";

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

export function buildOpenApiDocument(app: App): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of collected.get(app) ?? []) {
    const path = r.url.replace(/:([A-Za-z_]+)/g, "{$1}");
    const s = r.schema;
    const responses: Record<string, unknown> = {};
    for (const [code, body] of Object.entries((s.response as Record<string, unknown>) ?? {})) {
      responses[code] = { description: code === "204" ? "No content" : "Response", content: { "application/json": { schema: body } } };
      if (code === "204") delete (responses[code] as Record<string, unknown>).content;
    }
    responses.default = { description: "Error", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
    const op: Record<string, unknown> = {
      operationId: (s.operationId as string) ?? `${r.method}_${path}`,
      summary: s.summary,
      tags: s.tags,
      parameters: toParameters(s),
      responses,
    };
    if (s.body) op.requestBody = { required: true, content: { "application/json": { schema: s.body } } };
    if (s.consumes) op.requestBody = { required: true, content: Object.fromEntries((s.consumes as string[]).map((t) => [t, { schema: { type: "string", format: "binary" } }])) };
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
      schemas: {
        Error: {
          type: "object",
          required: ["error"],
          properties: { error: { type: "string" }, errors: { type: "object", additionalProperties: { type: "array", items: { type: "string" } } } },
        },
      },
    },
    paths,
  };
}

export function registerOpenApiRoute(app: App): void {
  let cached: Record<string, unknown> | undefined;
  app.get("/openapi.json", async () => (cached ??= buildOpenApiDocument(app)));
}
