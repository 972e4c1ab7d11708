// Users and accounts as the API shows them (DESIGN.md section 2: Me, Account, User).
import { Type, type Static } from "typebox";
import type { EmulatorContext } from "../context.js";
import type { Role } from "../auth/auth-context.js";
import { isId } from "../ids.js";
import { notFound } from "../errors.js";
import { stmt } from "../store/db.js";

export const UserSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: Type.Union([Type.Literal("owner"), Type.Literal("admin"), Type.Literal("member")]),
  two_factor_enabled: Type.Boolean(),
  created_at: Type.String(),
});
export type UserJson = Static<typeof UserSchema>;

export const MeSchema = Type.Object({
  ...UserSchema.properties,
  current_account_id: Type.String(),
});
export type MeJson = Static<typeof MeSchema>;

export const AccountSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  personal: Type.Boolean(),
  owner_id: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type AccountJson = Static<typeof AccountSchema>;

export interface MemberRow {
  id: string;
  email: string;
  name: string;
  otp_secret: string | null;
  created_at: string;
  role: Role;
}

export interface AccountRow {
  seq: number;
  id: string;
  name: string;
  personal: number;
  owner_id: string | null;
  created_at: string;
  updated_at: string;
}

export function serializeUser(row: MemberRow): UserJson {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    two_factor_enabled: row.otp_secret != null,
    created_at: row.created_at,
  };
}

export function serializeAccount(row: AccountRow): AccountJson {
  return {
    id: row.id,
    name: row.name,
    personal: row.personal === 1,
    owner_id: row.owner_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export const MEMBER_COLUMNS = "u.id, u.email, u.name, u.otp_secret, u.created_at, m.role";

/** The user as a member of this account (with the role there). */
export function loadMember(ctx: EmulatorContext, accountId: string, userId: string): MemberRow {
  const row = stmt(
    ctx.db,
    `SELECT ${MEMBER_COLUMNS} FROM users u JOIN memberships m ON m.user_id = u.id WHERE m.account_id = ? AND u.id = ?`,
  ).get(accountId, userId) as MemberRow | undefined;
  if (!row) throw notFound();
  return row;
}

/** An account the user belongs to, or 404. */
export function loadAccountOf(ctx: EmulatorContext, userId: string, accountId: string): AccountRow {
  if (!isId("acct", accountId)) throw notFound();
  const row = stmt(
    ctx.db,
    "SELECT a.* FROM accounts a JOIN memberships m ON m.account_id = a.id WHERE a.id = ? AND m.user_id = ?",
  ).get(accountId, userId) as AccountRow | undefined;
  if (!row) throw notFound();
  return row;
}
