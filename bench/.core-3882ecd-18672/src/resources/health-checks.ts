import type { RequestOptions } from "../client.js";
import { list, type ListOptions, type PagePromise, type PageParams } from "../pagination.js";
import { APIResource, seg } from "./resource.js";

export interface HealthCheckItem {
  test: string;
  label: string;
  status: "good" | "recommended" | "critical";
  description: string;
}

export interface HealthCheck {
  id: string;
  site_id: string;
  status: "passed" | "warning" | "failed";
  http_status: number;
  response_time_ms: number;
  wp_version: string;
  php_version: string;
  checks: HealthCheckItem[];
  checked_at: string;
}

export class HealthChecks extends APIResource {
  /** GET /api/v1/sites/:site_id/health_checks (newest first). */
  list(siteId: string, params?: PageParams, options?: ListOptions): PagePromise<HealthCheck> {
    return list<HealthCheck>(this.client, `/api/v1/sites/${seg(siteId)}/health_checks`, params, options);
  }
  /** GET /api/v1/sites/:site_id/health_checks/:id */
  get(siteId: string, id: string, options?: RequestOptions): Promise<HealthCheck> {
    return this.client.get<HealthCheck>(`/api/v1/sites/${seg(siteId)}/health_checks/${seg(id)}`, options);
  }
}
