// API tokens for native clients: POST /auth creates one after a login, DELETE /auth revokes the
// credential of the request (an API token, or a JWT access token's jti); the console's Settings -> API
// lists, creates and deletes a signed-in user's own tokens.
import type { EmulatorContext } from "../context.js";
import type { AuthContext, Origin } from "../auth/auth-context.js";
import { forgetApiTokens } from "../auth/authenticate.js";
import { revokeJti } from "../auth/jwt.js";
import { hashToken, newApiToken, tokenPrefix } from "../auth/secrets.js";
import { FieldErrorCollector, notFound } from "../errors.js";
import { CONTROL_CHARACTERS, hasControlCharacters } from "../../wire/common.js";
import type { UserJson } from "../../wire/users.js";
import { apiTokensOf, insertApiToken, revokeApiTokenRow, type ApiTokenListRow } from "../store/api-tokens.js";
import { recordActivity } from "./activity-logs.js";
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
  const { token } = issueApiToken(ctx, accountId, input.name ?? "Native client", { ...request, actor: { type: "user", id: user.id, name: user.name } });
  return { token, user: getMember(ctx, accountId, user.id) };
}

/** A new API token of the origin's user in `accountId`; the value is returned this once (stored hashed). */
export function issueApiToken(ctx: EmulatorContext, accountId: string, name: string, origin: Origin): { id: string; token: string } {
  // The API's schema refuses these too; this is the console's path (the name becomes activity actors' name).
  if (hasControlCharacters(name)) new FieldErrorCollector().add("name", CONTROL_CHARACTERS).throwIfAny();
  const token = newApiToken();
  const id = ctx.newId("tok");
  const userId = origin.actor.id;
  insertApiToken(ctx.db, { id, hash: hashToken(token), prefix: tokenPrefix(token), userId, accountId, name, at: ctx.clock.iso() });
  recordActivity(ctx, { accountId, action: "api_token.created", subjectType: "ApiToken", subjectId: id }, origin);
  return { id, token };
}

/** The user's own unrevoked tokens in the account (a member sees and manages only theirs). */
export function listOwnApiTokens(ctx: EmulatorContext, accountId: string, userId: string): ApiTokenListRow[] {
  return apiTokensOf(ctx.db, accountId, userId);
}

/** Revokes one of the user's own tokens, effective for the very next API request; 404 for any other. */
export function revokeOwnApiToken(ctx: EmulatorContext, accountId: string, userId: string, tokenId: string, origin: Origin): void {
  if (!apiTokensOf(ctx.db, accountId, userId).some((t) => t.id === tokenId)) throw notFound();
  revokeApiTokenRow(ctx.db, tokenId, ctx.clock.iso());
  forgetApiTokens(ctx);
  recordActivity(ctx, { accountId, action: "api_token.revoked", subjectType: "ApiToken", subjectId: tokenId }, origin);
}

/** Revokes the credential the request authenticated with. */
export function revokeOwnCredential(ctx: EmulatorContext, auth: AuthContext, origin: Origin): void {
  const cred = auth.credential;
  if (cred.kind === "jwt") return revokeJti(ctx, cred.jti, cred.expMs);
  revokeApiTokenRow(ctx.db, cred.tokenId, ctx.clock.iso());
  forgetApiTokens(ctx);
  recordActivity(ctx, { accountId: auth.accountId, action: "api_token.revoked", subjectType: "ApiToken", subjectId: cred.tokenId }, origin);
}
