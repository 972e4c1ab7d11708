// `siteops me`, `siteops accounts list`, `siteops users list`: who you are and who else is in the account.

import type { Account, User } from "../../../src/index.js";
import { EXIT } from "../../exit-codes.js";
import { formatAgo } from "../../output/format.js";
import { printObject, printStream } from "../../output/printer.js";
import type { Column } from "../../output/table.js";
import { defineCommand } from "../../runner.js";
import type { LeafSpec } from "../../spec.js";
import { jsonFieldsOf } from "../../wire-fields.js";
import { accountFields, userFields } from "../../../wire/generated/fields.js";

const USER_FIELDS = jsonFieldsOf(userFields);

export const me = defineCommand({
  name: "me",
  summary: "show the signed-in user and the current account",
  flags: [],
  jsonFields: [...USER_FIELDS, "current_account_id"],
  async run(ctx) {
    const user = await (await ctx.client()).me({ signal: ctx.signal });
    printObject(ctx, user, [
      ["id", user.id],
      ["email", user.email],
      ["name", user.name],
      ["role", user.role],
      ["two-factor", user.two_factor_enabled ? "enabled" : "disabled"],
      ["account", user.current_account_id],
    ]);
    return EXIT.OK;
  },
});

const accountsList: LeafSpec = {
  name: "list",
  aliases: ["ls"],
  summary: "list the accounts you belong to (use one with --account ID)",
  flags: [],
  jsonFields: jsonFieldsOf(accountFields),
  async run(ctx) {
    const columns: Column<Account>[] = [
      { header: "ID", value: (a) => a.id },
      { header: "NAME", value: (a) => a.name },
      { header: "PERSONAL", value: (a) => (a.personal ? "yes" : "no") },
      { header: "OWNER", value: (a) => a.owner_id },
      { header: "CREATED", value: (a) => a.created_at, display: (a) => formatAgo(a.created_at) },
    ];
    await printStream(ctx, (await ctx.client()).accounts.list({ per_page: 100 }, { signal: ctx.signal }), columns, { empty: "no accounts" });
    return EXIT.OK;
  },
};

const usersList: LeafSpec = {
  name: "list",
  aliases: ["ls"],
  summary: "list the users of the current account",
  flags: [],
  jsonFields: USER_FIELDS,
  async run(ctx) {
    const columns: Column<User>[] = [
      { header: "ID", value: (u) => u.id },
      { header: "EMAIL", value: (u) => u.email },
      { header: "NAME", value: (u) => u.name },
      { header: "ROLE", value: (u) => u.role },
      { header: "2FA", value: (u) => (u.two_factor_enabled ? "yes" : "no") },
      { header: "CREATED", value: (u) => u.created_at, display: (u) => formatAgo(u.created_at) },
    ];
    await printStream(ctx, (await ctx.client()).users.list({ per_page: 100 }, { signal: ctx.signal }), columns, { empty: "no users" });
    return EXIT.OK;
  },
};

export const accounts = defineCommand({ name: "accounts", summary: "list your accounts", subcommands: [accountsList] });
export const users = defineCommand({ name: "users", summary: "list the account's users", subcommands: [usersList] });
