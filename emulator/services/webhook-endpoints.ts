// Webhook endpoints of an account: the rules of their url (https; never a link-local, metadata or
// unspecified address, nor the emulator itself; private and loopback ones, over http too, only with
// --allow-private-webhooks: services/webhook-targets.ts), events and description; a new enabled endpoint gets a `webhook_endpoint.ping`. The
// signing secret is made here and shown once, in the create response.
import { randomBytes } from "node:crypto";
import type { EmulatorContext } from "../context.js";
import type { Origin } from "../auth/auth-context.js";
import { FieldErrorCollector, notFound, unprocessable } from "../errors.js";
import { CONTROL_CHARACTERS, hasControlCharacters } from "../../wire/common.js";
import { EVENT_TYPES } from "../events.js";
import { USERINFO, hasUserinfo } from "../site-urls.js";
import type { EndpointInput, EndpointPatch, WebhookEndpointJson } from "../../wire/webhook-endpoints.js";
import type { PageSource } from "../store/db.js";
import {
  countEndpoints,
  deleteEndpointRow,
  endpointToJson,
  endpointsPage,
  findEndpointOf,
  insertEndpoint,
  updateEndpointRow,
  type EndpointRow,
} from "../store/webhook-endpoints.js";
import { diff, recordActivity } from "./activity-logs.js";
import { checkTargetUrl } from "./webhook-targets.js";

const KNOWN_EVENTS = new Set<string>(EVENT_TYPES);

function checkUrl(ctx: EmulatorContext, errors: FieldErrorCollector, url: string): void {
  if (url.trim() === "") return void errors.add("url", "can't be blank");
  if (url.length > 2048) return void errors.add("url", "is too long (maximum is 2048 characters)");
  if (hasControlCharacters(url, "url")) return void errors.add("url", CONTROL_CHARACTERS);
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return void errors.add("url", "is invalid");
  }
  if (/\s/.test(url) || !u.hostname || (u.protocol !== "https:" && u.protocol !== "http:")) return void errors.add("url", "is invalid");
  if (hasUserinfo(url)) return void errors.add("url", USERINFO);
  const refusal = checkTargetUrl(ctx, u);
  if (refusal) errors.add("url", refusal);
}

function checkEvents(errors: FieldErrorCollector, events: string[]): void {
  if (events.length === 0) return void errors.add("enabled_events", "can't be blank");
  if (events.length > EVENT_TYPES.length + 1) return void errors.add("enabled_events", "is invalid");
  const unknown = events.filter((e) => e !== "*" && !KNOWN_EVENTS.has(e));
  if (unknown.length) errors.add("enabled_events", `contains unknown events: ${unknown.slice(0, 5).join(", ")}`);
}

function checkFields(ctx: EmulatorContext, body: EndpointPatch): void {
  const errors = new FieldErrorCollector();
  if (body.url !== undefined) checkUrl(ctx, errors, body.url);
  if (typeof body.description === "string" && body.description.length > 1000) errors.add("description", "is too long (maximum is 1000 characters)");
  if (body.enabled_events !== undefined) checkEvents(errors, body.enabled_events);
  errors.throwIfAny();
}

function loadEndpoint(ctx: EmulatorContext, accountId: string, id: string): EndpointRow {
  const row = findEndpointOf(ctx.db, accountId, id);
  if (!row) throw notFound();
  return row;
}

export function listEndpoints(ctx: EmulatorContext, accountId: string): PageSource<WebhookEndpointJson> {
  return endpointsPage(ctx.db, accountId);
}

export function getEndpoint(ctx: EmulatorContext, accountId: string, id: string): WebhookEndpointJson {
  return endpointToJson(loadEndpoint(ctx, accountId, id));
}

/** Endpoints an account may have (every event is delivered to each: an unbounded list is a fan-out). */
const MAX_ENDPOINTS_PER_ACCOUNT = 100;

/** Creates an endpoint; the result carries its `whsec_` secret (base64 of 24 random bytes), this once. */
export function createEndpoint(ctx: EmulatorContext, accountId: string, body: EndpointInput, origin: Origin): WebhookEndpointJson & { secret: string } {
  const events = body.enabled_events ?? ["*"];
  checkFields(ctx, { ...body, enabled_events: events });
  if (countEndpoints(ctx.db, accountId) >= MAX_ENDPOINTS_PER_ACCOUNT) {
    throw unprocessable(`An account can have at most ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints; delete one first`);
  }
  const id = ctx.newId("we");
  const secret = `whsec_${randomBytes(24).toString("base64")}`;
  ctx.db.transaction(() => {
    insertEndpoint(ctx.db, {
      id,
      account_id: accountId,
      url: ctx.profile.storedUrl(body.url),
      description: body.description ?? null,
      enabled_events: [...new Set(events)],
      status: body.status ?? "enabled",
      secret,
      created_at: ctx.clock.iso(),
    });
    recordActivity(ctx, { accountId, action: "webhook_endpoint.created", subjectType: "WebhookEndpoint", subjectId: id }, origin);
    const json = getEndpoint(ctx, accountId, id);
    if (json.status === "enabled") ctx.events.emit(accountId, "webhook_endpoint.ping", json, id);
  })();
  return { ...getEndpoint(ctx, accountId, id), secret };
}

export function updateEndpoint(ctx: EmulatorContext, accountId: string, id: string, body: EndpointPatch, origin: Origin): WebhookEndpointJson {
  const was = getEndpoint(ctx, accountId, id);
  checkFields(ctx, body);
  const next: WebhookEndpointJson = {
    ...was,
    url: body.url !== undefined ? ctx.profile.storedUrl(body.url) : was.url,
    description: body.description !== undefined ? body.description : was.description,
    enabled_events: body.enabled_events ? [...new Set(body.enabled_events)] : was.enabled_events,
    status: body.status ?? was.status,
  };
  const changes = diff(was, next, ["url", "description", "enabled_events", "status"]);
  if (!changes) return was;
  ctx.db.transaction(() => {
    updateEndpointRow(ctx.db, was.id, { ...next, updated_at: ctx.clock.iso() });
    recordActivity(ctx, { accountId, action: "webhook_endpoint.updated", subjectType: "WebhookEndpoint", subjectId: was.id, changes }, origin);
  })();
  // Re-enabled: deliveries that waited while it was disabled are due again.
  if (changes.status && next.status === "enabled") ctx.scheduler.poke(ctx.clock.nowMs());
  return getEndpoint(ctx, accountId, was.id);
}

export function deleteEndpoint(ctx: EmulatorContext, accountId: string, id: string, origin: Origin): void {
  const row = loadEndpoint(ctx, accountId, id);
  ctx.db.transaction(() => {
    deleteEndpointRow(ctx.db, row.id);
    recordActivity(ctx, { accountId, action: "webhook_endpoint.deleted", subjectType: "WebhookEndpoint", subjectId: row.id }, origin);
  })();
}
