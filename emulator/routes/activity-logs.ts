// GET /activity_logs: the account's log, newest first, filtered by site_id, action, since, until.
import { Type } from "typebox";
import type { App } from "../http.js";
import type { EmulatorContext } from "../context.js";
import { requireAuth } from "../auth/guards.js";
import { badRequest } from "../errors.js";
import { paginate } from "../pagination.js";
import { PageQuery } from "../../wire/common.js";
import { ActivityLogFiltersSchema, ActivityLogSchema } from "../../wire/activity-logs.js";
import { listActivity } from "../services/activity-logs.js";

/** An ISO 8601 time from the query, normalised to the stored form; 400 when it is not one. */
export function timeParam(name: string, value: string | undefined): string | null {
  if (value === undefined || value === "") return null;
  // Require a date at least (Date.parse alone accepts things like "1").
  const ms = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) throw badRequest(`${name} must be an ISO 8601 time`);
  return new Date(ms).toISOString();
}

export function registerActivityLogRoutes(app: App, ctx: EmulatorContext): void {
  app.get(
    "/activity_logs",
    {
      schema: {
        operationId: "listActivityLogs",
        summary: "List the activity log of the current account (newest first)",
        tags: ["activity_logs"],
        querystring: Type.Object({ ...PageQuery, ...ActivityLogFiltersSchema.properties }),
        response: { 200: Type.Array(ActivityLogSchema) },
      },
    },
    async (req, reply) => {
      const { accountId } = requireAuth(req);
      const q = req.query;
      const action = q.action || null;
      const prefix = action?.endsWith(".*") ? action.slice(0, -1) : null;
      return paginate(
        req,
        reply,
        listActivity(ctx, {
          accountId,
          siteId: q.site_id || null,
          action: prefix ? null : action,
          prefix,
          since: timeParam("since", q.since),
          until: timeParam("until", q.until),
        }),
      );
    },
  );
}
