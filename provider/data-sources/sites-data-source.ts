// data "siteops_sites": every site of the account, oldest first.
import { reportError } from "../api-errors.js";
import type { DataSource } from "../framework/resource.js";
import type { Schema } from "../framework/schema.js";
import { oneOf } from "../framework/validators.js";
import type { ProviderData } from "../provider-data.js";
import { siteState } from "../resources/site-resource.js";
import type { CtyType, ObjectValue } from "../values/cty.js";

const siteObject: CtyType = ["object", { id: "string", name: "string", url: "string", wp_version: "string", php_version: "string", status: "string", created_at: "string" }];

export const sitesDataSourceSchema: Schema = {
  description: "Lists the sites of the account, oldest first, optionally only those with a given status.",
  attributes: {
    status: {
      type: "string",
      optional: true,
      description: "Only sites with this health status.",
      validators: [oneOf("healthy", "degraded", "down", "maintenance", "unknown")],
    },
    sites: {
      type: ["list", siteObject],
      computed: true,
      description: "The sites, each with `id`, `name`, `url`, `wp_version`, `php_version`, `status` and `created_at`.",
    },
  },
};

export const sitesDataSource: DataSource<ProviderData> = {
  typeName: "siteops_sites",
  schema: sitesDataSourceSchema,

  async read(config, diags, ctx) {
    try {
      const client = await ctx.data.client();
      const sites: ObjectValue[] = [];
      for await (const site of client.sites.list({ per_page: 100 }, { signal: ctx.signal })) {
        if (config.status === null || config.status === site.status) sites.push(siteState(site));
      }
      return { status: config.status ?? null, sites };
    } catch (err) {
      reportError(err, diags, { action: "list sites", credentialSource: ctx.data.credentialSource });
      return null;
    }
  },
};
