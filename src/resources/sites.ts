// `so.sites`: list, get, create, update and delete the account's WordPress sites.
import type { RequestOptions } from "../request-types.js";
import { list, type ListOptions, type PagePromise, type PageParams } from "../pagination.js";
import { APIResource, seg } from "./resource.js";
import type { Site, SiteCreateParams, SiteUpdateParams } from "../generated/wire.js";

export type { Site, SiteCreateParams, SiteStatus, SiteUpdateParams } from "../generated/wire.js";

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
