// siteops_webhook_endpoint: where Site Operations delivers events. The signing secret exists only in the
// create response, so it is kept from there in (sensitive) state; an imported endpoint has none.
import type { WebhookEndpoint, WebhookEndpointUpdateParams } from "../../src/index.js";
import { isNotFound, reportError } from "../api-errors.js";
import { Diagnostics, path } from "../framework/diagnostics.js";
import { useStateForUnknown } from "../framework/plan-modifiers.js";
import type { Resource } from "../framework/resource.js";
import type { Schema } from "../framework/schema.js";
import { eachElement, httpUrl, sizeAtLeast, stringLengthBetween } from "../framework/validators.js";
import type { ProviderData } from "../provider-data.js";
import type { ObjectValue, Value } from "../values/cty.js";

const FIELDS = ["url", "description", "enabled_events"] as const;

export const webhookEndpointSchema: Schema = {
  description: "An endpoint that receives Site Operations events as signed (Standard Webhooks) HTTP POSTs.",
  attributes: {
    id: { type: "string", computed: true, description: "Webhook endpoint identifier (`we_...`).", planModifiers: [useStateForUnknown()] },
    url: { type: "string", required: true, description: "https URL that receives the deliveries.", validators: [httpUrl()] },
    description: { type: "string", optional: true, description: "Free text shown in the service's UI.", validators: [stringLengthBetween(1, 1000)] },
    enabled_events: {
      type: ["set", "string"],
      optional: true,
      computed: true,
      default: ["*"],
      description: "Event types to deliver, e.g. `site.created`; `[\"*\"]` (the default) means all.",
      validators: [sizeAtLeast(1), eachElement(stringLengthBetween(1, 100))],
    },
    enabled: { type: "bool", optional: true, computed: true, default: true, description: "Whether deliveries are sent. Default `true`." },
    secret: {
      type: "string",
      computed: true,
      sensitive: true,
      description: "Signing secret (`whsec_...`), returned by the service only when the endpoint is created; null for imported endpoints.",
      planModifiers: [useStateForUnknown()],
    },
  },
};

function endpointState(e: WebhookEndpoint, secret: Value): ObjectValue {
  return {
    id: e.id,
    url: e.url,
    // The API has no "unset": an empty description reads back as null, as it was configured.
    description: e.description ? e.description : null,
    enabled_events: [...e.enabled_events].sort(),
    enabled: e.status === "enabled",
    secret: e.secret ?? secret,
  };
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const strings = (v: Value): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join("\n") === [...b].sort().join("\n");

export const webhookEndpointResource: Resource<ProviderData> = {
  typeName: "siteops_webhook_endpoint",
  schema: webhookEndpointSchema,

  async create({ plan }, diags, ctx) {
    try {
      const client = await ctx.data.client();
      let endpoint = await client.webhookEndpoints.create(
        { url: str(plan.url)!, ...(str(plan.description) ? { description: str(plan.description) } : {}), enabled_events: strings(plan.enabled_events) },
        { signal: ctx.signal },
      );
      const secret = endpoint.secret ?? null;
      if (plan.enabled === false) endpoint = await client.webhookEndpoints.update(endpoint.id, { status: "disabled" }, { signal: ctx.signal });
      return { state: endpointState(endpoint, secret) };
    } catch (err) {
      reportError(err, diags, { action: "create the webhook endpoint", credentialSource: ctx.data.credentialSource, fields: FIELDS });
      return { state: null };
    }
  },

  async read({ state }, diags, ctx) {
    try {
      const client = await ctx.data.client();
      return { state: endpointState(await client.webhookEndpoints.get(str(state.id)!, { signal: ctx.signal }), state.secret ?? null) };
    } catch (err) {
      if (isNotFound(err)) return { state: null };
      reportError(err, diags, { action: `read webhook endpoint ${str(state.id)}`, credentialSource: ctx.data.credentialSource });
      return { state: null };
    }
  },

  async update({ plan, prior }, diags, ctx) {
    const body: WebhookEndpointUpdateParams = {};
    if (plan.url !== prior.url) body.url = str(plan.url);
    if (plan.description !== prior.description) body.description = str(plan.description) ?? "";
    if (!sameSet(strings(plan.enabled_events), strings(prior.enabled_events))) body.enabled_events = strings(plan.enabled_events);
    if (typeof plan.enabled === "boolean" && plan.enabled !== prior.enabled) body.status = plan.enabled ? "enabled" : "disabled";
    try {
      const client = await ctx.data.client();
      const id = str(prior.id)!;
      const endpoint = Object.keys(body).length ? await client.webhookEndpoints.update(id, body, { signal: ctx.signal }) : await client.webhookEndpoints.get(id, { signal: ctx.signal });
      return { state: endpointState(endpoint, prior.secret ?? null) };
    } catch (err) {
      reportError(err, diags, { action: `update webhook endpoint ${str(prior.id)}`, credentialSource: ctx.data.credentialSource, fields: FIELDS });
      return { state: null };
    }
  },

  async delete({ prior }, diags, ctx) {
    try {
      const client = await ctx.data.client();
      await client.webhookEndpoints.delete(str(prior.id)!, { signal: ctx.signal });
    } catch (err) {
      if (isNotFound(err)) return;
      reportError(err, diags, { action: `delete webhook endpoint ${str(prior.id)}`, credentialSource: ctx.data.credentialSource });
    }
  },

  importState(id: string, diags: Diagnostics) {
    if (!id.trim()) diags.error("Invalid import ID", "Import a webhook endpoint by its id, e.g. `we_abc123`.", path("id"));
    return { id: id.trim() };
  },
};
