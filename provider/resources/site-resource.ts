// siteops_site: a WordPress site. Every attribute can change in place (PATCH); a 404 on read means it was
// deleted out of band, and Terraform plans to create it again.
import type { Site, SiteUpdateParams } from "../../src/index.js";
import type { Model } from "../framework/model.js";
import { useStateForUnknown } from "../framework/plan-modifiers.js";
import type { Resource } from "../framework/resource.js";
import { defineSchema } from "../framework/schema.js";
import { httpUrl, stringLengthBetween, stringMatches } from "../framework/validators.js";
import type { ProviderData } from "../provider-data.js";

const majorMinor = stringMatches(/^\d+\.\d+$/, 'must be a major.minor version such as "6.4"');

export const siteSchema = defineSchema({
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
});

export type SiteModel = Model<typeof siteSchema>;

/** The arguments a PATCH can change, in the API's field names (the same as the attributes'). */
const UPDATABLE = ["name", "url", "wp_version", "php_version"] as const;

export function siteModel(s: Site): SiteModel {
  return { id: s.id, name: s.name, url: s.url, wp_version: s.wp_version, php_version: s.php_version, status: s.status, created_at: s.created_at };
}

export const siteResource: Resource<ProviderData, typeof siteSchema, "id"> = {
  typeName: "siteops_site",
  schema: siteSchema,
  identity: "id",

  async create({ plan }, diags, ctx) {
    try {
      const client = await ctx.data.client();
      const { name, url, wp_version, php_version } = plan;
      const site = await client.sites.create(
        { name, url, ...(wp_version ? { wp_version } : {}), ...(php_version ? { php_version } : {}) },
        { signal: ctx.signal },
      );
      return { state: siteModel(site), private: { updated_at: site.updated_at } };
    } catch (err) {
      ctx.data.errors.report(err, diags, { action: "create the site", schema: siteSchema });
      return { state: null };
    }
  },

  async read({ state }, diags, ctx) {
    try {
      const site = await ctx.data.sites.get(state.id, ctx.signal);
      return { state: siteModel(site), private: { updated_at: site.updated_at } };
    } catch (err) {
      if (ctx.data.errors.isNotFound(err)) return { state: null };
      ctx.data.errors.report(err, diags, { action: `read site ${state.id}` });
      return { state: null };
    }
  },

  async update({ plan, prior }, diags, ctx) {
    const body: SiteUpdateParams = {};
    for (const f of UPDATABLE) {
      const v = plan[f];
      if (v !== null && v !== prior[f]) body[f] = v;
    }
    try {
      const client = await ctx.data.client();
      ctx.data.sites.forget(prior.id);
      const site = Object.keys(body).length
        ? await client.sites.update(prior.id, body, { signal: ctx.signal })
        : await client.sites.get(prior.id, { signal: ctx.signal });
      return { state: siteModel(site), private: { updated_at: site.updated_at } };
    } catch (err) {
      ctx.data.errors.report(err, diags, { action: `update site ${prior.id}`, schema: siteSchema });
      return { state: null };
    }
  },

  async delete({ prior }, diags, ctx) {
    try {
      const client = await ctx.data.client();
      ctx.data.sites.forget(prior.id);
      await client.sites.delete(prior.id, { signal: ctx.signal });
    } catch (err) {
      if (ctx.data.errors.isNotFound(err)) return; // already gone: the goal of a delete
      ctx.data.errors.report(err, diags, { action: `delete site ${prior.id}` });
    }
  },
};
