import type { RequestOptions } from "../client.js";
import { list, type ListOptions, type PagePromise, type PageParams } from "../pagination.js";
import { APIResource, seg } from "./resource.js";

export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string | null;
  /** Event types delivered; ["*"] means all. */
  enabled_events: string[];
  status: "enabled" | "disabled";
  /** `whsec_...`: present in the create response only. Keep it to verify deliveries. */
  secret?: string;
  created_at: string;
  updated_at: string;
}

export interface WebhookEndpointCreateParams {
  /** https (loopback http is allowed by the emulator). */
  url: string;
  description?: string | null;
  /** Default ["*"]: every event. */
  enabled_events?: string[];
  status?: "enabled" | "disabled";
}

export interface WebhookEndpointUpdateParams {
  url?: string;
  description?: string | null;
  enabled_events?: string[];
  status?: "enabled" | "disabled";
}

export class WebhookEndpoints extends APIResource {
  /** GET /api/v1/webhook_endpoints (oldest first). */
  list(params?: PageParams, options?: ListOptions): PagePromise<WebhookEndpoint> {
    return list<WebhookEndpoint>(this.client, "/api/v1/webhook_endpoints", params, options);
  }
  /** GET /api/v1/webhook_endpoints/:id */
  get(id: string, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.client.get<WebhookEndpoint>(`/api/v1/webhook_endpoints/${seg(id)}`, options);
  }
  /** POST /api/v1/webhook_endpoints; the response carries the signing `secret`, once. */
  create(body: WebhookEndpointCreateParams, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.client.post<WebhookEndpoint>("/api/v1/webhook_endpoints", body, options);
  }
  /** PATCH /api/v1/webhook_endpoints/:id */
  update(id: string, body: WebhookEndpointUpdateParams, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.client.patch<WebhookEndpoint>(`/api/v1/webhook_endpoints/${seg(id)}`, body, options);
  }
  /** DELETE /api/v1/webhook_endpoints/:id */
  delete(id: string, options?: RequestOptions): Promise<void> {
    return this.client.delete(`/api/v1/webhook_endpoints/${seg(id)}`, options);
  }
}
