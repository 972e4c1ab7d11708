// The schema of siteops_webhook_endpoint: its attributes from the endpoint's field table (wire/generated/fields.ts)
// with what Terraform adds, and `enabled`, Terraform's form of the status. A module of its own so that what reads
// only the schema (siteops export, which the CLI bundles) does not load the resource's CRUD.
import { useStateForUnknown } from "../framework/plan-modifiers.js";
import { defineSchema } from "../framework/schema.js";
import { eachElement, httpUrl, oneOf, sizeAtLeast, stringLengthBetween } from "../framework/validators.js";
import { WEBHOOK_EVENT_TYPES } from "../../common/webhook-events.js";
import { webhookEndpointFields } from "../../wire/generated/fields.js";
import { resourceAttributes } from "../wire-attributes.js";
import { sameUrl } from "./same-meaning.js";

/** What Terraform adds to the endpoint's fields, and those it leaves out. */
export const WEBHOOK_ENDPOINT_LAYERS = {
  id: { planModifiers: [useStateForUnknown()] },
  url: {
    more: "Compared by meaning: where the service stores it spelled otherwise (host case, a trailing `/`, a default port), the state keeps the configured spelling.",
    validators: [httpUrl()],
    semanticEquals: sameUrl,
  },
  description: { validators: [stringLengthBetween(1, 1000)] },
  enabled_events: { type: ["set", "string"], default: ["*"] as string[], validators: [sizeAtLeast(1), eachElement(oneOf("*", ...WEBHOOK_EVENT_TYPES))] },
  status: { leftOut: "Terraform has `enabled`, a bool, in its place (below)" },
  created_at: { leftOut: "informs only, and the provider keeps no time of the service's in state but a site's created_at" },
  updated_at: { leftOut: "changes with every write, Terraform's or another's: in state it would show a diff on every refresh" },
  secret: {
    sensitive: true,
    more: "The service never returns it again: an imported endpoint has null here (rotate the secret in the console, or create the endpoint with Terraform, to have it in state).",
    planModifiers: [useStateForUnknown()],
  },
} as const;

export const webhookEndpointSchema = defineSchema({
  description: "An endpoint that receives Site Operations events as signed (Standard Webhooks) HTTP POSTs.",
  attributes: {
    ...resourceAttributes(webhookEndpointFields, WEBHOOK_ENDPOINT_LAYERS),
    enabled: { type: "bool", optional: true, computed: true, default: true, description: "Whether deliveries are sent. Default `true`." },
  },
});
