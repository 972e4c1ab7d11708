// Login and logout: POST /jwt, /jwt/refresh, /jwt/revoke (JWT pairs) and POST/DELETE /auth (API
// tokens for native clients). DESIGN.md section 2, Authentication.
import { Type } from "typebox";
import type { App } from "../app.js";
import { forgetApiTokens } from "../auth/authenticate.js";
import type { EmulatorContext } from "../context.js";
import { requireAuth } from "../app.js";
import { recordActivity } from "../activity.js";
import { newId } from "../ids.js";
import { stmt } from "../store/db.js";
import { hashToken, newApiToken } from "../auth/secrets.js";
import { revokeJti } from "../auth/jwt.js";
import { checkCredentials, defaultAccountOf, issueTokenPair, revokeToken, rotateRefreshToken } from "../services/sessions.js";
import { UserSchema, loadMember, serializeUser } from "../services/users.js";
import { NoContent } from "./common.js";

const TokenPairSchema = Type.Object({
  access_token: Type.String(),
  refresh_token: Type.String(),
  token_type: Type.Literal("Bearer"),
  expires_in: Type.Integer(),
});

const LoginBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 320 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
  otp_attempt: Type.Optional(Type.String({ maxLength: 32 })),
});

export function registerAuthRoutes(app: App, ctx: EmulatorContext): void {
  app.post(
    "/jwt",
    {
      config: { public: true },
      schema: {
        operationId: "login",
        summary: "Log in with email and password (and otp_attempt with 2FA); returns a JWT pair",
        tags: ["auth"],
        body: LoginBody,
        response: { 200: TokenPairSchema },
      },
    },
    async (req) => {
      const user = await checkCredentials(ctx, req.body);
      const { accountId } = defaultAccountOf(ctx, user.id);
      return issueTokenPair(ctx, user.id, accountId);
    },
  );

  app.post(
    "/jwt/refresh",
    {
      config: { public: true },
      schema: {
        operationId: "refreshToken",
        summary: "Exchange a refresh token for a new pair (the old refresh token is spent)",
        tags: ["auth"],
        body: Type.Object({ refresh_token: Type.String({ minLength: 1, maxLength: 512 }) }),
        response: { 200: TokenPairSchema },
      },
    },
    async (req) => rotateRefreshToken(ctx, req.body.refresh_token),
  );

  app.post(
    "/jwt/revoke",
    {
      schema: {
        operationId: "revokeToken",
        summary: "Revoke an access or refresh token (200 even for an unknown token)",
        tags: ["auth"],
        body: Type.Object({ token: Type.String({ minLength: 1, maxLength: 4096 }) }),
        response: { 200: Type.Object({ revoked: Type.Literal(true) }) },
      },
    },
    async (req) => {
      const auth = requireAuth(req);
      await revokeToken(ctx, auth.userId, req.body.token);
      return { revoked: true as const };
    },
  );

  app.post(
    "/auth",
    {
      config: { public: true },
      schema: {
        operationId: "createApiToken",
        summary: "Log in and get an API token for a native client",
        tags: ["auth"],
        body: Type.Object({ ...LoginBody.properties, name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) }),
        response: { 201: Type.Object({ token: Type.String(), user: UserSchema }) },
      },
    },
    async (req, reply) => {
      const user = await checkCredentials(ctx, req.body);
      const { accountId } = defaultAccountOf(ctx, user.id);
      const token = newApiToken();
      const tokenId = newId("tok");
      const name = req.body.name ?? "Native client";
      stmt(ctx.db, "INSERT INTO api_tokens (id, token_hash, user_id, account_id, name, created_at) VALUES (?, ?, ?, ?, ?, ?)").run(
        tokenId, hashToken(token), user.id, accountId, name, ctx.clock.iso(),
      );
      recordActivity(
        ctx,
        { accountId, action: "api_token.created", subjectType: "ApiToken", subjectId: tokenId },
        { actor: { type: "user", id: user.id, name: user.name }, ip: req.ip, requestId: req.id },
      );
      return reply.code(201).send({ token, user: serializeUser(loadMember(ctx, accountId, user.id)) });
    },
  );

  app.delete(
    "/auth",
    {
      schema: {
        operationId: "deleteApiToken",
        summary: "Log out a native client: revokes the credential of this request",
        tags: ["auth"],
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      const auth = requireAuth(req);
      const cred = auth.credential;
      if (cred.kind === "api_token") {
        stmt(ctx.db, "UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL").run(ctx.clock.iso(), cred.tokenId);
        forgetApiTokens(ctx);
        recordActivity(
          ctx,
          { accountId: auth.accountId, action: "api_token.revoked", subjectType: "ApiToken", subjectId: cred.tokenId },
          { actor: auth.actor, ip: req.ip, requestId: req.id },
        );
      } else {
        revokeJti(ctx, cred.jti, cred.expMs);
      }
      return reply.code(204).send(null);
    },
  );
}
