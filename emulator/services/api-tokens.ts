// API tokens for native clients: POST /auth creates one after a login, DELETE /auth revokes the
// credential of the request (an API token, or a JWT access token's jti).
import type { EmulatorContext } from "../context.js";
import type { AuthContext, Origin } from "../auth/auth-context.js";
import { forgetApiTokens } from "../auth/authenticate.js";
import { revokeJti } from "../auth/jwt.js";
import { hashToken, newApiToken } from "../auth/secrets.js";
import { newId } from "../ids.js";
import type { UserJson } from "../schemas/users.js";
import { insertApiToken, revokeApiTokenRow } from "../store/tokens.js";
import { recordActivity } from "./activity.js";
import { defaultAccountOf, signIn, type LoginInput } from "./sessions.js";
import { getMember } from "./users.js";

/** Logs in and creates an API token in the user's default account; the token is shown this once. */
export async function createApiToken(
  ctx: EmulatorContext,
  input: LoginInput & { name?: string },
  request: Omit<Origin, "actor">,
): Promise<{ token: string; user: UserJson }> {
  const user = await signIn(ctx, input, request.ip ?? "");
  const { accountId } = defaultAccountOf(ctx, user.id);
  const token = newApiToken();
  const tokenId = newId("tok");
  insertApiToken(ctx.db, { id: tokenId, hash: hashToken(token), userId: user.id, accountId, name: input.name ?? "Native client", at: ctx.clock.iso() });
  recordActivity(
    ctx,
    { accountId, action: "api_token.created", subjectType: "ApiToken", subjectId: tokenId },
    { ...request, actor: { type: "user", id: user.id, name: user.name } },
  );
  return { token, user: getMember(ctx, accountId, user.id) };
}

/** Revokes the credential the request authenticated with. */
export function revokeOwnCredential(ctx: EmulatorContext, auth: AuthContext, origin: Origin): void {
  const cred = auth.credential;
  if (cred.kind === "jwt") return revokeJti(ctx, cred.jti, cred.expMs);
  revokeApiTokenRow(ctx.db, cred.tokenId, ctx.clock.iso());
  forgetApiTokens(ctx);
  recordActivity(ctx, { accountId: auth.accountId, action: "api_token.revoked", subjectType: "ApiToken", subjectId: cred.tokenId }, origin);
}
