import { list, type ListOptions, type PagePromise, type PageParams } from "../pagination.js";
import { APIResource } from "./resource.js";

export interface ActivityLog {
  id: string;
  account_id: string;
  site_id: string | null;
  /** Dotted, e.g. `snapshot.created`. */
  action: string;
  actor: { type: "user" | "api_token" | "system"; id: string; name: string };
  subject_type: string;
  subject_id: string | null;
  changes: Record<string, unknown> | null;
  ip_address: string | null;
  request_id: string | null;
  created_at: string;
}

export interface ActivityLogListParams extends PageParams {
  site_id?: string;
  action?: string;
  /** ISO 8601 lower bound of created_at. */
  since?: string;
  /** ISO 8601 upper bound of created_at. */
  until?: string;
}

export class ActivityLogs extends APIResource {
  /** GET /api/v1/activity_logs (newest first), filtered by site, action and time range. */
  list(params?: ActivityLogListParams, options?: ListOptions): PagePromise<ActivityLog> {
    return list<ActivityLog>(this.client, "/api/v1/activity_logs", params, options);
  }
}
