// The users, memberships and accounts tables.
import type { Role } from "../auth/auth-context.js";
import type { AccountJson, UserJson } from "../../wire/users.js";
import { isId } from "../ids.js";
import { stmt, type Database, type PageSource } from "./db.js";

export interface UserRow {
  seq: number;
  id: string;
  email: string;
  name: string;
  password_hash: string;
  otp_secret: string | null;
  otp_last_step: number | null;
  created_at: string;
}

/** A user as a member of one account (with the role there). */
interface MemberRow {
  id: string;
  email: string;
  name: string;
  otp_secret: string | null;
  created_at: string;
  role: Role;
}

interface AccountRow {
  seq: number;
  id: string;
  name: string;
  personal: number;
  owner_id: string | null;
  created_at: string;
  updated_at: string;
}

function memberToJson(row: MemberRow): UserJson {
  return { id: row.id, email: row.email, name: row.name, role: row.role, two_factor_enabled: row.otp_secret != null, created_at: row.created_at };
}

function accountToJson(row: AccountRow): AccountJson {
  return { id: row.id, name: row.name, personal: row.personal === 1, owner_id: row.owner_id, created_at: row.created_at, updated_at: row.updated_at };
}

const MEMBER_COLUMNS = "u.id, u.email, u.name, u.otp_secret, u.created_at, m.role";

export function findMember(db: Database, accountId: string, userId: string): UserJson | undefined {
  const row = stmt(db, `SELECT ${MEMBER_COLUMNS} FROM users u JOIN memberships m ON m.user_id = u.id WHERE m.account_id = ? AND u.id = ?`).get(
    accountId,
    userId,
  ) as MemberRow | undefined;
  return row && memberToJson(row);
}

/** The account's members, in the order they joined it. */
export function membersPage(db: Database, accountId: string): PageSource<UserJson> {
  return {
    count: () => (stmt(db, "SELECT COUNT(*) AS n FROM memberships WHERE account_id = ?").get(accountId) as { n: number }).n,
    rows: (limit, offset) =>
      (
        stmt(
          db,
          `SELECT ${MEMBER_COLUMNS} FROM users u JOIN memberships m ON m.user_id = u.id
                  WHERE m.account_id = ? ORDER BY m.rowid LIMIT ? OFFSET ?`,
        ).all(accountId, limit, offset) as MemberRow[]
      ).map(memberToJson),
  };
}

/** An account the user belongs to. */
export function findAccountOf(db: Database, userId: string, accountId: string): AccountJson | undefined {
  if (!isId("acct", accountId)) return undefined;
  const row = stmt(db, "SELECT a.* FROM accounts a JOIN memberships m ON m.account_id = a.id WHERE a.id = ? AND m.user_id = ?").get(accountId, userId) as
    | AccountRow
    | undefined;
  return row && accountToJson(row);
}

/** The accounts the user belongs to, oldest first. */
export function accountsPage(db: Database, userId: string): PageSource<AccountJson> {
  return {
    count: () => (stmt(db, "SELECT COUNT(*) AS n FROM memberships WHERE user_id = ?").get(userId) as { n: number }).n,
    rows: (limit, offset) =>
      (
        stmt(db, "SELECT a.* FROM accounts a JOIN memberships m ON m.account_id = a.id WHERE m.user_id = ? ORDER BY a.seq LIMIT ? OFFSET ?").all(
          userId,
          limit,
          offset,
        ) as AccountRow[]
      ).map(accountToJson),
  };
}

export function roleIn(db: Database, accountId: string, userId: string): Role | undefined {
  return (stmt(db, "SELECT role FROM memberships WHERE account_id = ? AND user_id = ?").get(accountId, userId) as { role: Role } | undefined)?.role;
}

/** The user's oldest membership (where a login lands). */
export function firstMembership(db: Database, userId: string): { accountId: string; role: Role } | undefined {
  const m = stmt(db, "SELECT m.account_id, m.role FROM memberships m JOIN accounts a ON a.id = m.account_id WHERE m.user_id = ? ORDER BY a.seq LIMIT 1").get(
    userId,
  ) as { account_id: string; role: Role } | undefined;
  return m && { accountId: m.account_id, role: m.role };
}

/** The user's name and role in an account (role undefined when not a member). */
export function userInAccount(db: Database, accountId: string, userId: string): { name: string; role: Role | null } | undefined {
  const row = stmt(db, "SELECT u.name AS user_name, m.role FROM users u LEFT JOIN memberships m ON m.user_id = u.id AND m.account_id = ? WHERE u.id = ?").get(
    accountId,
    userId,
  ) as { user_name: string; role: Role | null } | undefined;
  return row && { name: row.user_name, role: row.role };
}

export function findUserByEmail(db: Database, email: string): UserRow | undefined {
  return stmt(db, "SELECT * FROM users WHERE email = ?").get(email) as UserRow | undefined;
}

/** Spends a TOTP step (and every earlier one); false when it was already spent. */
export function claimOtpStep(db: Database, userId: string, step: number): boolean {
  return stmt(db, "UPDATE users SET otp_last_step = ? WHERE id = ? AND (otp_last_step IS NULL OR otp_last_step < ?)").run(step, userId, step).changes > 0;
}

export function anyAccount(db: Database): boolean {
  return Boolean(stmt(db, "SELECT 1 FROM accounts LIMIT 1").get());
}

export function insertAccount(db: Database, a: { id: string; name: string; at: string }): void {
  stmt(db, "INSERT INTO accounts (id, name, personal, owner_id, created_at, updated_at) VALUES (?, ?, 0, NULL, ?, ?)").run(a.id, a.name, a.at, a.at);
}

export function insertUser(db: Database, u: { id: string; email: string; name: string; passwordHash: string; otpSecret: string | null; at: string }): void {
  stmt(db, "INSERT INTO users (id, email, name, password_hash, otp_secret, created_at) VALUES (?, ?, ?, ?, ?, ?)").run(
    u.id,
    u.email,
    u.name,
    u.passwordHash,
    u.otpSecret,
    u.at,
  );
}

/** Adds (or changes) a membership; the first owner becomes the account's owner. */
export function putMembership(db: Database, accountId: string, userId: string, role: Role, at: string): void {
  stmt(db, "INSERT OR REPLACE INTO memberships (account_id, user_id, role, created_at) VALUES (?, ?, ?, ?)").run(accountId, userId, role, at);
  if (role === "owner") stmt(db, "UPDATE accounts SET owner_id = COALESCE(owner_id, ?) WHERE id = ?").run(userId, accountId);
}

/** The account the user owns first (the demo account on a restart). */
export function ownedAccount(db: Database, email: string): { userId: string; accountId: string } | undefined {
  const row = stmt(
    db,
    `SELECT u.id AS user_id, m.account_id FROM users u JOIN memberships m ON m.user_id = u.id
      WHERE u.email = ? AND m.role = 'owner' ORDER BY m.created_at LIMIT 1`,
  ).get(email) as { user_id: string; account_id: string } | undefined;
  return row && { userId: row.user_id, accountId: row.account_id };
}
