// data "siteops_site": one site, by id, by its exact name, or by its url (compared by meaning, as import does:
// the core's lookupSites; the configured spelling stays in the result).
import { path } from "../framework/diagnostics.js";
import { loadClient } from "../load-core.js";
import type { DataSource } from "../framework/resource.js";
import { defineSchema } from "../framework/schema.js";
import type { ProviderData } from "../provider-data.js";
import { ResponseFields } from "../response-fields.js";
import { siteAttributes } from "../resources/site-resource.js";
import { onlyMatch } from "../resources/site-lookup.js";
import { sameUrl } from "../resources/same-meaning.js";
import { siteFields } from "../../wire/generated/fields.js";
import { computedAttributes } from "../wire-attributes.js";

const LOOKUPS = ["id", "name", "url"] as const;

export const siteDataSourceSchema = defineSchema({
  description: "Looks up one site by `id`, or by its exact `name` or `url`. Exactly one of the three must be set.",
  // The site's fields, computed (those the resource leaves out, left out here too), the three lookups also optional.
  attributes: computedAttributes(siteFields, {
    id: { optional: true },
    name: { optional: true, description: "Exact display name; it must match one site only." },
    url: {
      optional: true,
      description: "URL of the site, compared by meaning: `https://Blog.Example.org` finds the site stored as `https://blog.example.org/`.",
      semanticEquals: sameUrl,
    },
    updated_at: { leftOut: "siteops_site leaves it out (it changes with every write), and a data source describes a site as the resource does" },
  }),
});

export const siteDataSource: DataSource<ProviderData, typeof siteDataSourceSchema> = {
  typeName: "siteops_site",
  schema: siteDataSourceSchema,

  validateConfig(config, diags) {
    const set = LOOKUPS.filter((k) => config[k] !== null);
    if (set.length !== 1) {
      diags.error(
        "Invalid Attribute Combination",
        `Exactly one of these attributes must be configured: [id,name,url]${set.length ? `; got ${set.join(", ")}` : ""}.`,
        path(set[1] ?? "id"),
      );
    }
  },

  async read(config, diags, ctx) {
    const lookup = LOOKUPS.flatMap((key) => (config[key] === null ? [] : [{ key, wanted: config[key] }]))[0];
    if (!lookup) return null; // validateConfig already reported it
    const { key, wanted } = lookup;
    try {
      const client = await ctx.data.client();
      const core = await loadClient();
      const fields = new ResponseFields(core, diags);
      if (key === "id") return siteAttributes(await client.sites.get(wanted, { signal: ctx.signal }), `GET /api/v1/sites/${wanted}`, fields);
      const found = onlyMatch(
        await core.lookupSites(client, key, wanted, { signal: ctx.signal }),
        { noun: "site", plural: "sites", key, wanted },
        diags,
        path(key),
        "Check the value, and that the credentials belong to the site's account.",
      );
      return found ? siteAttributes(found, "GET /api/v1/sites", fields) : null;
    } catch (err) {
      if (ctx.data.errors.isNotFound(err)) {
        diags.error(`No site with id ${JSON.stringify(wanted)}`, "Check the id, and that the credentials belong to the site's account.", path("id"));
        return null;
      }
      ctx.data.errors.report(err, diags, { action: "read the site" });
      return null;
    }
  },
};
