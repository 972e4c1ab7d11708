// siteops_site: a WordPress site. Name and URL change in place (PATCH); WordPress and PHP versions through an
// upgrade pipeline (site-upgrade.ts) unless the `upgrade` block says "direct". A 404 on read means it was
// deleted out of band, and Terraform plans to create it again. Import takes the id, the URL or `name:NAME`.
// Its schema is site-schema.ts (URL and versions compare by meaning: same-meaning.ts); deletion_protection guards
// every delete (site-protection.ts).
import type { Site, SiteCreateParams, SiteUpdateParams, UpgradePipelineCreateParams } from "../../src/index.js";
import { siteFields } from "../../wire/generated/fields.js";
import { loadClient } from "../load-core.js";
import { path } from "../framework/diagnostics.js";
import { ResponseFields } from "../response-fields.js";
import { changes as changed, stateFromAnswer } from "../wire-attributes.js";
import type { Resource } from "../framework/resource.js";
import type { Schema } from "../framework/schema.js";
import type { ProviderData } from "../provider-data.js";
import { adoptedHere, deleteKeyed, exists, keyedCreate, tookOver } from "./keyed-create.js";
import { onlyMatch, parseImportId } from "./site-lookup.js";
import { isProtected, refuseDestroy, refuseReplacement, withProtection } from "./site-protection.js";
import { siteSchema, type SiteModel } from "./site-schema.js";
import { planVersionChange, reportPipelineFailure, runUpgradePipeline, upgradeTargets, VERSION_FIELDS } from "./site-upgrade.js";
import { upgradePolicy, type UpgradeModel } from "./site-upgrade-policy.js";

type Fields = typeof siteFields;
type Taken<W extends "create" | "update"> = { [K in keyof Fields]: Fields[K][W] extends false ? never : K }[keyof Fields] & keyof SiteModel;
const attributes = siteSchema.attributes as Schema["attributes"];
/** The site's fields that are attributes (all but those site-schema.ts leaves out), and those create and update take. */
const FIELD_ATTRIBUTES = Object.keys(siteFields).filter((name) => name in attributes) as (keyof SiteAttributes)[];
const CREATABLE = FIELD_ATTRIBUTES.filter((name) => siteFields[name].create !== false) as Taken<"create">[];
/** The arguments a PATCH changes, in the API's field names (the same as the attributes'); the versions too with
 * the direct strategy. */
const UPDATABLE = FIELD_ATTRIBUTES.filter((name) => siteFields[name].update && !(VERSION_FIELDS as readonly string[]).includes(name)) as Exclude<
  Taken<"update">,
  (typeof VERSION_FIELDS)[number]
>[];

/** Whether the plan changes the field for the API (wire-attributes.ts). */
const changes = (field: Taken<"update">, next: string | null, was: string | null): Promise<boolean> => changed(attributes[field]!, next, was);

/** The attributes every answer about a site fills, in the resource and the data sources alike. */
export type SiteAttributes = Omit<SiteModel, "deletion_protection" | "upgrade">;

/**
 * A site answer (of `endpoint`) as attributes, each field checked by its wire type (the core checks those it
 * needs); a field that only informs (created_at) takes the state's (`createdAt`) without it, or null, with a warning.
 */
export function siteAttributes(s: Site, endpoint: string, fields: ResponseFields, createdAt: string | null = null): SiteAttributes {
  return stateFromAnswer(siteFields, FIELD_ATTRIBUTES, { record: s, endpoint, noun: "site" }, fields, { created_at: createdAt }) as SiteAttributes;
}

/** The resource's state and private state from a site answer; `upgrade` and `deletion_protection` are
 * configuration only (the policy, the guard), carried from the plan or prior state. */
function siteResult(site: Site, endpoint: string, fields: ResponseFields, kept: { upgrade: UpgradeModel | null; protect: boolean; createdAt: string | null }) {
  const state: SiteModel = { ...siteAttributes(site, endpoint, fields, kept.createdAt), upgrade: kept.upgrade, deletion_protection: kept.protect };
  return { state, private: withProtection({ updated_at: typeof site.updated_at === "string" ? site.updated_at : null }, kept.protect) };
}

/**
 * Which site holds `url` (a create's 422 "has already been taken"), and how to take it over: never adopted
 * without the user, since nothing proves it is this configuration's (keyed-create.ts adopts only what its key
 * made). Undefined when the lookup fails: the 422 stands alone.
 */
async function takenUrlHint(data: ProviderData, url: string, signal: AbortSignal): Promise<string | undefined> {
  try {
    const found = await (await loadClient()).lookupSites(await data.client(), "url", url, { signal });
    if (found.length !== 1) return undefined;
    const site = found[0]!;
    return `Site ${site.id} (${JSON.stringify(site.name)}) has this URL. If this resource should manage it, import it (terraform import <address> ${site.id}, or an import block with id = "${site.id}"); otherwise change url.`;
  } catch {
    return undefined;
  }
}

/** Whether the service says the site does not exist (404); false when it exists or the read fails. */
async function isGone(data: ProviderData, id: string, signal: AbortSignal): Promise<boolean> {
  try {
    return !(await exists(data.sites.get(id, signal), data.errors));
  } catch {
    return false;
  }
}

export const siteResource: Resource<ProviderData, typeof siteSchema, "id"> = {
  typeName: "siteops_site",
  schema: siteSchema,
  identity: "id",

  async create({ plan }, diags, ctx) {
    try {
      const client = await ctx.data.client();
      const body = Object.fromEntries(CREATABLE.flatMap((name) => (plan[name] === null ? [] : [[name, plan[name]]]))) as unknown as SiteCreateParams;
      // A write: it runs on after Ctrl-C (writeSignal), and a rerun after a lost answer adopts what it created.
      const { answer: site } = await keyedCreate(
        "siteops_site",
        body,
        (idempotencyKey) => client.sites.create(body, { signal: ctx.writeSignal, idempotencyKey }),
        (id) => exists(client.sites.get(id, { signal: ctx.writeSignal }), ctx.data.errors),
      );
      const fields = new ResponseFields(await loadClient(), diags, "the configured value");
      return siteResult(site, "POST /api/v1/sites", fields, { upgrade: plan.upgrade, protect: isProtected(plan.deletion_protection), createdAt: null });
    } catch (err) {
      const hint = ctx.data.errors.isTaken(err, "url") ? await takenUrlHint(ctx.data, plan.url, ctx.signal) : undefined;
      ctx.data.errors.report(err, diags, {
        action: "create the site",
        schema: siteSchema,
        ...(hint ? { fieldHints: { url: hint } } : {}),
        ifUnexpected: "The service may have created the site all the same: look for it (siteops sites list) and import it rather than apply again.",
        ifCancelled:
          "If the service created it, the next terraform apply of this configuration finds it by its request's idempotency key and records it, rather than creating a second one.",
      });
      return { state: null };
    }
  },

  async read({ state }, diags, ctx) {
    try {
      const site = await ctx.data.sites.get(state.id, ctx.signal);
      const fields = new ResponseFields(await loadClient(), diags, "the value in state");
      // An imported site (no deletion_protection yet) is protected.
      return siteResult(site, ctx.data.sites.endpointOf(site), fields, {
        upgrade: state.upgrade,
        protect: isProtected(state.deletion_protection),
        createdAt: state.created_at,
      });
    } catch (err) {
      if (ctx.data.errors.isNotFound(err)) return { state: null };
      ctx.data.errors.report(err, diags, { action: `read site ${state.id}` });
      return { state: null };
    }
  },

  modifyPlan(req, diags) {
    const { plan, prior } = req;
    if (prior) planVersionChange(plan, prior, diags);
    refuseReplacement(req, plan.name, diags);
    // deletion_protection and the upgrade block never reach the API: when only they change, status stays.
    if (prior && [...UPDATABLE, ...VERSION_FIELDS].every((f) => plan[f] === prior[f])) plan.status = prior.status;
  },

  async planDestroy({ prior }, diags, ctx) {
    // A protected site already gone has nothing to protect: deleted outside Terraform and then taken out of the
    // configuration (Terraform plans such a destroy without refreshing it first). Refused when unsure.
    if (isProtected(prior.deletion_protection) && ctx.data && prior.id !== null && (await isGone(ctx.data, prior.id, ctx.signal))) return;
    refuseDestroy(prior, diags);
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

  async update({ plan, prior, private: priv }, diags, ctx) {
    const policy = upgradePolicy(plan.upgrade);
    const protect = isProtected(plan.deletion_protection);
    const body: SiteUpdateParams = {};
    for (const f of policy.strategy === "direct" ? [...UPDATABLE, ...VERSION_FIELDS] : UPDATABLE)
      if (await changes(f, plan[f], prior[f])) body[f] = plan[f] as never;
    const targets: UpgradePipelineCreateParams = policy.strategy === "pipeline" ? await upgradeTargets(plan, (f) => changes(f, plan[f], prior[f])) : {};
    if (Object.keys(body).length === 0 && Object.keys(targets).length === 0) {
      // Nothing for the API (deletion_protection, the upgrade block, a spelling that means the same): no request.
      const kept = Object.fromEntries(FIELD_ATTRIBUTES.map((name) => [name, plan[name] ?? prior[name]]));
      const state: SiteModel = { ...prior, ...kept, upgrade: plan.upgrade, deletion_protection: protect };
      return { state, private: withProtection(priv, protect) };
    }
    try {
      const client = await ctx.data.client();
      ctx.data.sites.forget(prior.id);
      const patched = Object.keys(body).length ? await client.sites.update(prior.id, body, { signal: ctx.writeSignal }) : undefined;
      let site = patched;
      let endpoint = `PATCH /api/v1/sites/${prior.id}`;
      if (Object.keys(targets).length) {
        const outcome = await runUpgradePipeline(client, prior.id, targets, policy, ctx.signal, diags);
        if (outcome.error !== undefined) reportPipelineFailure(outcome, prior.id, ctx.data, diags);
        site = undefined; // the pipeline changed the site (or not): its versions are read back either way
        if (ctx.signal.aborted) {
          // Stopped while following the pipeline, which goes on (the next apply follows it): the state keeps what
          // the PATCH answered, or the prior state, with the site's versions as they were.
          if (!patched) return { state: null };
          const fields = new ResponseFields(await loadClient(), diags, "the configured value");
          return siteResult(patched, endpoint, fields, { upgrade: plan.upgrade, protect, createdAt: plan.created_at ?? prior.created_at });
        }
      }
      if (!site) {
        site = await client.sites.get(prior.id, { signal: ctx.signal });
        endpoint = `GET /api/v1/sites/${prior.id}`;
      }
      const fields = new ResponseFields(await loadClient(), diags, "the configured value");
      return siteResult(site, endpoint, fields, { upgrade: plan.upgrade, protect, createdAt: plan.created_at ?? prior.created_at });
    } catch (err) {
      ctx.data.errors.report(err, diags, { action: `update site ${prior.id}`, schema: siteSchema });
      return { state: null };
    }
  },

  async delete({ prior }, diags, ctx) {
    // The last guard: whatever was planned (a tainted site's replacement is planned without the provider). A site
    // already gone is what a delete wants.
    if (isProtected(prior.deletion_protection)) {
      if (!(await isGone(ctx.data, prior.id, ctx.signal))) refuseDestroy(prior, diags);
      return;
    }
    if (adoptedHere(prior.id)) return tookOver(diags, "site", prior.id);
    try {
      const client = await ctx.data.client();
      ctx.data.sites.forget(prior.id);
      // Already gone (a 404) is the goal of a delete.
      await deleteKeyed(prior.id, () => client.sites.delete(prior.id, { signal: ctx.writeSignal }), ctx.data.errors);
    } catch (err) {
      ctx.data.errors.report(err, diags, { action: `delete site ${prior.id}` });
    }
  },

  stateUpgraders: {
    // Version 0 had no deletion_protection: such sites read as protected, and plan no change for it.
    0: (state) => ({ ...state, deletion_protection: true }),
  },
};
