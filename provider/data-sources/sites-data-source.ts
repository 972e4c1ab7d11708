// data "siteops_sites": every site of the account, oldest first. The listing is read page by page (100 asked
// for, the API's largest; the core follows pages until the server says the last, whatever size it sends) and
// each site is turned into its state object at once, so the API's site objects are never all held together.
// The API has no server-side filter for the listing: `status` is applied here, page by page.
import type { DataSource } from "../framework/resource.js";
import { defineSchema } from "../framework/schema.js";
import { oneOf } from "../framework/validators.js";
import type { ProviderData } from "../provider-data.js";
import { loadClient } from "../load-core.js";
import { ResponseFields } from "../response-fields.js";
import { siteFields } from "../../wire/generated/fields.js";
import { andList, objectType } from "../wire-attributes.js";
import { siteAttributes, type SiteAttributes } from "../resources/site-resource.js";
import { siteDataSourceSchema } from "./site-data-source.js";

/** Each element: the attributes of data "siteops_site", by name and type. */
const SITE = objectType(siteDataSourceSchema.attributes);

export const sitesDataSourceSchema = defineSchema({
  description: "Lists the sites of the account, oldest first, optionally only those with a given status.",
  attributes: {
    status: {
      type: "string",
      optional: true,
      description: "Only sites with this health status.",
      validators: [oneOf(...siteFields.status.values)],
    },
    sites: {
      type: ["list", SITE],
      computed: true,
      description: `The sites, each with ${andList(Object.keys(SITE[1]).map((name) => `\`${name}\``))}.`,
    },
  },
});

export const sitesDataSource: DataSource<ProviderData, typeof sitesDataSourceSchema> = {
  typeName: "siteops_sites",
  schema: sitesDataSourceSchema,

  async read(config, diags, ctx) {
    try {
      const client = await ctx.data.client();
      const fields = new ResponseFields(await loadClient(), diags);
      const sites: SiteAttributes[] = [];
      for await (const site of client.sites.list({ per_page: 100 }, { signal: ctx.signal })) {
        if (config.status === null || config.status === site.status) sites.push(siteAttributes(site, "GET /api/v1/sites", fields));
      }
      return { status: config.status, sites };
    } catch (err) {
      ctx.data.errors.report(err, diags, { action: "list sites" });
      return null;
    }
  },
};
