// A generated fleet (the seed's `generate`): thousands of sites, and their snapshots, written straight into
// the tables in the caller's transaction. Each site ends as createSite leaves a site whose first check passed
// (status healthy, one passed health check, a `site.created` log entry, no vulnerabilities on the current
// versions); its snapshots as a finished scheduled capture. With `spread` (fleet-spread.ts) each site gets its
// own versions, the first check and the vulnerability records those give it (some dismissed by a person), and a
// status that sticks when it is degraded or down. Checks come due spread over one interval, so 10,000 sites do
// not all come due in the same tick.
import { createHash } from "node:crypto";
import type { EmulatorContext } from "../context.js";
import { SYSTEM_ORIGIN } from "../auth/auth-context.js";
import type { SeedGenerate } from "../options.js";
import { CURRENT_VERSIONS } from "../versions.js";
import { affecting } from "../catalogue/vulnerabilities.js";
import { insertFleetHealthCheck, insertFleetSite, insertFleetSnapshot } from "../store/fleet.js";
import type { SiteRow } from "../store/sites.js";
import { insertRecord, setRecordStatus } from "../store/vulnerability-records.js";
import { recordActivity } from "./activity-logs.js";
import { planSpread, type SpreadSite } from "./fleet-spread.js";
import { SITE_STATUS, checkOutcome } from "./health-checks.js";
import { siteTests } from "./site-health-tests.js";
import { recordOf } from "./vulnerability-records.js";

const DAY_MS = 24 * 3600 * 1000;
const HOUR_MS = 3600 * 1000;
const MIB = 1024 * 1024;
const NO_IGNORED = new Set<string>();

/** The number in a generated name or host: at least five digits, more when the fleet needs them. */
function padWidth(count: number): number {
  return Math.max(5, String(count).length);
}

/** `Site 00001` and `https://site-00001.fleet.test` for the i-th (1-based) of `count` generated sites. */
export function generatedSite(i: number, count: number): { name: string; url: string } {
  const n = String(i).padStart(padWidth(count), "0");
  return { name: `Site ${n}`, url: `https://site-${n}.fleet.test` };
}

/**
 * The items (JSON) of a generated site's first check: siteTests once for the current versions, then per site
 * only the one item that names the site's URL.
 */
function checksOf(): (url: string) => string {
  const template = "https://template.fleet.test";
  const items = siteTests({ url: template, ...CURRENT_VERSIONS } as SiteRow, true, NO_IGNORED);
  const naming = items.filter((t) => t.description.includes(template) || t.label.includes(template));
  if (naming.length !== 1 || naming[0] !== items[0]) {
    return (url) => JSON.stringify(siteTests({ url, ...CURRENT_VERSIONS } as SiteRow, true, NO_IGNORED));
  }
  const first = items[0]!;
  const rest = JSON.stringify(items.slice(1)).slice(1);
  return (url) => `[${JSON.stringify({ ...first, description: first.description.split(template).join(url) })},${rest}`;
}

/** A spread site's first check: its status, items (JSON) and response time, and the status the site takes from it. */
function spreadCheck(site: SpreadSite, url: string, i: number, ignored: ReadonlySet<string>) {
  const { checks, status } = checkOutcome({ url, ...site }, site.health ?? undefined, ignored);
  const responseMs = status === "failed" ? 10_000 : status === "warning" ? 600 + ((i * 37) % 1800) : 80 + (i % 370);
  return { status, checks: JSON.stringify(checks), responseMs, siteStatus: SITE_STATUS[status] };
}

/**
 * Writes a spread site's vulnerability records (those its versions have, as a created site's first scan finds
 * them), some dismissed by a person; returns the dismissed ones' catalogue keys, which its checks leave out.
 */
function spreadRecords(
  ctx: EmulatorContext,
  site: Pick<SiteRow, "id" | "account_id" | "wp_version" | "php_version">,
  dismissal: () => { reason: string; comment: string } | null,
) {
  const ignored = new Set<string>();
  const writes: (() => void)[] = [];
  for (const entry of affecting(site.wp_version, site.php_version)) {
    const record = recordOf(ctx, site, entry);
    const dismissed = dismissal();
    if (dismissed) ignored.add(entry.key);
    writes.push(() => {
      insertRecord(ctx.db, record);
      if (dismissed) setRecordStatus(ctx.db, record.id, { status: "ignored", ...dismissed, at: record.detected_at });
    });
  }
  return { ignored, write: () => writes.forEach((w) => w()) };
}

/** Writes the fleet into `accountId`; call inside a transaction. Returns the number of sites and snapshots. */
export function generateFleet(ctx: EmulatorContext, accountId: string, gen: SeedGenerate): { sites: number; snapshots: number } {
  const { db, clock } = ctx;
  const perSite = gen.snapshots_per_site ?? 0;
  const nowMs = clock.nowMs();
  const now = clock.iso(nowMs);
  // With snapshots the sites are as old as their history: one capture a day, the last one a day ago.
  const createdMs = nowMs - perSite * DAY_MS;
  const created = clock.iso(createdMs);
  const intervalMs = ctx.options.healthCheckInterval * 1000;
  const stepMs = ctx.options.stepSeconds * 1000;
  const checks = checksOf();
  // Snapshot k of every site has the same times: one capture a day, the last one a day ago.
  const snapCreated = Array.from({ length: perSite }, (_, k) => clock.iso(createdMs + k * DAY_MS + HOUR_MS));
  const snapCompleted = Array.from({ length: perSite }, (_, k) => clock.iso(createdMs + k * DAY_MS + HOUR_MS + 2 * stepMs));
  const spread = gen.spread ? planSpread(gen.sites, gen.spread) : undefined;
  let snapshots = 0;
  for (let i = 1; i <= gen.sites; i++) {
    const { name, url: generatedUrl } = generatedSite(i, gen.sites);
    const url = ctx.profile.storedUrl(generatedUrl);
    const id = ctx.newId("site");
    const picked = spread?.site(i);
    const common = { account_id: accountId, ...(picked ? { wp_version: picked.wp_version, php_version: picked.php_version } : CURRENT_VERSIONS) };
    const records = picked && spreadRecords(ctx, { ...common, id }, spread!.dismissal);
    const first = picked
      ? spreadCheck(picked, url, i, records!.ignored)
      : { status: "passed" as const, checks: checks(url), responseMs: 80 + (i % 370), siteStatus: "healthy" as const };
    insertFleetSite(db, {
      ...common,
      id,
      name,
      url,
      created_at: created,
      updated_at: now,
      status: first.siteStatus,
      forced_health: picked?.health ?? null,
      next_health_check_ms: nowMs + Math.max(1, Math.round((intervalMs * i) / gen.sites)),
    });
    insertFleetHealthCheck(db, {
      ...common,
      id: ctx.newId("hc"),
      site_id: id,
      status: first.status,
      response_time_ms: first.responseMs,
      checks: first.checks,
      checked_at: now,
    });
    records?.write();
    recordActivity(ctx, { accountId, siteId: id, action: "site.created", subjectType: "Site", subjectId: id }, SYSTEM_ORIGIN);
    for (let k = 0; k < perSite; k++) {
      const snapId = ctx.newId("snap");
      const size = (40 + ((i * 7 + k * 13) % 360)) * MIB + ((i * 7919 + k * 104_729) % MIB);
      insertFleetSnapshot(db, {
        ...common,
        id: snapId,
        site_id: id,
        size_bytes: size,
        checksum_sha256: createHash("sha256").update(`${snapId}:${size}`).digest("hex"),
        created_at: snapCreated[k]!,
        completed_at: snapCompleted[k]!,
      });
      snapshots++;
    }
  }
  if (gen.sites > 0) ctx.scheduler.poke(nowMs + Math.max(1, Math.round(intervalMs / gen.sites)));
  return { sites: gen.sites, snapshots };
}
