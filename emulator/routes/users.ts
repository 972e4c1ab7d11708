// GET /users: the members of the current account with their roles, in the order they joined it.
import { Type } from "typebox";
import type { App } from "../http.js";
import type { EmulatorContext } from "../context.js";
import { requireAuth } from "../auth/guards.js";
import { paginate } from "../pagination.js";
import { PageQuery } from "../../wire/common.js";
import { UserSchema } from "../../wire/users.js";
import { listMembers } from "../services/users.js";

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
    async (req, reply) => paginate(req, reply, listMembers(ctx, requireAuth(req).accountId)),
  );
}
