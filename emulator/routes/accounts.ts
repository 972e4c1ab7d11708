// GET /accounts (those the user belongs to, oldest first) and GET /accounts/:id.
import { Type } from "typebox";
import type { App } from "../http.js";
import type { EmulatorContext } from "../context.js";
import { requireAuth } from "../auth/guards.js";
import { paginate } from "../pagination.js";
import { IdParams, PageQuery } from "../../wire/common.js";
import { AccountSchema } from "../../wire/users.js";
import { getAccount, listAccounts } from "../services/users.js";

const tags = ["accounts"];

export function registerAccountRoutes(app: App, ctx: EmulatorContext): void {
  app.get(
    "/accounts",
    {
      schema: {
        operationId: "listAccounts",
        summary: "List the accounts the current user belongs to (oldest first)",
        tags,
        querystring: Type.Object(PageQuery),
        response: { 200: Type.Array(AccountSchema) },
      },
    },
    async (req, reply) => paginate(req, reply, listAccounts(ctx, requireAuth(req).userId)),
  );

  app.get(
    "/accounts/:id",
    { schema: { operationId: "getAccount", summary: "Get an account the current user belongs to", tags, params: IdParams, response: { 200: AccountSchema } } },
    async (req) => getAccount(ctx, requireAuth(req).userId, req.params.id),
  );
}
