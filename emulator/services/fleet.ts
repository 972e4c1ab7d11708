// A generated fleet (the seed's `generate`): thousands of sites, and their snapshots, written straight into
// the tables in the caller's transaction. Each site ends as createSite leaves a site whose first check passed
// (status healthy, one passed health check, a `site.created` log entry, no vulnerabilities on the current
// versions); its snapshots as a finished scheduled capture. Checks come due spread over one interval, so
// 10,000 sites do not all come due in the same tick.
import { createHash } from "node:crypto";
import type { EmulatorContext } from "../context.js";
import { SYSTEM_ORIGIN } from "../auth/auth-context.js";
import type { SeedGenerate } from "../options.js";
import { CURRENT_VERSIONS } from "../versions.js";
import { insertFleetHealthCheck, insertFleetSite, insertFleetSnapshot } from "../store/fleet.js";
import type { SiteRow } from "../store/sites.js";
import { recordActivity } from "./activity-logs.js";
import { siteTests } from "./site-health-tests.js";

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
  let snapshots = 0;
  for (let i = 1; i <= gen.sites; i++) {
    const { name, url: generatedUrl } = generatedSite(i, gen.sites);
    const url = ctx.profile.storedUrl(generatedUrl);
    const id = ctx.newId("site");
    const common = { account_id: accountId, ...CURRENT_VERSIONS };
    insertFleetSite(db, {
      ...common,
      id,
      name,
      url,
      created_at: created,
      updated_at: now,
      next_health_check_ms: nowMs + Math.max(1, Math.round((intervalMs * i) / gen.sites)),
    });
    insertFleetHealthCheck(db, { ...common, id: ctx.newId("hc"), site_id: id, response_time_ms: 80 + (i % 370), checks: checks(url), checked_at: now });
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
