import type { RequestOptions } from "../client.js";
import { list, type ListOptions, type PagePromise, type PageParams } from "../pagination.js";
import { APIResource, seg } from "./resource.js";

export type SiteStatus = "healthy" | "degraded" | "down" | "maintenance" | "unknown";

export interface Site {
  id: string;
  name: string;
  url: string;
  /** Derived from the latest health check; `maintenance` while a pipeline applies. */
  status: SiteStatus;
  /** major.minor */
  wp_version: string;
  /** major.minor */
  php_version: string;
  created_at: string;
  updated_at: string;
}

export interface SiteCreateParams {
  /** 1..255 characters. */
  name: string;
  /** Absolute http(s) URL, unique per account. */
  url: string;
  wp_version?: string;
  php_version?: string;
}

export type SiteUpdateParams = Partial<SiteCreateParams>;

export class Sites extends APIResource {
  /** GET /api/v1/sites (oldest first). */
  list(params?: PageParams, options?: ListOptions): PagePromise<Site> {
    return list<Site>(this.client, "/api/v1/sites", params, options);
  }
  /** GET /api/v1/sites/:id */
  get(id: string, options?: RequestOptions): Promise<Site> {
    return this.client.get<Site>(`/api/v1/sites/${seg(id)}`, options);
  }
  /** POST /api/v1/sites */
  create(body: SiteCreateParams, options?: RequestOptions): Promise<Site> {
    return this.client.post<Site>("/api/v1/sites", body, options);
  }
  /** PATCH /api/v1/sites/:id */
  update(id: string, body: SiteUpdateParams, options?: RequestOptions): Promise<Site> {
    return this.client.patch<Site>(`/api/v1/sites/${seg(id)}`, body, options);
  }
  /** DELETE /api/v1/sites/:id; the site's snapshots, pipelines, checks and records go with it. */
  delete(id: string, options?: RequestOptions): Promise<void> {
    return this.client.delete(`/api/v1/sites/${seg(id)}`, options);
  }
}
