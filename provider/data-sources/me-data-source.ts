// data "siteops_me": the user the provider's credentials belong to.
import type { DataSource } from "../framework/resource.js";
import { loadClient } from "../load-core.js";
import { ResponseFields } from "../response-fields.js";
import { defineSchema } from "../framework/schema.js";
import type { ProviderData } from "../provider-data.js";

export const meDataSourceSchema = defineSchema({
  description: "The user the provider is authenticated as, and the account it acts in.",
  attributes: {
    id: { type: "string", computed: true, description: "User identifier (`usr_...`)." },
    email: { type: "string", computed: true, description: "Email address." },
    name: { type: "string", computed: true, description: "Display name." },
    role: { type: "string", computed: true, description: "Role in the current account: `owner`, `admin` or `member`." },
    two_factor_enabled: { type: "bool", computed: true, description: "Whether the user has two-factor authentication." },
    current_account_id: { type: "string", computed: true, description: "The account requests act in (`acct_...`)." },
    created_at: { type: "string", computed: true, description: "Creation time, ISO 8601 UTC." },
  },
});

export const meDataSource: DataSource<ProviderData, typeof meDataSourceSchema> = {
  typeName: "siteops_me",
  schema: meDataSourceSchema,

  async read(_config, diags, ctx) {
    try {
      const me = await (await ctx.data.client()).me({ signal: ctx.signal });
      // The core checks the id; the rest is read here: what identifies the user is needed, the rest informs.
      const fields = new ResponseFields(await loadClient(), diags);
      const a = { record: me, endpoint: "GET /api/v1/me", noun: "user" };
      const email = fields.take(a, "email", "string");
      const current_account_id = fields.take(a, "current_account_id", "string");
      const result = {
        id: me.id,
        email,
        name: fields.informs(a, "name", "string"),
        role: fields.informs(a, "role", "string"),
        two_factor_enabled: fields.informs(a, "two_factor_enabled", "boolean"),
        current_account_id,
        created_at: fields.informs(a, "created_at", "string"),
      };
      return email && current_account_id ? { ...result, email, current_account_id } : null;
    } catch (err) {
      ctx.data.errors.report(err, diags, { action: "read the current user" });
      return null;
    }
  },
};
