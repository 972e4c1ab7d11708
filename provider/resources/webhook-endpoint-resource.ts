// siteops_webhook_endpoint: where Site Operations delivers events. The signing secret exists only in the
// create response, so it is kept from there in (sensitive) state; an imported endpoint (by id or by URL) has
// none, and keeps none: null is known, so nothing that reads it waits for "known after apply". The schema is
// webhook-endpoint-schema.ts; the URL compares by meaning (same-meaning.ts); fields of an answer the core does
// not check are read through ResponseFields.
import type { WebhookEndpoint, WebhookEndpointCreateParams, WebhookEndpointUpdateParams } from "../../src/index.js";
import { webhookEndpointFields } from "../../wire/generated/fields.js";
import { loadClient } from "../load-core.js";
import { path } from "../framework/diagnostics.js";
import type { Model } from "../framework/model.js";
import type { Resource } from "../framework/resource.js";
import type { ProviderData } from "../provider-data.js";
import { ResponseFields, type Answer } from "../response-fields.js";
import type { Schema } from "../framework/schema.js";
import { changes, stateFromAnswer } from "../wire-attributes.js";
import { adoptedHere, deleteKeyed, exists, keyedCreate, tookOver } from "./keyed-create.js";
import { onlyMatch, parseImportId } from "./site-lookup.js";
import { webhookEndpointSchema } from "./webhook-endpoint-schema.js";

type EndpointModel = Model<typeof webhookEndpointSchema>;

const attributes = webhookEndpointSchema.attributes as Schema["attributes"];
/** The fields mapped here, each its own way; every other field that is an attribute is its record's field of its name. */
const OWN = ["description", "enabled_events", "status", "secret"];
const BY_NAME = Object.keys(webhookEndpointFields).filter((name) => name in attributes && !OWN.includes(name));
const TAKEN = {
  create: BY_NAME.filter((name) => webhookEndpointFields[name as keyof typeof webhookEndpointFields].create !== false),
  update: BY_NAME.filter((name) => webhookEndpointFields[name as keyof typeof webhookEndpointFields].update),
};

/** The API's `status` is the `enabled` attribute. */
const fieldPaths = { status: path("enabled") };

/** What Terraform already has of the endpoint: the plan (create, update) or the prior state (read). */
type Known = Pick<EndpointModel, "description" | "enabled_events" | "enabled"> & { readonly [name: string]: unknown };

/**
 * The endpoint answer `a` as state; `secret` is the one Terraform holds (or the create answer's). A field the
 * core does not check and the answer lacks takes `known`'s value with a warning; with none to take (after an
 * import), it is an error and the result undefined.
 */
function endpointModel(e: WebhookEndpoint, a: Answer, fields: ResponseFields, known: Known | null, secret: string | null): EndpointModel | undefined {
  const events = fields.take(a, "enabled_events", "string[]", { standIn: known?.enabled_events });
  const enabled = known?.enabled;
  const status = fields.take(a, "status", "string", { attribute: "enabled", standIn: enabled == null ? null : enabled ? "enabled" : "disabled" });
  const description = fields.take(a, "description", "string", { nullable: true, orNull: true, standIn: known ? known.description : undefined });
  if (!events || !status) return undefined;
  return {
    ...(stateFromAnswer(webhookEndpointFields, BY_NAME, a, fields, known) as Pick<EndpointModel, "id" | "url">),
    // The API has no "unset": an empty description reads back as null, as it was configured.
    description: description ? description : null,
    enabled_events: [...events].sort(),
    enabled: status === "enabled",
    // Only the create answer carries it; a later answer keeps the one in state.
    secret: typeof e.secret === "string" ? e.secret : secret,
  };
}

const answer = (e: WebhookEndpoint, endpoint: string): Answer => ({ record: e, endpoint, noun: "webhook endpoint" });

const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join("\n") === [...b].sort().join("\n");

export const webhookEndpointResource: Resource<ProviderData, typeof webhookEndpointSchema, "id"> = {
  typeName: "siteops_webhook_endpoint",
  schema: webhookEndpointSchema,
  identity: "id",

  async create({ plan }, diags, ctx) {
    /** What the service holds once the POST was answered: kept in state even when a later step fails. */
    let made: { endpoint: WebhookEndpoint; a: Answer; secret: string | null; fields: ResponseFields } | undefined;
    try {
      const client = await ctx.data.client();
      const fields = new ResponseFields(await loadClient(), diags, "the configured value");
      const body = {
        ...Object.fromEntries(TAKEN.create.flatMap((name) => (plan[name as keyof EndpointModel] == null ? [] : [[name, plan[name as keyof EndpointModel]]]))),
        ...(plan.description ? { description: plan.description } : {}),
        // Sorted: a set has no order, and the request's key is derived from its body (keyed-create.ts).
        enabled_events: [...(plan.enabled_events ?? ["*"])].sort(),
      } as WebhookEndpointCreateParams;
      // Endpoints have no unique field to be found by: a rerun after a lost answer is told by the key alone.
      let { answer: endpoint } = await keyedCreate(
        "siteops_webhook_endpoint",
        body,
        (idempotencyKey) => client.webhookEndpoints.create(body, { signal: ctx.writeSignal, idempotencyKey }),
        (id) => exists(client.webhookEndpoints.get(id, { signal: ctx.writeSignal }), ctx.data.errors),
      );
      let a = answer(endpoint, "POST /api/v1/webhook_endpoints");
      // Only the create answer carries the secret (a replayed answer too).
      const secret = fields.take(a, "secret", "string", { orNull: true }) ?? null;
      made = { endpoint, a, secret, fields };
      if (plan.enabled === false) {
        endpoint = await client.webhookEndpoints.update(endpoint.id, { status: "disabled" }, { signal: ctx.writeSignal });
        a = answer(endpoint, `PATCH /api/v1/webhook_endpoints/${endpoint.id}`);
      }
      // The plan stands in for every field the core does not check: a state always results.
      return { state: endpointModel(endpoint, a, fields, plan, secret) ?? null };
    } catch (err) {
      ctx.data.errors.report(err, diags, {
        action: made ? `disable webhook endpoint ${made.endpoint.id}` : "create the webhook endpoint",
        schema: webhookEndpointSchema,
        fieldPaths,
        ifUnexpected: "The service may have created the endpoint all the same: look for it and import it (by its URL) rather than apply again.",
        ifCancelled: made
          ? "The endpoint exists and is in the state as it is (enabled); the next apply replaces it."
          : "If the service created it, the next terraform apply of this configuration finds it by its request's idempotency key and records it, rather than creating a second one.",
      });
      // Created but not disabled: recorded as it is, so nothing is lost (Terraform marks it tainted).
      return { state: made ? (endpointModel(made.endpoint, made.a, made.fields, { ...plan, enabled: true }, made.secret) ?? null) : null };
    }
  },

  async read({ state }, diags, ctx) {
    try {
      const client = await ctx.data.client();
      const endpoint = await client.webhookEndpoints.get(state.id, { signal: ctx.signal });
      const fields = new ResponseFields(await loadClient(), diags, "the value in state");
      const known = state;
      return { state: endpointModel(endpoint, answer(endpoint, `GET /api/v1/webhook_endpoints/${state.id}`), fields, known, state.secret) ?? null };
    } catch (err) {
      if (ctx.data.errors.isNotFound(err)) return { state: null };
      ctx.data.errors.report(err, diags, { action: `read webhook endpoint ${state.id}` });
      return { state: null };
    }
  },

  async importState(id, diags, ctx) {
    const { key, wanted } = parseImportId(id);
    if (key === "name" || !wanted) {
      diags.error("Invalid import ID", "Import a siteops_webhook_endpoint by its id (we_...) or its URL (https://...).", path("id"));
      return {};
    }
    if (key === "id") return { id: wanted };
    try {
      const client = await ctx.data.client();
      const all = await client.webhookEndpoints.list({ per_page: 100 }, { signal: ctx.signal }).toArray();
      const core = await loadClient();
      const found = onlyMatch(
        all.filter((e) => core.sameUrl(e.url, wanted)),
        { noun: "webhook endpoint", plural: "webhook endpoints", key: "url", wanted },
        diags,
        path("id"),
        "Check the URL, and that the provider's credentials belong to the endpoint's account.",
      );
      return found ? { id: found.id } : {};
    } catch (err) {
      ctx.data.errors.report(err, diags, { action: `find the webhook endpoint with url ${JSON.stringify(wanted)}` });
      return {};
    }
  },

  async update({ plan, prior }, diags, ctx) {
    const body: WebhookEndpointUpdateParams = {};
    for (const name of TAKEN.update) {
      const key = name as keyof EndpointModel;
      if (await changes(attributes[name]!, plan[key], prior[key])) (body as Record<string, unknown>)[name] = plan[key];
    }
    if (plan.description !== prior.description) body.description = plan.description ?? "";
    const events = plan.enabled_events ?? ["*"];
    if (!sameSet(events, prior.enabled_events ?? [])) body.enabled_events = events;
    if (plan.enabled !== null && plan.enabled !== prior.enabled) body.status = plan.enabled ? "enabled" : "disabled";
    try {
      const client = await ctx.data.client();
      const patch = Object.keys(body).length > 0;
      const endpoint = patch
        ? await client.webhookEndpoints.update(prior.id, body, { signal: ctx.writeSignal })
        : await client.webhookEndpoints.get(prior.id, { signal: ctx.signal });
      const fields = new ResponseFields(await loadClient(), diags, "the configured value");
      const a = answer(endpoint, `${patch ? "PATCH" : "GET"} /api/v1/webhook_endpoints/${prior.id}`);
      return { state: endpointModel(endpoint, a, fields, plan, prior.secret) ?? null };
    } catch (err) {
      ctx.data.errors.report(err, diags, { action: `update webhook endpoint ${prior.id}`, schema: webhookEndpointSchema, fieldPaths });
      return { state: null };
    }
  },

  async delete({ prior }, diags, ctx) {
    if (adoptedHere(prior.id)) return tookOver(diags, "webhook endpoint", prior.id);
    try {
      const client = await ctx.data.client();
      await deleteKeyed(prior.id, () => client.webhookEndpoints.delete(prior.id, { signal: ctx.writeSignal }), ctx.data.errors);
    } catch (err) {
      ctx.data.errors.report(err, diags, { action: `delete webhook endpoint ${prior.id}` });
    }
  },
};
