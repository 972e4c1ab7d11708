// data "siteops_account": an account the user belongs to; the current one by default.
import { path } from "../framework/diagnostics.js";
import type { DataSource } from "../framework/resource.js";
import { loadClient } from "../load-core.js";
import { ResponseFields } from "../response-fields.js";
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
      const fields = new ResponseFields(await loadClient(), diags);
      let id = config.id;
      if (id === null) {
        const me = await client.me({ signal: ctx.signal });
        id = fields.take({ record: me, endpoint: "GET /api/v1/me", noun: "user" }, "current_account_id", "string", { attribute: "id" }) ?? null;
        if (id === null) return null;
      }
      const account = await client.accounts.get(id, { signal: ctx.signal });
      // The core checks the id; the name is needed, the rest informs.
      const a = { record: account, endpoint: `GET /api/v1/accounts/${id}`, noun: "account" };
      const name = fields.take(a, "name", "string");
      const result = {
        id: account.id,
        name,
        personal: fields.informs(a, "personal", "boolean"),
        owner_id: fields.informs(a, "owner_id", "string"),
        created_at: fields.informs(a, "created_at", "string"),
        updated_at: fields.informs(a, "updated_at", "string"),
      };
      return name ? { ...result, name } : null;
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
