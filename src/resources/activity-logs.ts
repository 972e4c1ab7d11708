// `so.activityLogs`: the account's activity log, paged and filtered (site, action, since, until).
import { apiPath } from "../internal/api-path.js";
import { list, type ListOptions, type PagePromise, type PageParams } from "../pagination.js";
import { SHAPES } from "../response-shapes.js";
import { APIResource } from "./resource.js";
import type { ActivityLog, ActivityLogFilters } from "../generated/wire.js";

export type { ActivityLog } from "../generated/wire.js";

/** Page parameters and the filters: site, action (exact, or a prefix ending in `.*`), time range. */
export interface ActivityLogListParams extends PageParams, ActivityLogFilters {}

export class ActivityLogs extends APIResource {
  /** GET /api/v1/activity_logs (newest first), filtered by site, action and time range. */
  list(params?: ActivityLogListParams, options?: ListOptions): PagePromise<ActivityLog> {
    return list<ActivityLog>(this.client, apiPath`/activity_logs`, params, options, SHAPES.activityLog);
  }
}
