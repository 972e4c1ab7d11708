// The schema of siteops_webhook_endpoint. A module of its own so that what reads only the schema (siteops
// export, which the CLI bundles) does not load the resource's CRUD.
import { useStateForUnknown } from "../framework/plan-modifiers.js";
import { defineSchema } from "../framework/schema.js";
import { eachElement, httpUrl, oneOf, sizeAtLeast, stringLengthBetween } from "../framework/validators.js";
import { WEBHOOK_EVENT_TYPES } from "../../common/webhook-events.js";
import { sameUrl } from "./same-meaning.js";

export const webhookEndpointSchema = defineSchema({
  description: "An endpoint that receives Site Operations events as signed (Standard Webhooks) HTTP POSTs.",
  attributes: {
    id: { type: "string", computed: true, description: "Webhook endpoint identifier (`we_...`).", planModifiers: [useStateForUnknown()] },
    url: {
      type: "string",
      required: true,
      description:
        "https URL that receives the deliveries. Compared by meaning: where the service stores it spelled otherwise (host case, a trailing `/`, a default port), the state keeps the configured spelling.",
      validators: [httpUrl()],
      semanticEquals: sameUrl,
    },
    description: { type: "string", optional: true, description: "Free text shown in the service's UI.", validators: [stringLengthBetween(1, 1000)] },
    enabled_events: {
      type: ["set", "string"],
      optional: true,
      computed: true,
      default: ["*"],
      description: 'Event types to deliver, e.g. `site.created`; `["*"]` (the default) means all.',
      validators: [sizeAtLeast(1), eachElement(oneOf("*", ...WEBHOOK_EVENT_TYPES))],
    },
    enabled: { type: "bool", optional: true, computed: true, default: true, description: "Whether deliveries are sent. Default `true`." },
    secret: {
      type: "string",
      computed: true,
      sensitive: true,
      description:
        "Signing secret (`whsec_...`), returned by the service only when the endpoint is created. The service never returns it again: an imported endpoint has null here (rotate the secret in the console, or create the endpoint with Terraform, to have it in state).",
      planModifiers: [useStateForUnknown()],
    },
  },
});
