// Users and accounts as the caller sees them: themselves (me), the account's members, the accounts
// they belong to. Another account's records do not exist for the caller (404).
import type { EmulatorContext } from "../context.js";
import { notFound } from "../errors.js";
import type { AccountJson, UserJson } from "../../wire/users.js";
import type { PageSource } from "../store/db.js";
import { accountsPage, findAccountOf, findMember, membersPage } from "../store/users.js";

/** The user as a member of this account (with the role there), or 404. */
export function getMember(ctx: EmulatorContext, accountId: string, userId: string): UserJson {
  const user = findMember(ctx.db, accountId, userId);
  if (!user) throw notFound();
  return user;
}

export function getMe(ctx: EmulatorContext, accountId: string, userId: string): UserJson & { current_account_id: string } {
  return { ...getMember(ctx, accountId, userId), current_account_id: accountId };
}

export function listMembers(ctx: EmulatorContext, accountId: string): PageSource<UserJson> {
  return membersPage(ctx.db, accountId);
}

export function listAccounts(ctx: EmulatorContext, userId: string): PageSource<AccountJson> {
  return accountsPage(ctx.db, userId);
}

/** An account the user belongs to, or 404. */
export function getAccount(ctx: EmulatorContext, userId: string, accountId: string): AccountJson {
  const account = findAccountOf(ctx.db, userId, accountId);
  if (!account) throw notFound();
  return account;
}
