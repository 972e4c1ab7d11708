// GET /me: the current user, with the role and id of the account this request acts in.
import type { App } from "../app.js";
import type { EmulatorContext } from "../context.js";
import { requireAuth } from "../app.js";
import { MeSchema, loadMember, serializeUser } from "../services/users.js";

export function registerMeRoutes(app: App, ctx: EmulatorContext): void {
  app.get(
    "/me",
    {
      schema: {
        operationId: "getMe",
        summary: "The current user and current account",
        tags: ["users"],
        response: { 200: MeSchema },
      },
    },
    async (req) => {
      const auth = requireAuth(req);
      return { ...serializeUser(loadMember(ctx, auth.accountId, auth.userId)), current_account_id: auth.accountId };
    },
  );
}
