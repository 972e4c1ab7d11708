// GET /activity_logs: the account's log, newest first, filtered by site_id, action, since, until.
import { Type } from "typebox";
import type { App } from "../app.js";
import type { EmulatorContext } from "../context.js";
import { requireAuth } from "../app.js";
import { badRequest } from "../errors.js";
import { paginate } from "../pagination.js";
import { parseJson, stmt } from "../store/db.js";
import type { Actor } from "../auth/auth-context.js";
import { PageQuery } from "./common.js";

export const ActivityLogSchema = Type.Object({
  id: Type.String(),
  account_id: Type.String(),
  site_id: Type.Union([Type.String(), Type.Null()]),
  action: Type.String(),
  actor: Type.Object({
    type: Type.Union([Type.Literal("user"), Type.Literal("api_token"), Type.Literal("system")]),
    id: Type.String(),
    name: Type.String(),
  }),
  subject_type: Type.String(),
  subject_id: Type.Union([Type.String(), Type.Null()]),
  changes: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
  ip_address: Type.Union([Type.String(), Type.Null()]),
  request_id: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
});

interface ActivityRow {
  id: string;
  account_id: string;
  site_id: string | null;
  action: string;
  actor: string;
  subject_type: string;
  subject_id: string | null;
  changes: string | null;
  ip_address: string | null;
  request_id: string | null;
  created_at: string;
}

function serialize(row: ActivityRow) {
  return {
    id: row.id,
    account_id: row.account_id,
    site_id: row.site_id,
    action: row.action,
    actor: parseJson<Actor>(row.actor, { type: "system", id: "system", name: "Site Operations" }),
    subject_type: row.subject_type,
    subject_id: row.subject_id,
    changes: parseJson<Record<string, unknown> | null>(row.changes, null),
    ip_address: row.ip_address,
    request_id: row.request_id,
    created_at: row.created_at,
  };
}

/** An ISO 8601 time from the query, normalised to the stored form; 400 when it is not one. */
function timeParam(name: string, value: string | undefined): string | null {
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
        querystring: Type.Object({
          ...PageQuery,
          site_id: Type.Optional(Type.String({ description: "Only entries about this site" })),
          action: Type.Optional(Type.String({ description: "Exact action (site.created), or a prefix ending in .* (site.*)" })),
          since: Type.Optional(Type.String({ description: "ISO 8601 time; entries at or after it" })),
          until: Type.Optional(Type.String({ description: "ISO 8601 time; entries before it" })),
        }),
        response: { 200: Type.Array(ActivityLogSchema) },
      },
    },
    async (req, reply) => {
      const { accountId } = requireAuth(req);
      const q = req.query;
      const action = q.action || null;
      const prefix = action?.endsWith(".*") ? action.slice(0, -1) : null;
      const params = {
        account_id: accountId,
        site_id: q.site_id || null,
        action: prefix ? null : action,
        prefix_lo: prefix,
        prefix_hi: prefix ? `${prefix}\uffff` : null,
        since: timeParam("since", q.since),
        until: timeParam("until", q.until),
      };
      const where = `account_id = @account_id
        AND (@site_id IS NULL OR site_id = @site_id)
        AND (@action IS NULL OR action = @action)
        AND (@prefix_lo IS NULL OR (action >= @prefix_lo AND action < @prefix_hi))
        AND (@since IS NULL OR created_at >= @since)
        AND (@until IS NULL OR created_at < @until)`;
      return paginate(req, reply, {
        count: () => (stmt(ctx.db, `SELECT COUNT(*) AS n FROM activity_logs WHERE ${where}`).get(params) as { n: number }).n,
        rows: (limit, offset) =>
          (
            stmt(ctx.db, `SELECT * FROM activity_logs WHERE ${where} ORDER BY seq DESC LIMIT @limit OFFSET @offset`).all({
              ...params,
              limit,
              offset,
            }) as ActivityRow[]
          ).map(serialize),
      });
    },
  );
}
