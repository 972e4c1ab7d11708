// The authentication endpoints on the wire (docs/design.md section 2, Authentication).
import { Type } from "typebox";
import { UserSchema } from "./users.js";
import { Text } from "./common.js";
import { allAssumed, spec } from "./field.js";

/** The JWT login's answer, as the spec lists it. */
export const TokenPairSchema = Type.Object({
  access_token: spec(Type.String()),
  refresh_token: spec(Type.String()),
  token_type: spec(Type.Literal("Bearer")),
  expires_in: spec(Type.Integer({ description: "Seconds until the access token expires (900)" })),
});

/** The JWT bodies the spec lists (their lengths are assumed). */
export const LoginSchema = Type.Object({
  email: spec(Type.String({ minLength: 1, maxLength: 320 })),
  password: spec(Type.String({ minLength: 1, maxLength: 1024 })),
  otp_attempt: Type.Optional(spec(Type.String({ maxLength: 32, description: "TOTP code; required when the user has two-factor authentication" }))),
});

export const RefreshSchema = Type.Object({ refresh_token: spec(Type.String({ minLength: 1, maxLength: 512 })) });
export const RevokeSchema = Type.Object({ token: spec(Type.String({ minLength: 1, maxLength: 4096 })) });
export const RevokeResultSchema = Type.Object(allAssumed({ revoked: Type.Literal(true) }));

/** POST /auth: its request and answer are not shown by the spec. */
export const ApiTokenLoginSchema = Type.Object(
  allAssumed({
    ...LoginSchema.properties,
    name: Type.Optional(Text({ minLength: 1, maxLength: 255, description: "Name of the token, shown in the account settings" })),
  }),
);

/** POST /auth: a new API token (shown once) and its user. */
export const ApiTokenSchema = Type.Object(allAssumed({ token: Type.String(), user: UserSchema }));
