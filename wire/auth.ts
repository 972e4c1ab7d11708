// The authentication endpoints on the wire (docs/design.md section 2, Authentication).
import { Type } from "typebox";
import { UserSchema } from "./users.js";
import { Text } from "./common.js";

export const TokenPairSchema = Type.Object({
  access_token: Type.String(),
  refresh_token: Type.String(),
  token_type: Type.Literal("Bearer"),
  expires_in: Type.Integer({ description: "Seconds until the access token expires (900)" }),
});

export const LoginSchema = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 320 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
  otp_attempt: Type.Optional(Type.String({ maxLength: 32, description: "TOTP code; required when the user has two-factor authentication" })),
});

export const RefreshSchema = Type.Object({ refresh_token: Type.String({ minLength: 1, maxLength: 512 }) });
export const RevokeSchema = Type.Object({ token: Type.String({ minLength: 1, maxLength: 4096 }) });
export const RevokeResultSchema = Type.Object({ revoked: Type.Literal(true) });

export const ApiTokenLoginSchema = Type.Object({
  ...LoginSchema.properties,
  name: Type.Optional(Text({ minLength: 1, maxLength: 255, description: "Name of the token, shown in the account settings" })),
});

/** POST /auth: a new API token (shown once) and its user. */
export const ApiTokenSchema = Type.Object({ token: Type.String(), user: UserSchema });
