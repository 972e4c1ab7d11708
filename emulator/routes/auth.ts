// Login and logout: POST /jwt, /jwt/refresh, /jwt/revoke (JWT pairs) and POST/DELETE /auth (API
// tokens for native clients). docs/design.md section 2, Authentication.
import type { App } from "../http.js";
import type { EmulatorContext } from "../context.js";
import { originOf, requireAuth } from "../auth/guards.js";
import { NoContent } from "../../wire/common.js";
import { ApiTokenLoginSchema, ApiTokenSchema, LoginSchema, RefreshSchema, RevokeResultSchema, RevokeSchema, TokenPairSchema } from "../../wire/auth.js";
import { createApiToken, revokeOwnCredential } from "../services/api-tokens.js";
import { defaultAccountOf, signIn, issueTokenPair, revokeToken, rotateRefreshToken } from "../services/sessions.js";

const tags = ["auth"];

export function registerAuthRoutes(app: App, ctx: EmulatorContext): void {
  app.post(
    "/jwt",
    {
      config: { public: true, signIn: true },
      schema: {
        operationId: "login",
        summary: "Log in with email and password (and otp_attempt with 2FA); returns a JWT pair",
        tags,
        body: LoginSchema,
        response: { 200: TokenPairSchema },
      },
    },
    async (req) => {
      const user = await signIn(ctx, req.body, req.ip);
      return issueTokenPair(ctx, user.id, defaultAccountOf(ctx, user.id).accountId);
    },
  );

  app.post(
    "/jwt/refresh",
    {
      config: { public: true },
      schema: {
        operationId: "refreshToken",
        summary: "Exchange a refresh token for a new pair (the old refresh token is spent)",
        tags,
        body: RefreshSchema,
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
        tags,
        body: RevokeSchema,
        response: { 200: RevokeResultSchema },
      },
    },
    async (req) => {
      await revokeToken(ctx, requireAuth(req).userId, req.body.token);
      return { revoked: true as const };
    },
  );

  app.post(
    "/auth",
    {
      config: { public: true, signIn: true },
      schema: {
        operationId: "createApiToken",
        summary: "Log in and get an API token for a native client",
        tags,
        body: ApiTokenLoginSchema,
        response: { 201: ApiTokenSchema },
      },
    },
    async (req, reply) => reply.code(201).send(await createApiToken(ctx, req.body, { ip: req.ip, requestId: req.id })),
  );

  app.delete(
    "/auth",
    {
      schema: { operationId: "deleteApiToken", summary: "Log out a native client: revokes the credential of this request", tags, response: { 204: NoContent } },
    },
    async (req, reply) => {
      revokeOwnCredential(ctx, requireAuth(req), originOf(req));
      return reply.code(204).send(null);
    },
  );
}
