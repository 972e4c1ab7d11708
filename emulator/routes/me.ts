// GET /me: the current user, with the role and id of the account this request acts in.
import type { App } from "../http.js";
import type { EmulatorContext } from "../context.js";
import { requireAuth } from "../auth/guards.js";
import { MeSchema } from "../../wire/users.js";
import { getMe } from "../services/users.js";

export function registerMeRoutes(app: App, ctx: EmulatorContext): void {
  app.get(
    "/me",
    { schema: { operationId: "getMe", summary: "The current user and current account", tags: ["users"], response: { 200: MeSchema } } },
    async (req) => {
      const auth = requireAuth(req);
      return getMe(ctx, auth.accountId, auth.userId);
    },
  );
}
