// Users, Me and Account on the wire (docs/design.md section 2).
import { Type, type Static } from "typebox";
import { allAssumed, assumed, spec } from "./field.js";

export const RoleSchema = Type.Union([Type.Literal("owner"), Type.Literal("admin"), Type.Literal("member")]);

export const UserSchema = Type.Object(
  allAssumed({
    id: Type.String(),
    email: Type.String(),
    name: Type.String(),
    role: RoleSchema,
    two_factor_enabled: Type.Boolean(),
    created_at: Type.String(),
  }),
);
export type UserJson = Static<typeof UserSchema>;

export const MeSchema = Type.Object({
  ...UserSchema.properties,
  current_account_id: assumed(Type.String()),
});

export const AccountSchema = Type.Object({
  id: spec(Type.String()),
  ...allAssumed({
    name: Type.String(),
    personal: Type.Boolean(),
    owner_id: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String(),
    updated_at: Type.String(),
  }),
});
export type AccountJson = Static<typeof AccountSchema>;
