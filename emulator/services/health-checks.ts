// Health checks: a check's status drives the site's status (passed -> healthy, warning -> degraded,
// failed -> down), except that a site is `maintenance` while a pipeline applies.
//
// Without a forced status the result follows from the site itself: `warning` when any test is
// critical (PHP past end of life, an open critical vulnerability), else `passed`. A status forced
// through the control API sticks to the site (sites.forced_health) until the next forced call.
import { randomInt } from "node:crypto";
import type { EmulatorContext } from "../context.js";
import type { HealthCheckItem, HealthCheckJson, HealthStatus } from "../../wire/health-checks.js";
import type { SiteStatus } from "../../wire/sites.js";
import { notFound } from "../errors.js";
import type { PageSource } from "../store/db.js";
import { findHealthCheck, healthChecksPage, insertHealthCheck, latestHealthStatus } from "../store/health-checks.js";
import { allSiteIds, findSite, siteToJson, updateSiteRow, type SiteRow } from "../store/sites.js";
import { isApplying } from "../store/upgrade-pipelines.js";
import { ignoredKeys } from "../store/vulnerability-records.js";
import { recordActivity } from "./activity-logs.js";
import { siteTests } from "./site-health-tests.js";
import { versionsOf } from "../versions.js";

function responseTime(status: HealthStatus): number {
  if (status === "failed") return 10_000; // the monitor's timeout
  return status === "warning" ? randomInt(600, 2400) : randomInt(80, 450);
}

/** The site status a check's status gives. */
export const SITE_STATUS: Record<HealthStatus, SiteStatus> = { passed: "healthy", warning: "degraded", failed: "down" };

/**
 * What a check of `site` finds: its items, and its status (`pinned` when one is forced on the site, else
 * `warning` when an item is critical). Unreachable (`failed`) sites have only the failed request.
 */
export function checkOutcome(
  site: Pick<SiteRow, "url" | "wp_version" | "php_version">,
  pinned: HealthStatus | undefined,
  ignored: ReadonlySet<string>,
): { checks: HealthCheckItem[]; status: HealthStatus } {
  const checks = siteTests(site, pinned !== "failed", ignored);
  return { checks, status: pinned ?? (checks.some((t) => t.status === "critical") ? "warning" : "passed") };
}

/**
 * Sets the site's status from its latest check (or `maintenance` while a pipeline applies), and
 * announces a change. Pipelines call this when they enter and leave `applying`.
 */
export function refreshSiteStatus(ctx: EmulatorContext, siteId: string): void {
  const site = findSite(ctx.db, siteId);
  if (!site) return;
  const latest = latestHealthStatus(ctx.db, siteId);
  setSiteStatus(ctx, site, isApplying(ctx.db, siteId) ? "maintenance" : latest ? SITE_STATUS[latest] : "unknown");
}

/** Gives the site (`site`: its row as stored) the status `next`, and announces a change. Returns the row after. */
function setSiteStatus(ctx: EmulatorContext, site: SiteRow, next: SiteStatus): SiteRow {
  if (next === site.status) return site;
  const now = ctx.clock.iso();
  updateSiteRow(ctx.db, site.id, { status: next, updated_at: now });
  // The first status of a new site is part of its creation, not news worth a log entry.
  if (site.status !== "unknown") {
    recordActivity(ctx, {
      accountId: site.account_id,
      siteId: site.id,
      action: "site.status_changed",
      subjectType: "Site",
      subjectId: site.id,
      changes: { status: [site.status, next] },
    });
  }
  const after = { ...site, status: next, updated_at: now };
  ctx.events.emit(site.account_id, "site.status_changed", siteToJson(after));
  return after;
}

/** Runs one check of the site now; `forced` decides its status (and sticks to the site). */
export function runHealthCheck(ctx: EmulatorContext, siteId: string, forced?: HealthStatus): HealthCheckJson {
  const site = findSite(ctx.db, siteId);
  if (!site) throw new Error(`runHealthCheck: no site ${siteId}`);
  return ctx.db.transaction(() => check(ctx, site, ctx.clock.nowMs(), forced, ignoredKeys(ctx.db, siteId), isApplying(ctx.db, siteId)).json)();
}

const NO_IGNORED: ReadonlySet<string> = new Set();

/**
 * The check run when a site is created, at its creation time and inside the creating transaction (`site`: the
 * row just inserted; a new site has no ignored findings and no pipeline). Returns the site's row after it.
 */
export function firstHealthCheck(ctx: EmulatorContext, site: SiteRow, nowMs: number): SiteRow {
  return check(ctx, site, nowMs, undefined, NO_IGNORED, false).site;
}

/** Records a check of `site` (its row as stored) at nowMs and sets the site's status from it; call in a transaction. */
function check(
  ctx: EmulatorContext,
  site: SiteRow,
  nowMs: number,
  forced: HealthStatus | undefined,
  ignored: ReadonlySet<string>,
  applying: boolean,
): { json: HealthCheckJson; site: SiteRow } {
  const pinned = forced ?? (site.forced_health as HealthStatus | null) ?? undefined;
  const { checks, status } = checkOutcome(site, pinned, ignored);
  const nextMs = nowMs + ctx.options.healthCheckInterval * 1000;
  const json = insertHealthCheck(ctx.db, {
    id: ctx.newId("hc"),
    site_id: site.id,
    account_id: site.account_id,
    status,
    http_status: status === "failed" ? 503 : 200,
    response_time_ms: responseTime(status),
    ...versionsOf(site),
    checks,
    checked_at: ctx.clock.iso(nowMs),
  });
  if (forced) updateSiteRow(ctx.db, site.id, { forced_health: forced, next_health_check_ms: nextMs });
  else if (site.next_health_check_ms !== nextMs) updateSiteRow(ctx.db, site.id, { next_health_check_ms: nextMs }); // a new site's row has it
  ctx.scheduler.poke(nextMs);
  ctx.events.emit(site.account_id, "health_check.completed", json);
  // The check just inserted is the site's latest; the row's status is unchanged by the update above.
  return { json, site: setSiteStatus(ctx, site, applying ? "maintenance" : SITE_STATUS[status]) };
}

/** Control API: check one site or every site, optionally forcing the status. */
export function runHealthChecks(ctx: EmulatorContext, opts: { siteId?: string; status?: HealthStatus }): HealthCheckJson[] {
  if (opts.siteId && !findSite(ctx.db, opts.siteId)) throw notFound();
  const ids = opts.siteId ? [opts.siteId] : allSiteIds(ctx.db);
  return ids.map((id) => runHealthCheck(ctx, id, opts.status));
}

export function listHealthChecks(ctx: EmulatorContext, siteId: string): PageSource<HealthCheckJson> {
  return healthChecksPage(ctx.db, siteId);
}

export function getHealthCheck(ctx: EmulatorContext, siteId: string, id: string): HealthCheckJson {
  const check = findHealthCheck(ctx.db, siteId, id);
  if (!check) throw notFound();
  return check;
}
