// Sites: the service layer shared by the routes, the seed and the other resources (which load a site
// before touching its children). Validation here gives the same Rails-style 422 as schema errors.
import { Type, type Static } from "typebox";
import type { EmulatorContext } from "../context.js";
import type { Actor } from "../auth/auth-context.js";
import { FieldErrorCollector, notFound } from "../errors.js";
import { isId, newId } from "../ids.js";
import { recordActivity, diff } from "../activity.js";
import { stmt } from "../store/db.js";
import { CURRENT_PHP_VERSION, CURRENT_WP_VERSION, VERSION_PATTERN } from "../versions.js";
import { runHealthCheck } from "./health-checks.js";
import { detectVulnerabilities } from "./vulnerabilities.js";
import { removeSiteData } from "./snapshots.js";

export const SITE_STATUSES = ["healthy", "degraded", "down", "maintenance", "unknown"] as const;
export type SiteStatus = (typeof SITE_STATUSES)[number];

export const SiteSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    url: Type.String(),
    status: Type.Union([
      Type.Literal("healthy"),
      Type.Literal("degraded"),
      Type.Literal("down"),
      Type.Literal("maintenance"),
      Type.Literal("unknown"),
    ]),
    wp_version: Type.String(),
    php_version: Type.String(),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { additionalProperties: false },
);

export type SiteJson = Static<typeof SiteSchema>;

export interface SiteRow {
  seq: number;
  id: string;
  account_id: string;
  name: string;
  url: string;
  status: SiteStatus;
  wp_version: string;
  php_version: string;
  forced_health: string | null;
  next_health_check_ms: number | null;
  created_at: string;
  updated_at: string;
}

export interface Origin {
  actor: Actor;
  ip?: string | null;
  requestId?: string | null;
}

export interface SiteInput {
  name: string;
  url: string;
  wp_version?: string;
  php_version?: string;
}

export type SitePatch = Partial<SiteInput>;

const VERSION_RE = new RegExp(VERSION_PATTERN);

export function serializeSite(row: SiteRow): SiteJson {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    status: row.status,
    wp_version: row.wp_version,
    php_version: row.php_version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}


/** The site of this account, or 404 (another account's site does not exist for the caller). */
export function loadSite(ctx: EmulatorContext, accountId: string, siteId: string): SiteRow {
  if (!isId("site", siteId)) throw notFound();
  const row = stmt(ctx.db, "SELECT * FROM sites WHERE id = ? AND account_id = ?").get(siteId, accountId) as SiteRow | undefined;
  if (!row) throw notFound();
  return row;
}

// Sites as the API shows them, by id: GET /sites/:id is the hottest path, and a SQLite read with its
// string conversions costs more than the rest of the request. Only getSiteJson fills it (never inside
// a transaction that could roll back); every write of a public column goes through setSiteColumns or
// forgetSite, and reset clears it. One emulator process owns its database file.
const siteCache = new WeakMap<object, Map<string, { accountId: string; json: SiteJson }>>();
const SITE_CACHE_MAX = 10_000;

export function forgetSites(ctx: EmulatorContext): void {
  siteCache.delete(ctx.db);
}

function forgetSite(ctx: EmulatorContext, siteId: string): void {
  siteCache.get(ctx.db)?.delete(siteId);
}

/** The site as the API shows it, or 404 (another account's site does not exist for the caller). */
export function getSiteJson(ctx: EmulatorContext, accountId: string, siteId: string): SiteJson {
  let cache = siteCache.get(ctx.db);
  const hit = cache?.get(siteId);
  if (hit) {
    if (hit.accountId !== accountId) throw notFound();
    return hit.json;
  }
  if (!isId("site", siteId)) throw notFound();
  const row = stmt(
    ctx.db,
    "SELECT account_id, id, name, url, status, wp_version, php_version, created_at, updated_at FROM sites WHERE id = ?",
  ).get(siteId) as (SiteJson & { account_id: string }) | undefined;
  if (!row || row.account_id !== accountId) throw notFound();
  const { account_id: _account, ...json } = row;
  if (!cache) siteCache.set(ctx.db, (cache = new Map()));
  if (cache.size >= SITE_CACHE_MAX) cache.clear();
  cache.set(siteId, { accountId, json });
  return json;
}

type SiteColumns = Partial<Pick<SiteRow, "name" | "url" | "status" | "wp_version" | "php_version" | "updated_at">>;

/** The one way to change a site's public columns (keeps getSiteJson's cache true). */
export function setSiteColumns(ctx: EmulatorContext, siteId: string, columns: SiteColumns): void {
  const names = Object.keys(columns) as (keyof SiteColumns)[];
  if (names.length === 0) return;
  stmt(ctx.db, `UPDATE sites SET ${names.map((n) => `${n} = ?`).join(", ")} WHERE id = ?`).run(...names.map((n) => columns[n]), siteId);
  forgetSite(ctx, siteId);
}

/** True for an absolute http(s) URL with a host. */
export function isHttpUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return false;
  }
  return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
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
  }
  if (input.url != null) {
    if (typeof input.url !== "string" || input.url.trim() === "") errors.add("url", "can't be blank");
    else if (input.url.length > 2048) errors.add("url", "is too long (maximum is 2048 characters)");
    else if (!isHttpUrl(input.url)) errors.add("url", "is invalid");
    else {
      const taken = stmt(ctx.db, "SELECT id FROM sites WHERE account_id = ? AND url = ?").get(accountId, input.url) as
        | { id: string }
        | undefined;
      if (taken && taken.id !== exceptSiteId) errors.add("url", "has already been taken");
    }
  }
  for (const field of ["wp_version", "php_version"] as const) {
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

  const id = newId("site");
  ctx.db.transaction(() => {
    const nowMs = ctx.clock.nowMs();
    const now = ctx.clock.iso(nowMs);
    const nextCheck = nowMs + ctx.options.healthCheckInterval * 1000;
    stmt(
      ctx.db,
      `INSERT INTO sites (id, account_id, name, url, status, wp_version, php_version, next_health_check_ms, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'unknown', ?, ?, ?, ?, ?)`,
    ).run(
      id,
      accountId,
      input.name,
      input.url,
      input.wp_version ?? CURRENT_WP_VERSION,
      input.php_version ?? CURRENT_PHP_VERSION,
      nextCheck,
      now,
      now,
    );
    const created = serializeSite(loadSite(ctx, accountId, id));
    recordActivity(ctx, { accountId, siteId: id, action: "site.created", subjectType: "Site", subjectId: id }, origin);
    ctx.events.emit(accountId, "site.created", created);
    runHealthCheck(ctx, id);
    detectVulnerabilities(ctx, id);
    ctx.scheduler.poke(nextCheck);
  })();
  return serializeSite(loadSite(ctx, accountId, id));
}

const PATCH_FIELDS = ["name", "url", "wp_version", "php_version"] as const;

/** Applies a PATCH; a change of version re-runs the vulnerability scan. Returns the site as stored. */
export function updateSite(ctx: EmulatorContext, accountId: string, siteId: string, patch: SitePatch, origin: Origin): SiteJson {
  const before = loadSite(ctx, accountId, siteId);
  const fields: SitePatch = {};
  for (const f of PATCH_FIELDS) if (patch[f] !== undefined) fields[f] = patch[f];
  checkFields(ctx, accountId, fields, siteId);
  const after = { ...before, ...fields };
  const changes = diff(before, after, [...PATCH_FIELDS]);
  if (!changes) return serializeSite(before);

  ctx.db.transaction(() => {
    setSiteColumns(ctx, siteId, {
      name: after.name,
      url: after.url,
      wp_version: after.wp_version,
      php_version: after.php_version,
      updated_at: ctx.clock.iso(),
    });
    recordActivity(ctx, { accountId, siteId, action: "site.updated", subjectType: "Site", subjectId: siteId, changes }, origin);
    ctx.events.emit(accountId, "site.updated", { ...serializeSite(loadSite(ctx, accountId, siteId)), changes });
    if (changes.wp_version || changes.php_version) detectVulnerabilities(ctx, siteId);
  })();
  return serializeSite(loadSite(ctx, accountId, siteId));
}

/** Deletes a site; its children go by ON DELETE CASCADE, its uploaded files first. Returns the site as it was. */
export function deleteSite(ctx: EmulatorContext, accountId: string, siteId: string, origin: Origin): SiteJson {
  const row = loadSite(ctx, accountId, siteId);
  const json = serializeSite(row);
  removeSiteData(ctx, siteId);
  ctx.db.transaction(() => {
    stmt(ctx.db, "DELETE FROM sites WHERE id = ?").run(siteId);
    forgetSite(ctx, siteId);
    recordActivity(ctx, { accountId, siteId, action: "site.deleted", subjectType: "Site", subjectId: siteId }, origin);
    ctx.events.emit(accountId, "site.deleted", json);
  })();
  return json;
}
