// `so.webhookEndpoints`: list, get, create (the signing secret only in its answer), update and delete webhook endpoints.
import { apiPath } from "../internal/api-path.js";
import type { RequestOptions } from "../request-types.js";
import { list, type ListOptions, type PagePromise, type PageParams } from "../pagination.js";
import { SHAPES } from "../response-shapes.js";
import { APIResource } from "./resource.js";
import type { WebhookEndpoint, WebhookEndpointCreateParams, WebhookEndpointUpdateParams } from "../generated/wire.js";

export type { WebhookEndpoint, WebhookEndpointCreateParams, WebhookEndpointUpdateParams } from "../generated/wire.js";

export class WebhookEndpoints extends APIResource {
  /** GET /api/v1/webhook_endpoints (oldest first). */
  list(params?: PageParams, options?: ListOptions): PagePromise<WebhookEndpoint> {
    return list<WebhookEndpoint>(this.client, apiPath`/webhook_endpoints`, params, options, SHAPES.webhookEndpoint);
  }
  /** GET /api/v1/webhook_endpoints/:id */
  get(id: string, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.client.send<WebhookEndpoint>({ method: "GET", path: apiPath`/webhook_endpoints/${id}`, ...options, expect: SHAPES.webhookEndpoint });
  }
  /** POST /api/v1/webhook_endpoints; the response carries the signing `secret`, once. */
  create(body: WebhookEndpointCreateParams, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.client.send<WebhookEndpoint>({ method: "POST", path: apiPath`/webhook_endpoints`, body, ...options, expect: SHAPES.webhookEndpoint });
  }
  /** PATCH /api/v1/webhook_endpoints/:id */
  update(id: string, body: WebhookEndpointUpdateParams, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.client.send<WebhookEndpoint>({
      method: "PATCH",
      path: apiPath`/webhook_endpoints/${id}`,
      body,
      ...options,
      expect: SHAPES.webhookEndpoint,
    });
  }
  /** DELETE /api/v1/webhook_endpoints/:id */
  delete(id: string, options?: RequestOptions): Promise<void> {
    return this.client.delete(apiPath`/webhook_endpoints/${id}`, options);
  }
}
