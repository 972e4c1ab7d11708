// siteops_site: a WordPress site. Name and URL change in place (PATCH); WordPress and PHP versions through an
// upgrade pipeline (site-upgrade.ts) unless the `upgrade` block says "direct". A 404 on read means it was
// deleted out of band, and Terraform plans to create it again. Import takes the id, the URL or `name:NAME`.
import type { Site, SiteUpdateParams, UpgradePipelineCreateParams } from "../../src/index.js";
import { loadClient } from "../load-core.js";
import { path } from "../framework/diagnostics.js";
import type { Model } from "../framework/model.js";
import { useStateForUnknown } from "../framework/plan-modifiers.js";
import type { Resource } from "../framework/resource.js";
import { defineSchema } from "../framework/schema.js";
import { httpUrl, stringLengthBetween, stringMatches } from "../framework/validators.js";
import type { ProviderData } from "../provider-data.js";
import { onlyMatch, parseImportId } from "./site-lookup.js";
import {
  planVersionChange,
  reportPipelineFailure,
  runUpgradePipeline,
  upgradeBlock,
  upgradePolicy,
  VERSION_FIELDS,
  type UpgradeModel,
} from "./site-upgrade.js";

const majorMinor = stringMatches(/^\d+\.\d+$/, 'must be a major.minor version such as "6.4"');

export const siteSchema = defineSchema({
  description:
    "A WordPress site managed by Site Operations. All arguments can be changed in place; a change of `wp_version` or `php_version` runs an upgrade pipeline (see the `upgrade` block). Import by id, URL or `name:NAME`.",
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
  blocks: { upgrade: upgradeBlock },
});

export type SiteModel = Model<typeof siteSchema>;

/** The arguments a PATCH changes, in the API's field names (the same as the attributes'); the versions too
 * with the direct strategy. */
const UPDATABLE = ["name", "url"] as const;

/** The site as state; `upgrade` is configuration only (the policy), carried from the plan or prior state. */
export function siteModel(s: Site, upgrade: UpgradeModel | null = null): SiteModel {
  return { id: s.id, name: s.name, url: s.url, wp_version: s.wp_version, php_version: s.php_version, status: s.status, created_at: s.created_at, upgrade };
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
      return { state: siteModel(site, plan.upgrade), private: { updated_at: site.updated_at } };
    } catch (err) {
      ctx.data.errors.report(err, diags, { action: "create the site", schema: siteSchema });
      return { state: null };
    }
  },

  async read({ state }, diags, ctx) {
    try {
      const site = await ctx.data.sites.get(state.id, ctx.signal);
      return { state: siteModel(site, state.upgrade), private: { updated_at: site.updated_at } };
    } catch (err) {
      if (ctx.data.errors.isNotFound(err)) return { state: null };
      ctx.data.errors.report(err, diags, { action: `read site ${state.id}` });
      return { state: null };
    }
  },

  modifyPlan({ plan, prior }, diags) {
    if (prior) planVersionChange(plan, prior, diags);
  },

  async importState(id, diags, ctx) {
    const { key, wanted } = parseImportId(id);
    if (!wanted) {
      diags.error("Invalid import ID", 'Import a siteops_site by its id (site_...), its URL (https://...) or its name ("name:Blog").', path("id"));
      return {};
    }
    if (key === "id") return { id: wanted };
    try {
      const client = await ctx.data.client();
      const site = onlyMatch(
        await (await loadClient()).lookupSites(client, key, wanted, { signal: ctx.signal }),
        { noun: "site", plural: "sites", key, wanted },
        diags,
        path("id"),
        "Check the value, and that the provider's credentials belong to the site's account.",
      );
      return site ? { id: site.id } : {};
    } catch (err) {
      ctx.data.errors.report(err, diags, { action: `find the site with ${key} ${JSON.stringify(wanted)}` });
      return {};
    }
  },

  async update({ plan, prior }, diags, ctx) {
    const policy = upgradePolicy(plan.upgrade);
    const body: SiteUpdateParams = {};
    const fields = policy.strategy === "direct" ? [...UPDATABLE, ...VERSION_FIELDS] : UPDATABLE;
    for (const f of fields) {
      const v = plan[f];
      if (v !== null && v !== prior[f]) body[f] = v;
    }
    const targets: UpgradePipelineCreateParams = {};
    if (policy.strategy === "pipeline") {
      if (plan.wp_version !== null && plan.wp_version !== prior.wp_version) targets.to_wp_version = plan.wp_version;
      if (plan.php_version !== null && plan.php_version !== prior.php_version) targets.to_php_version = plan.php_version;
    }
    try {
      const client = await ctx.data.client();
      ctx.data.sites.forget(prior.id);
      let site = Object.keys(body).length ? await client.sites.update(prior.id, body, { signal: ctx.signal }) : undefined;
      if (Object.keys(targets).length) {
        const outcome = await runUpgradePipeline(client, prior.id, targets, policy, ctx.signal, diags);
        if (outcome.error !== undefined) reportPipelineFailure(outcome, prior.id, ctx.data, diags);
        site = undefined; // the pipeline changed the site (or not): its versions are read back either way
      }
      site ??= await client.sites.get(prior.id, { signal: ctx.signal });
      return { state: siteModel(site, plan.upgrade), private: { updated_at: site.updated_at } };
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
