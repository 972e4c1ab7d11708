// `so.sites`: list, get, create, update and delete the account's WordPress sites.
import { apiPath } from "../internal/api-path.js";
import type { RequestOptions } from "../request-types.js";
import { list, type ListOptions, type PagePromise, type PageParams } from "../pagination.js";
import { SHAPES } from "../response-shapes.js";
import { APIResource } from "./resource.js";
import type { Site, SiteCreateParams, SiteUpdateParams } from "../generated/wire.js";

export type { Site, SiteCreateParams, SiteStatus, SiteUpdateParams } from "../generated/wire.js";

export class Sites extends APIResource {
  /** GET /api/v1/sites (oldest first). */
  list(params?: PageParams, options?: ListOptions): PagePromise<Site> {
    return list<Site>(this.client, apiPath`/sites`, params, options, SHAPES.site);
  }
  /** GET /api/v1/sites/:id */
  get(id: string, options?: RequestOptions): Promise<Site> {
    return this.client.send<Site>({ method: "GET", path: apiPath`/sites/${id}`, ...options, expect: SHAPES.site });
  }
  /** POST /api/v1/sites */
  create(body: SiteCreateParams, options?: RequestOptions): Promise<Site> {
    return this.client.send<Site>({ method: "POST", path: apiPath`/sites`, body, ...options, expect: SHAPES.site });
  }
  /** PATCH /api/v1/sites/:id */
  update(id: string, body: SiteUpdateParams, options?: RequestOptions): Promise<Site> {
    return this.client.send<Site>({ method: "PATCH", path: apiPath`/sites/${id}`, body, ...options, expect: SHAPES.site });
  }
  /** DELETE /api/v1/sites/:id; the site's snapshots, pipelines, checks and records go with it. */
  delete(id: string, options?: RequestOptions): Promise<void> {
    return this.client.delete(apiPath`/sites/${id}`, options);
  }
}
