// data "siteops_account": an account the user belongs to; the current one by default.
import { path } from "../framework/diagnostics.js";
import type { DataSource } from "../framework/resource.js";
import { defineSchema } from "../framework/schema.js";
import type { ProviderData } from "../provider-data.js";

export const accountDataSourceSchema = defineSchema({
  description: "An account the user belongs to: by `id`, or the account the provider acts in when `id` is omitted.",
  attributes: {
    id: { type: "string", optional: true, computed: true, description: "Account identifier (`acct_...`). Default: the current account." },
    name: { type: "string", computed: true, description: "Account name." },
    personal: { type: "bool", computed: true, description: "Whether this is the user's personal account." },
    owner_id: { type: "string", computed: true, description: "User id of the owner." },
    created_at: { type: "string", computed: true, description: "Creation time, ISO 8601 UTC." },
    updated_at: { type: "string", computed: true, description: "Last change, ISO 8601 UTC." },
  },
});

export const accountDataSource: DataSource<ProviderData, typeof accountDataSourceSchema> = {
  typeName: "siteops_account",
  schema: accountDataSourceSchema,

  async read(config, diags, ctx) {
    try {
      const client = await ctx.data.client();
      const id = config.id ?? (await client.me({ signal: ctx.signal })).current_account_id;
      const a = await client.accounts.get(id, { signal: ctx.signal });
      return {
        id: a.id,
        name: a.name,
        personal: !!a.personal,
        owner_id: a.owner_id ?? null,
        created_at: a.created_at ?? null,
        updated_at: a.updated_at ?? null,
      };
    } catch (err) {
      if (ctx.data.errors.isNotFound(err)) {
        diags.error(`No account with id ${JSON.stringify(config.id)}`, "The user the provider is authenticated as does not belong to it.", path("id"));
        return null;
      }
      ctx.data.errors.report(err, diags, { action: "read the account" });
      return null;
    }
  },
};
