// Webhook endpoint on the wire (docs/design.md section 2): the resource (its secret only in the create
// response) and its create/update bodies.
import { Type, type Static } from "typebox";
import { Text } from "./common.js";

const EndpointStatusSchema = Type.Union([Type.Literal("enabled"), Type.Literal("disabled")]);

const endpointFields = {
  id: Type.String(),
  url: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  enabled_events: Type.Array(Type.String(), { description: 'Event types delivered; ["*"] means all' }),
  status: EndpointStatusSchema,
  created_at: Type.String(),
  updated_at: Type.String(),
};

/** The secret is never read back: only the create response carries it (WebhookEndpointCreatedSchema). */
export const WebhookEndpointSchema = Type.Object({
  ...endpointFields,
  secret: Type.Optional(Type.String({ description: "`whsec_...`: present in the create response only. Keep it to verify deliveries" })),
});
export const WebhookEndpointCreatedSchema = Type.Object({ ...endpointFields, secret: Type.String() });

export type EndpointStatus = Static<typeof EndpointStatusSchema>;
export type WebhookEndpointJson = Static<typeof WebhookEndpointSchema>;

export const EndpointCreateSchema = Type.Object({
  url: Type.String({ description: "https; private and loopback targets (also over http) only where the emulator allows them (--allow-private-webhooks)" }),
  description: Type.Optional(Type.Union([Text(), Type.Null()])),
  enabled_events: Type.Optional(Type.Array(Type.String(), { description: 'Default ["*"]: every event' })),
  status: Type.Optional(EndpointStatusSchema),
});
export const EndpointUpdateSchema = Type.Object({
  url: Type.Optional(Type.String()),
  description: Type.Optional(Type.Union([Text(), Type.Null()])),
  enabled_events: Type.Optional(Type.Array(Type.String())),
  status: Type.Optional(EndpointStatusSchema),
});

export type EndpointInput = Static<typeof EndpointCreateSchema>;
export type EndpointPatch = Static<typeof EndpointUpdateSchema>;
