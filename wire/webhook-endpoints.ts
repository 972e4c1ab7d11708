// Webhook endpoint on the wire (docs/design.md section 2): its fields declared once, and from them the resource
// (its secret only in the create response) and its create/update bodies.
import { Type, type Static } from "typebox";
import { Nullable, Text } from "./common.js";
import { assumed, defineFields, spec, writable } from "./field.js";

const EndpointStatusSchema = Type.Union([Type.Literal("enabled"), Type.Literal("disabled")]);

const endpoint = defineFields({
  id: spec(Type.String({ description: "Webhook endpoint identifier (`we_...`)." })),
  url: writable(assumed(Type.String({ description: "https URL that receives the deliveries." })), {
    create: "required",
    update: true,
    input: Type.String({
      description: "https; private and loopback targets (also over http) only where the emulator allows them (--allow-private-webhooks)",
    }),
  }),
  description: writable(assumed(Nullable(Type.String(), { description: "Free text shown in the service's UI." })), {
    create: "optional",
    update: true,
    input: Type.Union([Text(), Type.Null()]),
  }),
  enabled_events: writable(
    assumed(Type.Array(Type.String(), { description: 'Event types to deliver, e.g. `site.created`; `["*"]` (the default) means all.' })),
    { create: "optional", update: true },
  ),
  status: writable(assumed(Type.With(EndpointStatusSchema, { description: "Whether deliveries are sent: `enabled` (the default) or `disabled`." })), {
    create: "optional",
    update: true,
  }),
  created_at: assumed(Type.String({ description: "Creation time, ISO 8601 UTC." })),
  updated_at: assumed(Type.String({ description: "Time of the last change, ISO 8601 UTC." })),
});

const secret = assumed(Type.String({ description: "Signing secret (`whsec_...`), returned by the service only when the endpoint is created." }));

/** The secret is never read back: only the create response carries it (WebhookEndpointCreatedSchema). */
export const WebhookEndpointSchema = Type.Object({ ...endpoint.read, secret: Type.Optional(secret) });
export const WebhookEndpointCreatedSchema = Type.Object({ ...endpoint.read, secret });

export type EndpointStatus = Static<typeof EndpointStatusSchema>;
export type WebhookEndpointJson = Static<typeof WebhookEndpointSchema>;

export const EndpointCreateSchema = Type.Object(endpoint.create);
export const EndpointUpdateSchema = Type.Object(endpoint.update);

export type EndpointInput = Static<typeof EndpointCreateSchema>;
export type EndpointPatch = Static<typeof EndpointUpdateSchema>;
