// A site's attributes in the provider's three schemas (the siteops_site resource, data "siteops_site" and each
// element of data "siteops_sites") all come from the site's field table (provider/wire-attributes.ts), and
// siteAttributes() fills them for the data sources: this fails when one of them has an attribute the others lack,
// rather than a data source dropping it without a word (the model encoder keeps only what its schema declares).
// test/wire/coverage.test.ts holds each of them to the wire's fields.
import { describe, expect, it } from "vitest";
import * as core from "../../src/index.js";
import { siteDataSourceSchema } from "../../provider/data-sources/site-data-source.js";
import { sitesDataSourceSchema } from "../../provider/data-sources/sites-data-source.js";
import { Diagnostics } from "../../provider/framework/diagnostics.js";
import { ResponseFields } from "../../provider/response-fields.js";
import { siteAttributes } from "../../provider/resources/site-resource.js";
import { siteSchema } from "../../provider/resources/site-schema.js";
import type { CtyType } from "../../provider/values/cty.js";
import { siteFields } from "../../wire/generated/fields.js";
import { recordOf } from "../support/wire-records.js";

/** What the resource has that a data source must not: configuration of Terraform's, not the service's record. */
const RESOURCE_ONLY: Record<string, string> = {
  deletion_protection: "a guard kept in Terraform state; the service has no such field",
  upgrade: "a policy for applying version changes, a block of the configuration",
};

const typesOf = (attrs: Record<string, { type: CtyType }>) => Object.fromEntries(Object.entries(attrs).map(([n, a]) => [n, a.type]));

describe("a site's attributes, alike in the resource and the data sources", () => {
  const dataSource = typesOf(siteDataSourceSchema.attributes);

  it("data siteops_site has the resource's attributes, with their types, less those of Terraform's own", () => {
    const resource = Object.fromEntries(Object.entries(typesOf(siteSchema.attributes)).filter(([n]) => !(n in RESOURCE_ONLY)));
    expect(dataSource).toEqual(resource);
    for (const name of Object.keys(RESOURCE_ONLY)) expect(name in siteSchema.attributes || name in (siteSchema.blocks ?? {}), name).toBe(true);
  });

  it("each element of data siteops_sites has the same attributes, and its description names them all", () => {
    const sites = sitesDataSourceSchema.attributes.sites;
    expect(sites.type[1][1]).toEqual(dataSource);
    for (const name of Object.keys(dataSource)) expect(sites.description).toContain(`\`${name}\``);
  });

  it("siteAttributes() fills exactly those attributes", () => {
    const site = recordOf<core.Site>(siteFields, { id: "site_1", name: "Blog", url: "https://blog.example.com", created_at: "2026-01-01T00:00:00Z" });
    const diags = new Diagnostics();
    expect(Object.keys(siteAttributes(site, "GET /api/v1/sites", new ResponseFields(core, diags))).sort()).toEqual(Object.keys(dataSource).sort());
    expect(diags.items).toEqual([]);
  });
});
