import type { RequestOptions } from "../client.js";
import { list, type ListOptions, type PagePromise, type PageParams } from "../pagination.js";
import { APIResource, seg } from "./resource.js";

export type UpgradePipelineStatus =
  | "pending"
  | "running"
  | "awaiting_approval"
  | "applying"
  | "succeeded"
  | "failed"
  | "rolled_back";

export interface UpgradePipelineStep {
  name: "snapshot" | "preflight" | "apply" | "verify";
  status: "pending" | "running" | "passed" | "failed" | "skipped";
  started_at: string | null;
  finished_at: string | null;
}

export interface UpgradePipeline {
  id: string;
  site_id: string;
  status: UpgradePipelineStatus;
  from_wp_version: string;
  /** The current version when the pipeline does not change it. */
  to_wp_version: string;
  from_php_version: string;
  to_php_version: string;
  snapshot_id: string | null;
  requires_approval: boolean;
  approved_at: string | null;
  approved_by: string | null;
  comment: string | null;
  error: string | null;
  steps: UpgradePipelineStep[];
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface UpgradePipelineCreateParams {
  /** At least one of to_wp_version / to_php_version; no downgrades. */
  to_wp_version?: string;
  to_php_version?: string;
  /** Default true: the pipeline stops in `awaiting_approval`. */
  requires_approval?: boolean;
  /** Snapshot to roll back to; the pipeline takes one itself when absent. */
  snapshot_id?: string;
}

export interface UpgradePipelineApproveParams {
  comment?: string;
}

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
