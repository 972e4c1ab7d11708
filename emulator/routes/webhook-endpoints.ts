// /api/v1/webhook_endpoints: CRUD of the account's endpoints. The signing secret is shown once, in
// the create response. A new endpoint gets a `webhook_endpoint.ping` delivery.
import { randomBytes } from "node:crypto";
import { Type } from "typebox";
import type { App } from "../app.js";
import type { EmulatorContext } from "../context.js";
import { requireAuth, requireWriter } from "../app.js";
import { FieldErrorCollector, notFound } from "../errors.js";
import { isId, newId } from "../ids.js";
import { EVENT_TYPES } from "../events.js";
import { paginate } from "../pagination.js";
import { logRequestActivity, diff } from "../activity.js";
import { parseJson, stmt } from "../store/db.js";
import { IdParams, NoContent, PageQuery } from "./common.js";

const STATUS = Type.Union([Type.Literal("enabled"), Type.Literal("disabled")]);

const endpointFields = {
  id: Type.String(),
  url: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  enabled_events: Type.Array(Type.String()),
  status: STATUS,
  created_at: Type.String(),
  updated_at: Type.String(),
};

export const WebhookEndpointSchema = Type.Object(endpointFields);
const WebhookEndpointWithSecret = Type.Object({ ...endpointFields, secret: Type.String() });

const EndpointCreate = Type.Object({
  url: Type.String(),
  description: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  enabled_events: Type.Optional(Type.Array(Type.String())),
  status: Type.Optional(STATUS),
});
const EndpointUpdate = Type.Object({
  url: Type.Optional(Type.String()),
  description: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  enabled_events: Type.Optional(Type.Array(Type.String())),
  status: Type.Optional(STATUS),
});

interface EndpointRow {
  id: string;
  account_id: string;
  url: string;
  description: string | null;
  enabled_events: string;
  status: "enabled" | "disabled";
  secret: string;
  created_at: string;
  updated_at: string;
}

type EndpointJson = Omit<EndpointRow, "account_id" | "secret" | "enabled_events"> & { enabled_events: string[] };

function serialize(row: EndpointRow): EndpointJson {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    enabled_events: parseJson<string[]>(row.enabled_events, []),
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;
const KNOWN_EVENTS = new Set<string>(EVENT_TYPES);

function checkUrl(errors: FieldErrorCollector, url: string): void {
  if (url.trim() === "") return void errors.add("url", "can't be blank");
  if (url.length > 2048) return void errors.add("url", "is too long (maximum is 2048 characters)");
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return void errors.add("url", "is invalid");
  }
  if (/\s/.test(url) || !u.hostname) return void errors.add("url", "is invalid");
  if (u.protocol === "https:") return;
  // Plain http only to this machine: the emulator's receivers in tests and local development.
  if (u.protocol === "http:" && LOOPBACK_HOST.test(u.hostname)) return;
  errors.add("url", u.protocol === "http:" ? "must use https" : "is invalid");
}

function checkEvents(errors: FieldErrorCollector, events: string[]): void {
  if (events.length === 0) return void errors.add("enabled_events", "can't be blank");
  if (events.length > EVENT_TYPES.length + 1) return void errors.add("enabled_events", "is invalid");
  const unknown = events.filter((e) => e !== "*" && !KNOWN_EVENTS.has(e));
  if (unknown.length) errors.add("enabled_events", `contains unknown events: ${unknown.slice(0, 5).join(", ")}`);
}

function checkDescription(errors: FieldErrorCollector, description: string | null | undefined): void {
  if (typeof description === "string" && description.length > 1000) {
    errors.add("description", "is too long (maximum is 1000 characters)");
  }
}

function loadEndpoint(ctx: EmulatorContext, accountId: string, id: string): EndpointRow {
  if (!isId("we", id)) throw notFound();
  const row = stmt(ctx.db, "SELECT * FROM webhook_endpoints WHERE id = ? AND account_id = ?").get(id, accountId) as EndpointRow | undefined;
  if (!row) throw notFound();
  return row;
}

/** `whsec_` + base64 of 24 random bytes (Standard Webhooks). */
function newSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

export function registerWebhookEndpointRoutes(app: App, ctx: EmulatorContext): void {
  app.get(
    "/webhook_endpoints",
    {
      schema: {
        operationId: "listWebhookEndpoints",
        summary: "List webhook endpoints (oldest first)",
        tags: ["webhook_endpoints"],
        querystring: Type.Object(PageQuery),
        response: { 200: Type.Array(WebhookEndpointSchema) },
      },
    },
    async (req, reply) => {
      const { accountId } = requireAuth(req);
      return paginate(req, reply, {
        count: () => (stmt(ctx.db, "SELECT COUNT(*) AS n FROM webhook_endpoints WHERE account_id = ?").get(accountId) as { n: number }).n,
        rows: (limit, offset) =>
          (
            stmt(ctx.db, "SELECT * FROM webhook_endpoints WHERE account_id = ? ORDER BY seq LIMIT ? OFFSET ?").all(
              accountId,
              limit,
              offset,
            ) as EndpointRow[]
          ).map(serialize),
      });
    },
  );

  app.get(
    "/webhook_endpoints/:id",
    {
      schema: {
        operationId: "getWebhookEndpoint",
        summary: "Get a webhook endpoint (without its secret)",
        tags: ["webhook_endpoints"],
        params: IdParams,
        response: { 200: WebhookEndpointSchema },
      },
    },
    async (req) => serialize(loadEndpoint(ctx, requireAuth(req).accountId, req.params.id)),
  );

  app.post(
    "/webhook_endpoints",
    {
      schema: {
        operationId: "createWebhookEndpoint",
        summary: "Create a webhook endpoint; the response carries its signing secret, shown only once",
        tags: ["webhook_endpoints"],
        body: EndpointCreate,
        response: { 201: WebhookEndpointWithSecret },
      },
    },
    async (req, reply) => {
      const { accountId } = requireWriter(req);
      const body = req.body;
      const events = body.enabled_events ?? ["*"];
      const errors = new FieldErrorCollector();
      checkUrl(errors, body.url);
      checkDescription(errors, body.description);
      checkEvents(errors, events);
      errors.throwIfAny();

      const id = newId("we");
      const secret = newSecret();
      const now = ctx.clock.iso();
      ctx.db.transaction(() => {
        stmt(
          ctx.db,
          `INSERT INTO webhook_endpoints (id, account_id, url, description, enabled_events, status, secret, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(id, accountId, body.url, body.description ?? null, JSON.stringify([...new Set(events)]), body.status ?? "enabled", secret, now, now);
        logRequestActivity(ctx, req, { action: "webhook_endpoint.created", subjectType: "WebhookEndpoint", subjectId: id });
        const json = serialize(loadEndpoint(ctx, accountId, id));
        if (json.status === "enabled") ctx.events.emit(accountId, "webhook_endpoint.ping", json, id);
      })();
      return reply.code(201).send({ ...serialize(loadEndpoint(ctx, accountId, id)), secret });
    },
  );

  app.patch(
    "/webhook_endpoints/:id",
    {
      schema: {
        operationId: "updateWebhookEndpoint",
        summary: "Update a webhook endpoint's url, description, enabled_events or status",
        tags: ["webhook_endpoints"],
        params: IdParams,
        body: EndpointUpdate,
        response: { 200: WebhookEndpointSchema },
      },
    },
    async (req) => {
      const { accountId } = requireWriter(req);
      const before = loadEndpoint(ctx, accountId, req.params.id);
      const body = req.body;
      const errors = new FieldErrorCollector();
      if (body.url !== undefined) checkUrl(errors, body.url);
      checkDescription(errors, body.description);
      if (body.enabled_events !== undefined) checkEvents(errors, body.enabled_events);
      errors.throwIfAny();

      const was = serialize(before);
      const next: EndpointJson = {
        ...was,
        url: body.url ?? was.url,
        description: body.description !== undefined ? body.description : was.description,
        enabled_events: body.enabled_events ? [...new Set(body.enabled_events)] : was.enabled_events,
        status: body.status ?? was.status,
      };
      const changes = diff(was, next, ["url", "description", "enabled_events", "status"]);
      if (!changes) return was;
      ctx.db.transaction(() => {
        stmt(ctx.db, "UPDATE webhook_endpoints SET url = ?, description = ?, enabled_events = ?, status = ?, updated_at = ? WHERE id = ?").run(
          next.url, next.description, JSON.stringify(next.enabled_events), next.status, ctx.clock.iso(), before.id,
        );
        logRequestActivity(ctx, req, { action: "webhook_endpoint.updated", subjectType: "WebhookEndpoint", subjectId: before.id, changes });
      })();
      // Re-enabled: deliveries that waited while it was disabled are due again.
      if (changes.status && next.status === "enabled") ctx.scheduler.poke(ctx.clock.nowMs());
      return serialize(loadEndpoint(ctx, accountId, before.id));
    },
  );

  app.delete(
    "/webhook_endpoints/:id",
    {
      schema: {
        operationId: "deleteWebhookEndpoint",
        summary: "Delete a webhook endpoint and its pending deliveries",
        tags: ["webhook_endpoints"],
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      const { accountId } = requireWriter(req);
      const row = loadEndpoint(ctx, accountId, req.params.id);
      ctx.db.transaction(() => {
        stmt(ctx.db, "DELETE FROM webhook_endpoints WHERE id = ?").run(row.id);
        logRequestActivity(ctx, req, { action: "webhook_endpoint.deleted", subjectType: "WebhookEndpoint", subjectId: row.id });
      })();
      return reply.code(204).send(null);
    },
  );
}
