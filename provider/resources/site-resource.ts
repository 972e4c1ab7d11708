// siteops_site: a WordPress site. Every attribute can change in place (PATCH); a 404 on read means it was
// deleted out of band, and Terraform plans to create it again.
import type { Site, SiteUpdateParams } from "../../src/index.js";
import { isNotFound, reportError } from "../api-errors.js";
import { Diagnostics, path } from "../framework/diagnostics.js";
import { useStateForUnknown } from "../framework/plan-modifiers.js";
import type { Resource } from "../framework/resource.js";
import type { Schema } from "../framework/schema.js";
import { httpUrl, stringLengthBetween, stringMatches } from "../framework/validators.js";
import type { ProviderData } from "../provider-data.js";
import type { ObjectValue } from "../values/cty.js";

const FIELDS = ["name", "url", "wp_version", "php_version"] as const;
const majorMinor = stringMatches(/^\d+\.\d+$/, "must be a major.minor version such as \"6.4\"");

export const siteSchema: Schema = {
  description: "A WordPress site managed by Site Operations. All arguments can be changed in place.",
  attributes: {
    id: { type: "string", computed: true, description: "Site identifier (`site_...`).", planModifiers: [useStateForUnknown()] },
    name: { type: "string", required: true, description: "Display name, 1 to 255 characters.", validators: [stringLengthBetween(1, 255)] },
    url: { type: "string", required: true, description: "Absolute http or https URL of the site; unique within the account.", validators: [httpUrl()] },
    wp_version: {
      type: "string",
      optional: true,
      computed: true,
      description: "WordPress version, `major.minor`. Defaults to the service's current version.",
      validators: [majorMinor],
      planModifiers: [useStateForUnknown()],
    },
    php_version: {
      type: "string",
      optional: true,
      computed: true,
      description: "PHP version, `major.minor`. Defaults to the service's current version.",
      validators: [majorMinor],
      planModifiers: [useStateForUnknown()],
    },
    status: { type: "string", computed: true, description: "Health status: `healthy`, `degraded`, `down`, `maintenance` or `unknown`." },
    created_at: { type: "string", computed: true, description: "Creation time, ISO 8601 UTC.", planModifiers: [useStateForUnknown()] },
  },
};

export function siteState(s: Site): ObjectValue {
  return { id: s.id, name: s.name, url: s.url, wp_version: s.wp_version, php_version: s.php_version, status: s.status, created_at: s.created_at };
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

export const siteResource: Resource<ProviderData> = {
  typeName: "siteops_site",
  schema: siteSchema,

  async create({ plan }, diags, ctx) {
    const { credentialSource } = ctx.data;
    try {
      const client = await ctx.data.client();
      const site = await client.sites.create(
        { name: str(plan.name)!, url: str(plan.url)!, ...(str(plan.wp_version) ? { wp_version: str(plan.wp_version) } : {}), ...(str(plan.php_version) ? { php_version: str(plan.php_version) } : {}) },
        { signal: ctx.signal },
      );
      return { state: siteState(site), private: { updated_at: site.updated_at } };
    } catch (err) {
      reportError(err, diags, { action: "create the site", credentialSource, fields: FIELDS });
      return { state: null };
    }
  },

  async read({ state }, diags, ctx) {
    try {
      const site = await ctx.data.sites.get(str(state.id)!, ctx.signal);
      return { state: siteState(site), private: { updated_at: site.updated_at } };
    } catch (err) {
      if (isNotFound(err)) return { state: null };
      reportError(err, diags, { action: `read site ${str(state.id)}`, credentialSource: ctx.data.credentialSource });
      return { state: null };
    }
  },

  async update({ plan, prior }, diags, ctx) {
    const body: SiteUpdateParams = {};
    for (const f of FIELDS) {
      const v = str(plan[f]);
      if (v !== undefined && v !== prior[f]) body[f] = v;
    }
    try {
      const client = await ctx.data.client();
      ctx.data.sites.forget(str(prior.id)!);
      const site = Object.keys(body).length ? await client.sites.update(str(prior.id)!, body, { signal: ctx.signal }) : await client.sites.get(str(prior.id)!, { signal: ctx.signal });
      return { state: siteState(site), private: { updated_at: site.updated_at } };
    } catch (err) {
      reportError(err, diags, { action: `update site ${str(prior.id)}`, credentialSource: ctx.data.credentialSource, fields: FIELDS });
      return { state: null };
    }
  },

  async delete({ prior }, diags, ctx) {
    try {
      const client = await ctx.data.client();
      ctx.data.sites.forget(str(prior.id)!);
      await client.sites.delete(str(prior.id)!, { signal: ctx.signal });
    } catch (err) {
      if (isNotFound(err)) return; // already gone: the goal of a delete
      reportError(err, diags, { action: `delete site ${str(prior.id)}`, credentialSource: ctx.data.credentialSource });
    }
  },

  importState(id: string, diags: Diagnostics) {
    if (!id.trim()) diags.error("Invalid import ID", "Import a site by its id, e.g. `terraform import siteops_site.blog site_abc123`.", path("id"));
    return { id: id.trim() };
  },
};
