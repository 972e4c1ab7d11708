// GET /accounts (those the user belongs to, oldest first) and GET /accounts/:id.
import { Type } from "typebox";
import type { App } from "../app.js";
import type { EmulatorContext } from "../context.js";
import { requireAuth } from "../app.js";
import { paginate } from "../pagination.js";
import { stmt } from "../store/db.js";
import { AccountSchema, loadAccountOf, serializeAccount, type AccountRow } from "../services/users.js";
import { IdParams, PageQuery } from "./common.js";

export function registerAccountRoutes(app: App, ctx: EmulatorContext): void {
  app.get(
    "/accounts",
    {
      schema: {
        operationId: "listAccounts",
        summary: "List the accounts the current user belongs to (oldest first)",
        tags: ["accounts"],
        querystring: Type.Object(PageQuery),
        response: { 200: Type.Array(AccountSchema) },
      },
    },
    async (req, reply) => {
      const { userId } = requireAuth(req);
      return paginate(req, reply, {
        count: () => (stmt(ctx.db, "SELECT COUNT(*) AS n FROM memberships WHERE user_id = ?").get(userId) as { n: number }).n,
        rows: (limit, offset) =>
          (
            stmt(
              ctx.db,
              "SELECT a.* FROM accounts a JOIN memberships m ON m.account_id = a.id WHERE m.user_id = ? ORDER BY a.seq LIMIT ? OFFSET ?",
            ).all(userId, limit, offset) as AccountRow[]
          ).map(serializeAccount),
      });
    },
  );

  app.get(
    "/accounts/:id",
    {
      schema: {
        operationId: "getAccount",
        summary: "Get an account the current user belongs to",
        tags: ["accounts"],
        params: IdParams,
        response: { 200: AccountSchema },
      },
    },
    async (req) => serializeAccount(loadAccountOf(ctx, requireAuth(req).userId, req.params.id)),
  );
}
