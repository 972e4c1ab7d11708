// Health checks: what the service's monitor would find when it visits a site, modelled after the
// WordPress Site Health screen. A check's status drives the site's status (passed -> healthy,
// warning -> degraded, failed -> down), except that a site is `maintenance` while a pipeline applies.
//
// Without a forced status the result follows from the site itself: `warning` when any test is
// critical (PHP past end of life, an open critical vulnerability), else `passed`. A status forced
// through the control API sticks to the site (sites.forced_health) until the next forced call.
import { randomInt } from "node:crypto";
import { Type, type Static } from "typebox";
import type { EmulatorContext } from "../context.js";
import { recordActivity } from "../activity.js";
import { newId } from "../ids.js";
import { parseJson, stmt } from "../store/db.js";
import { CURRENT_WP_VERSION, compareVersions } from "../versions.js";
import { affecting } from "../catalogue/vulnerabilities.js";
import { serializeSite, setSiteColumns, type SiteRow, type SiteStatus } from "./sites.js";

export type HealthStatus = "passed" | "warning" | "failed";
type TestStatus = "good" | "recommended" | "critical";

export const HealthCheckSchema = Type.Object({
  id: Type.String(),
  site_id: Type.String(),
  status: Type.Union([Type.Literal("passed"), Type.Literal("warning"), Type.Literal("failed")]),
  http_status: Type.Union([Type.Integer(), Type.Null()]),
  response_time_ms: Type.Union([Type.Integer(), Type.Null()]),
  wp_version: Type.String(),
  php_version: Type.String(),
  checks: Type.Array(
    Type.Object({
      test: Type.String(),
      label: Type.String(),
      status: Type.Union([Type.Literal("good"), Type.Literal("recommended"), Type.Literal("critical")]),
      description: Type.String(),
    }),
  ),
  checked_at: Type.String(),
});
export type HealthCheckJson = Static<typeof HealthCheckSchema>;
type CheckItem = HealthCheckJson["checks"][number];

export interface HealthCheckRow {
  seq: number;
  id: string;
  site_id: string;
  account_id: string;
  status: HealthStatus;
  http_status: number | null;
  response_time_ms: number | null;
  wp_version: string;
  php_version: string;
  checks: string;
  checked_at: string;
}


/** PHP branches that no longer receive security fixes. */
const PHP_END_OF_LIFE = "8.1";

export function serializeHealthCheck(row: HealthCheckRow): HealthCheckJson {
  return {
    id: row.id,
    site_id: row.site_id,
    status: row.status,
    http_status: row.http_status,
    response_time_ms: row.response_time_ms,
    wp_version: row.wp_version,
    php_version: row.php_version,
    checks: parseJson<CheckItem[]>(row.checks, []),
    checked_at: row.checked_at,
  };
}


function item(test: string, label: string, status: TestStatus, description: string): CheckItem {
  return { test, label, status, description };
}

function siteTests(ctx: EmulatorContext, site: SiteRow, reachable: boolean): CheckItem[] {
  if (!reachable) {
    return [
      item("http_requests", "The site could not be reached", "critical",
        `Requests to ${site.url} failed or returned a server error; the site is not serving pages.`),
    ];
  }
  const tests: CheckItem[] = [
    item("http_requests", "The site responds to requests", "good", `${site.url} answered with a successful status.`),
    item("https_status", "Your website is using an active HTTPS connection", site.url.startsWith("https:") ? "good" : "recommended",
      site.url.startsWith("https:") ? "Visitors are served over HTTPS." : "The site is served over plain HTTP; enable HTTPS."),
  ];
  tests.push(
    compareVersions(site.wp_version, CURRENT_WP_VERSION) >= 0
      ? item("wordpress_version", "Your version of WordPress is up to date", "good", `WordPress ${site.wp_version} is the latest version.`)
      : item("wordpress_version", "A new version of WordPress is available", "recommended",
          `WordPress ${site.wp_version} is installed; ${CURRENT_WP_VERSION} is available.`),
  );
  tests.push(
    compareVersions(site.php_version, PHP_END_OF_LIFE) < 0
      ? item("php_version", "Your site is running an outdated version of PHP", "critical",
          `PHP ${site.php_version} no longer receives security updates; upgrade to ${PHP_END_OF_LIFE} or newer.`)
      : item("php_version", "Your site is running a supported version of PHP", "good", `PHP ${site.php_version} receives security updates.`),
  );
  // From the catalogue (not the records table), so the first check of a new site already sees them.
  const ignored = new Set(
    (stmt(ctx.db, "SELECT catalogue_key FROM vulnerability_records WHERE site_id = ? AND status = 'ignored'").all(site.id) as {
      catalogue_key: string;
    }[]).map((r) => r.catalogue_key),
  );
  const open = affecting(site.wp_version, site.php_version).filter((e) => !ignored.has(e.key));
  const critical = open.filter((e) => e.severity === "critical").length;
  tests.push(
    open.length === 0
      ? item("vulnerabilities", "No known vulnerabilities", "good", "No open vulnerability affects the installed software.")
      : item("vulnerabilities", `${open.length} known ${open.length === 1 ? "vulnerability" : "vulnerabilities"}`, critical ? "critical" : "recommended",
          `${open.length} open ${open.length === 1 ? "vulnerability affects" : "vulnerabilities affect"} the installed software` +
            (critical ? `, ${critical} of them critical.` : ".")),
    item("rest_availability", "The REST API is available", "good", "The REST API answered the loopback request."),
    item("background_updates", "Background updates are working", "good", "Automatic minor and security updates can be installed."),
  );
  return tests;
}

function responseTime(status: HealthStatus): number {
  if (status === "failed") return 10_000; // the monitor's timeout
  return status === "warning" ? randomInt(600, 2400) : randomInt(80, 450);
}

const SITE_STATUS: Record<HealthStatus, SiteStatus> = { passed: "healthy", warning: "degraded", failed: "down" };

function isApplying(ctx: EmulatorContext, siteId: string): boolean {
  return Boolean(stmt(ctx.db, "SELECT 1 FROM upgrade_pipelines WHERE site_id = ? AND status = 'applying' LIMIT 1").get(siteId));
}

/**
 * Sets the site's status from its latest check (or `maintenance` while a pipeline applies), and
 * announces a change. Pipelines call this when they enter and leave `applying`.
 */
export function refreshSiteStatus(ctx: EmulatorContext, siteId: string): void {
  const site = stmt(ctx.db, "SELECT * FROM sites WHERE id = ?").get(siteId) as SiteRow | undefined;
  if (!site) return;
  const latest = stmt(ctx.db, "SELECT status FROM health_checks WHERE site_id = ? ORDER BY seq DESC LIMIT 1").get(siteId) as
    | { status: HealthStatus }
    | undefined;
  const next: SiteStatus = isApplying(ctx, siteId) ? "maintenance" : latest ? SITE_STATUS[latest.status] : "unknown";
  if (next === site.status) return;
  const now = ctx.clock.iso();
  setSiteColumns(ctx, siteId, { status: next, updated_at: now });
  // The first status of a new site is part of its creation, not news worth a log entry.
  if (site.status !== "unknown") {
    recordActivity(ctx, {
      accountId: site.account_id,
      siteId,
      action: "site.status_changed",
      subjectType: "Site",
      subjectId: siteId,
      changes: { status: [site.status, next] },
    });
  }
  ctx.events.emit(site.account_id, "site.status_changed", serializeSite({ ...site, status: next, updated_at: now }));
}

/** Runs one check of the site now; `forced` decides its status (and sticks to the site). */
export function runHealthCheck(ctx: EmulatorContext, siteId: string, forced?: HealthStatus): HealthCheckJson {
  const site = stmt(ctx.db, "SELECT * FROM sites WHERE id = ?").get(siteId) as SiteRow | undefined;
  if (!site) throw new Error(`runHealthCheck: no site ${siteId}`);
  const nowMs = ctx.clock.nowMs();
  const checkedAt = ctx.clock.iso(nowMs);
  const pinned = forced ?? (site.forced_health as HealthStatus | null) ?? undefined;
  const tests = siteTests(ctx, site, pinned !== "failed");
  const status: HealthStatus = pinned ?? (tests.some((t) => t.status === "critical") ? "warning" : "passed");
  const id = newId("hc");
  const nextMs = nowMs + ctx.options.healthCheckInterval * 1000;

  ctx.db.transaction(() => {
    stmt(
      ctx.db,
      `INSERT INTO health_checks (id, site_id, account_id, status, http_status, response_time_ms, wp_version, php_version, checks, checked_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(id, siteId, site.account_id, status, status === "failed" ? 503 : 200, responseTime(status), site.wp_version, site.php_version,
      JSON.stringify(tests), checkedAt);
    if (forced) stmt(ctx.db, "UPDATE sites SET forced_health = ? WHERE id = ?").run(forced, siteId);
    stmt(ctx.db, "UPDATE sites SET next_health_check_ms = ? WHERE id = ?").run(nextMs, siteId);
  })();
  ctx.scheduler.poke(nextMs);

  const json = serializeHealthCheck(stmt(ctx.db, "SELECT * FROM health_checks WHERE id = ?").get(id) as HealthCheckRow);
  ctx.events.emit(site.account_id, "health_check.completed", json);
  refreshSiteStatus(ctx, siteId);
  return json;
}

/** Control API: check one site or every site, optionally forcing the status. */
export function runHealthChecks(ctx: EmulatorContext, opts: { siteId?: string; status?: HealthStatus }): HealthCheckJson[] {
  const ids = opts.siteId
    ? [opts.siteId]
    : (stmt(ctx.db, "SELECT id FROM sites ORDER BY seq").all() as { id: string }[]).map((r) => r.id);
  return ids.map((id) => runHealthCheck(ctx, id, opts.status));
}
