// data "siteops_me": the user the provider's credentials belong to.
import type { DataSource } from "../framework/resource.js";
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
      return {
        id: me.id,
        email: me.email,
        name: me.name ?? null,
        role: me.role ?? null,
        two_factor_enabled: !!me.two_factor_enabled,
        current_account_id: me.current_account_id,
        created_at: me.created_at ?? null,
      };
    } catch (err) {
      ctx.data.errors.report(err, diags, { action: "read the current user" });
      return null;
    }
  },
};
