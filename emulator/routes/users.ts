// GET /users: the members of the current account with their roles, in the order they joined it.
import { Type } from "typebox";
import type { App } from "../app.js";
import type { EmulatorContext } from "../context.js";
import { requireAuth } from "../app.js";
import { paginate } from "../pagination.js";
import { stmt } from "../store/db.js";
import { MEMBER_COLUMNS, UserSchema, serializeUser, type MemberRow } from "../services/users.js";
import { PageQuery } from "./common.js";

export function registerUserRoutes(app: App, ctx: EmulatorContext): void {
  app.get(
    "/users",
    {
      schema: {
        operationId: "listUsers",
        summary: "List the users of the current account (oldest first)",
        tags: ["users"],
        querystring: Type.Object(PageQuery),
        response: { 200: Type.Array(UserSchema) },
      },
    },
    async (req, reply) => {
      const { accountId } = requireAuth(req);
      return paginate(req, reply, {
        count: () => (stmt(ctx.db, "SELECT COUNT(*) AS n FROM memberships WHERE account_id = ?").get(accountId) as { n: number }).n,
        rows: (limit, offset) =>
          (
            stmt(
              ctx.db,
              `SELECT ${MEMBER_COLUMNS} FROM users u JOIN memberships m ON m.user_id = u.id
                WHERE m.account_id = ? ORDER BY m.rowid LIMIT ? OFFSET ?`,
            ).all(accountId, limit, offset) as MemberRow[]
          ).map(serializeUser),
      });
    },
  );
}
