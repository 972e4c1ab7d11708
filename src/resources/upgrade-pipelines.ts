import type { RequestOptions } from "../client.js";
import { list, type ListOptions, type PagePromise, type PageParams } from "../pagination.js";
import { APIResource, seg } from "./resource.js";
import type { UpgradePipeline, UpgradePipelineApproveParams, UpgradePipelineCreateParams } from "../generated/wire.js";

export type {
  UpgradePipeline,
  UpgradePipelineApproveParams,
  UpgradePipelineCreateParams,
  UpgradePipelineStatus,
  UpgradePipelineStep,
} from "../generated/wire.js";

export class UpgradePipelines extends APIResource {
  /** GET /api/v1/sites/:site_id/upgrade_pipelines (newest first). */
  list(siteId: string, params?: PageParams, options?: ListOptions): PagePromise<UpgradePipeline> {
    return list<UpgradePipeline>(this.client, `/api/v1/sites/${seg(siteId)}/upgrade_pipelines`, params, options);
  }
  /** GET /api/v1/sites/:site_id/upgrade_pipelines/:id */
  get(siteId: string, id: string, options?: RequestOptions): Promise<UpgradePipeline> {
    return this.client.get<UpgradePipeline>(`/api/v1/sites/${seg(siteId)}/upgrade_pipelines/${seg(id)}`, options);
  }
  /** POST /api/v1/sites/:site_id/upgrade_pipelines (one active pipeline per site, else 422). */
  create(siteId: string, body: UpgradePipelineCreateParams, options?: RequestOptions): Promise<UpgradePipeline> {
    return this.client.post<UpgradePipeline>(`/api/v1/sites/${seg(siteId)}/upgrade_pipelines`, body, options);
  }
  /** POST /api/v1/sites/:site_id/upgrade_pipelines/:id/approve (only in `awaiting_approval`, else 422). */
  approve(siteId: string, id: string, body: UpgradePipelineApproveParams = {}, options?: RequestOptions): Promise<UpgradePipeline> {
    return this.client.post<UpgradePipeline>(`/api/v1/sites/${seg(siteId)}/upgrade_pipelines/${seg(id)}/approve`, body, options);
  }
}
