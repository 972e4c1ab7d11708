// /api/v1/webhook_endpoints: CRUD of the account's endpoints (rules in services/webhook-endpoints.ts).
import { Type } from "typebox";
import type { App } from "../http.js";
import type { EmulatorContext } from "../context.js";
import { originOf, requireAuth, requireWriter } from "../auth/guards.js";
import { paginate } from "../pagination.js";
import { IdParams, NoContent, PageQuery } from "../../wire/common.js";
import { EndpointCreateSchema, EndpointUpdateSchema, WebhookEndpointCreatedSchema, WebhookEndpointSchema } from "../../wire/webhook-endpoints.js";
import { createEndpoint, deleteEndpoint, getEndpoint, listEndpoints, updateEndpoint } from "../services/webhook-endpoints.js";

const tags = ["webhook_endpoints"];

export function registerWebhookEndpointRoutes(app: App, ctx: EmulatorContext): void {
  app.get(
    "/webhook_endpoints",
    {
      schema: {
        operationId: "listWebhookEndpoints",
        summary: "List webhook endpoints (oldest first)",
        tags,
        querystring: Type.Object(PageQuery),
        response: { 200: Type.Array(WebhookEndpointSchema) },
      },
    },
    async (req, reply) => paginate(req, reply, listEndpoints(ctx, requireAuth(req).accountId)),
  );

  app.get(
    "/webhook_endpoints/:id",
    {
      schema: {
        operationId: "getWebhookEndpoint",
        summary: "Get a webhook endpoint (without its secret)",
        tags,
        params: IdParams,
        response: { 200: WebhookEndpointSchema },
      },
    },
    async (req) => getEndpoint(ctx, requireAuth(req).accountId, req.params.id),
  );

  app.post(
    "/webhook_endpoints",
    {
      schema: {
        operationId: "createWebhookEndpoint",
        summary: "Create a webhook endpoint; the response carries its signing secret, shown only once",
        tags,
        body: EndpointCreateSchema,
        response: { 201: WebhookEndpointCreatedSchema },
      },
    },
    async (req, reply) => reply.code(201).send(createEndpoint(ctx, requireWriter(req).accountId, req.body, originOf(req))),
  );

  app.patch(
    "/webhook_endpoints/:id",
    {
      schema: {
        operationId: "updateWebhookEndpoint",
        summary: "Update a webhook endpoint's url, description, enabled_events or status",
        tags,
        params: IdParams,
        body: EndpointUpdateSchema,
        response: { 200: WebhookEndpointSchema },
      },
    },
    async (req) => updateEndpoint(ctx, requireWriter(req).accountId, req.params.id, req.body, originOf(req)),
  );

  app.delete(
    "/webhook_endpoints/:id",
    {
      schema: {
        operationId: "deleteWebhookEndpoint",
        summary: "Delete a webhook endpoint and its pending deliveries",
        tags,
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      deleteEndpoint(ctx, requireWriter(req).accountId, req.params.id, originOf(req));
      return reply.code(204).send(null);
    },
  );
}
