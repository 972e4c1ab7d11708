// Sites: the rules of creating, changing and deleting one, and what follows from each (its first
// health check and vulnerability scan, a rescan when its versions change, its files going with it).
// Validation here gives the same Rails-style 422 as schema errors.
import type { EmulatorContext } from "../context.js";
import type { Origin } from "../auth/auth-context.js";
import { FieldErrorCollector, notFound } from "../errors.js";
import { CONTROL_CHARACTERS, hasControlCharacters } from "../../wire/common.js";
import { USERINFO, hasUserinfo, siteUrlKeyOf } from "../site-urls.js";
import { refusedHost } from "../../common/addresses.js";
import { CURRENT_VERSIONS, UPGRADABLE, VERSION_PATTERN, type SiteVersions } from "../versions.js";
import type { SiteInput, SiteJson, SitePatch } from "../../wire/sites.js";
import { siteFields } from "../../wire/generated/fields.js";
import type { PageSource } from "../store/db.js";
import { searchSitesPage, type SiteQuery } from "../store/site-search.js";
export { SITE_SORTS, type SiteQuery, type SiteSort } from "../store/site-search.js";
import {
  deleteSiteRow,
  findSite,
  findSiteOf,
  insertSite,
  siteIdWithUrlKey,
  siteJson,
  siteToJson,
  sitesPage,
  updateSiteRow,
  type SiteRow,
} from "../store/sites.js";
import { activePipelineId } from "../store/upgrade-pipelines.js";
import { pickColumns, updateFields } from "../store/wire-columns.js";
import { diff, recordActivity } from "./activity-logs.js";
import { firstHealthCheck } from "./health-checks.js";
import { detectVulnerabilities, firstVulnerabilityScan, fixVulnerabilities } from "./vulnerability-records.js";
import { removeSiteData } from "./snapshot-files.js";

const VERSION_RE = new RegExp(VERSION_PATTERN);
/** What a PATCH may change (wire/generated/fields.ts). */
const PATCH_FIELDS = updateFields(siteFields);

/** The site of this account, or 404 (another account's site does not exist for the caller). */
export function loadSite(ctx: EmulatorContext, accountId: string, siteId: string): SiteRow {
  const row = findSiteOf(ctx.db, accountId, siteId);
  if (!row) throw notFound();
  return row;
}

/** The site as the API shows it (cached: the hot path), or 404. */
export function getSite(ctx: EmulatorContext, accountId: string, siteId: string): SiteJson {
  const json = siteJson(ctx.db, accountId, siteId);
  if (!json) throw notFound();
  return json;
}

export function listSites(ctx: EmulatorContext, accountId: string): PageSource<SiteJson> {
  return sitesPage(ctx.db, accountId);
}

/** The account's sites narrowed by status and text and sorted, for the console (store/site-search.ts). */
export function searchSites(ctx: EmulatorContext, accountId: string, query: SiteQuery): PageSource<SiteJson> {
  return searchSitesPage(ctx.db, accountId, query);
}

/** Validates the given fields (all of name and url on create: `exceptSiteId` null); throws one 422. */
function checkFields(ctx: EmulatorContext, accountId: string, input: SitePatch, exceptSiteId: string | null): void {
  const errors = new FieldErrorCollector();
  if (exceptSiteId === null) {
    if (input.name == null) errors.add("name", "can't be blank");
    if (input.url == null) errors.add("url", "can't be blank");
  }
  if (input.name != null) {
    if (typeof input.name !== "string" || input.name.trim() === "") errors.add("name", "can't be blank");
    else if (input.name.length > 255) errors.add("name", "is too long (maximum is 255 characters)");
    else if (hasControlCharacters(input.name)) errors.add("name", CONTROL_CHARACTERS);
  }
  if (input.url != null) {
    if (typeof input.url !== "string" || input.url.trim() === "") errors.add("url", "can't be blank");
    else if (input.url.length > 2048) errors.add("url", "is too long (maximum is 2048 characters)");
    else if (hasControlCharacters(input.url, "url")) errors.add("url", CONTROL_CHARACTERS);
    else {
      const key = siteUrlKeyOf(input.url); // null: not an absolute http(s) URL with a host
      if (key === null) errors.add("url", "is invalid");
      else if (hasUserinfo(input.url)) errors.add("url", USERINFO);
      // A rollout's HTTP gate GETs the site (issue 48): never a metadata service, as webhooks never are.
      else if (refusedHost(new URL(input.url).hostname)) errors.add("url", "must not be a link-local, metadata or unspecified address");
      else if (siteIdWithUrlKey(ctx.db, accountId, key, exceptSiteId)) errors.add("url", "has already been taken");
    }
  }
  for (const { field } of UPGRADABLE) {
    const v = input[field];
    if (v === undefined) continue;
    if (typeof v !== "string" || v === "") errors.add(field, "can't be blank");
    else if (!VERSION_RE.test(v)) errors.add(field, "is invalid");
  }
  errors.throwIfAny();
}

/** Creates a site, logs and announces it, then runs its first health check and vulnerability scan. */
export function createSite(ctx: EmulatorContext, accountId: string, input: SiteInput, origin: Origin): SiteJson {
  checkFields(ctx, accountId, input, null);
  const nowMs = ctx.clock.nowMs();
  const nextCheck = nowMs + ctx.options.healthCheckInterval * 1000;
  // The rows written here are known as written: no read-backs (this is the path `terraform apply` runs per site).
  const site = ctx.db.transaction(() => {
    const created = insertSite(ctx.db, {
      ...CURRENT_VERSIONS,
      ...input,
      id: ctx.newId("site"),
      account_id: accountId,
      url: ctx.profile.storedUrl(input.url),
      next_health_check_ms: nextCheck,
      created_at: ctx.clock.iso(nowMs),
    });
    const { id } = created;
    recordActivity(ctx, { accountId, siteId: id, action: "site.created", subjectType: "Site", subjectId: id }, origin);
    ctx.events.emit(accountId, "site.created", () => siteToJson(created));
    const checked = firstHealthCheck(ctx, created, nowMs);
    firstVulnerabilityScan(ctx, checked);
    ctx.scheduler.poke(nextCheck);
    return checked;
  })();
  return siteToJson(site);
}

/** Applies a PATCH; a change of version re-runs the vulnerability scan. Returns the site as stored. */
export function updateSite(ctx: EmulatorContext, accountId: string, siteId: string, patch: SitePatch, origin: Origin): SiteJson {
  const before = loadSite(ctx, accountId, siteId);
  const fields: Record<string, unknown> = {};
  for (const f of PATCH_FIELDS) if (patch[f] !== undefined) fields[f] = patch[f];
  checkFields(ctx, accountId, fields as SitePatch, siteId);
  if (typeof fields.url === "string") fields.url = ctx.profile.storedUrl(fields.url);
  const after = { ...before, ...fields } as SiteRow;
  const changes = diff(before, after, PATCH_FIELDS);
  if (!changes) return siteToJson(before);
  refuseVersionChangeDuringPipeline(ctx, siteId, changes);

  ctx.db.transaction(() => {
    updateSiteRow(ctx.db, siteId, { ...pickColumns(after, PATCH_FIELDS), updated_at: ctx.clock.iso() });
    recordActivity(ctx, { accountId, siteId, action: "site.updated", subjectType: "Site", subjectId: siteId, changes }, origin);
    ctx.events.emit(accountId, "site.updated", () => ({ ...siteToJson(loadSite(ctx, accountId, siteId)), changes }));
    if (UPGRADABLE.some((v) => changes[v.field])) detectVulnerabilities(ctx, siteId);
  })();
  return siteToJson(loadSite(ctx, accountId, siteId));
}

/**
 * While a pipeline is active (awaiting approval included) the site's versions belong to it: a direct PATCH of
 * a version would change the site under a pipeline that was approved, or is waiting to be, for something else.
 */
function refuseVersionChangeDuringPipeline(ctx: EmulatorContext, siteId: string, changes: Record<string, unknown>): void {
  const changed = UPGRADABLE.filter((v) => changes[v.field] !== undefined);
  const active = changed.length ? activePipelineId(ctx.db, siteId) : undefined;
  if (!active) return;
  const errors = new FieldErrorCollector();
  for (const v of changed) errors.add(v.field, `can't be changed while upgrade pipeline ${active} is active; approve it or let it end first`);
  errors.throwIfAny();
}

/** A pipeline succeeded: the site takes its new versions, logged, announced and its records fixed. */
export function applyUpgrade(ctx: EmulatorContext, siteId: string, to: SiteVersions): void {
  const site = findSite(ctx.db, siteId);
  if (!site) return;
  const changes: Record<string, [string, string]> = {};
  for (const { field } of UPGRADABLE) if (site[field] !== to[field]) changes[field] = [site[field], to[field]];
  updateSiteRow(ctx.db, site.id, { ...to, updated_at: ctx.clock.iso() });
  recordActivity(ctx, { accountId: site.account_id, siteId: site.id, action: "site.updated", subjectType: "Site", subjectId: site.id, changes });
  ctx.events.emit(site.account_id, "site.updated", { ...siteToJson(findSite(ctx.db, site.id)!), changes });
  fixVulnerabilities(ctx, site.id);
}

/** Deletes a site; its children go by ON DELETE CASCADE, its uploaded files first. Returns the site as it was. */
export function deleteSite(ctx: EmulatorContext, accountId: string, siteId: string, origin: Origin): SiteJson {
  const json = siteToJson(loadSite(ctx, accountId, siteId));
  removeSiteData(ctx, siteId);
  ctx.db.transaction(() => {
    deleteSiteRow(ctx.db, siteId);
    recordActivity(ctx, { accountId, siteId, action: "site.deleted", subjectType: "Site", subjectId: siteId }, origin);
    ctx.events.emit(accountId, "site.deleted", json);
  })();
  return json;
}
