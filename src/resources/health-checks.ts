// `so.healthChecks`: a site's health checks (list, get).
import { apiPath } from "../internal/api-path.js";
import type { RequestOptions } from "../request-types.js";
import { list, type ListOptions, type PagePromise, type PageParams } from "../pagination.js";
import { SHAPES } from "../response-shapes.js";
import { APIResource } from "./resource.js";
import type { HealthCheck } from "../generated/wire.js";

export type { HealthCheck, HealthCheckItem } from "../generated/wire.js";

export class HealthChecks extends APIResource {
  /** GET /api/v1/sites/:site_id/health_checks (newest first). */
  list(siteId: string, params?: PageParams, options?: ListOptions): PagePromise<HealthCheck> {
    return list<HealthCheck>(this.client, apiPath`/sites/${siteId}/health_checks`, params, options, SHAPES.healthCheck);
  }
  /** GET /api/v1/sites/:site_id/health_checks/:id */
  get(siteId: string, id: string, options?: RequestOptions): Promise<HealthCheck> {
    return this.client.send<HealthCheck>({
      method: "GET",
      path: apiPath`/sites/${siteId}/health_checks/${id}`,
      ...options,
      expect: SHAPES.healthCheck,
    });
  }
}
