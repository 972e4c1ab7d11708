// The sites table, and the one write path of a site's row. Every other module that reads or changes a
// site (health checks set its status, pipelines its versions) goes through here.
//
// Sites as the API shows them are cached by id: GET /sites/:id is the hottest path, and a SQLite read
// with its string conversions costs more than the rest of the request. Only siteJson fills the cache
// (never inside a transaction that could roll back); every write goes through updateSiteRow or
// deleteSiteRow, and reset calls forgetSites. One emulator process owns its database file.
//
// The listing is paged by number (?page=N), but read by key: a page starts after the last `seq` of the page
// before it, remembered per account, so walking 10,000 sites page by page costs an index seek per page, not an
// OFFSET scan that grows with N. The account's count is remembered the same way. New sites only ever append
// (seq grows), so an insert keeps every remembered page start and only drops the count; a delete drops both.
import { siteFields } from "../../wire/generated/fields.js";
import type { SiteInput, SiteJson } from "../../wire/sites.js";
import { isId } from "../ids.js";
import { siteUrlKeyOf } from "../site-urls.js";
import type { SQLInputValue } from "node:sqlite";
import { stmt, type Database, type PageSource } from "./db.js";
import { createFields, insertRow, pickColumns, shownFields } from "./wire-columns.js";
import type { SiteVersions } from "../versions.js";

/** A site's row: its wire fields (each in a column of its name), and what only the emulator keeps. */
export interface SiteRow extends SiteJson {
  seq: number;
  account_id: string;
  forced_health: string | null;
  next_health_check_ms: number | null;
}

/** The columns of what the API shows of a site, and those a create writes (wire/generated/fields.ts). */
const SHOWN = shownFields(siteFields);
const CREATED = createFields(siteFields);

export function siteToJson(row: SiteRow): SiteJson {
  return pickColumns(row, SHOWN) as SiteJson;
}

const siteCache = new WeakMap<object, Map<string, { accountId: string; json: SiteJson }>>();
const SITE_CACHE_MAX = 10_000;

export function forgetSites(db: Database): void {
  siteCache.delete(db);
  listings.delete(db);
}

/** Per account: its number of sites, and for an offset the `seq` of the row just before it. */
interface Listing {
  count: number | undefined;
  seqBefore: Map<number, number>;
}
const listings = new WeakMap<object, Map<string, Listing>>();
/** Remembered page starts per account, beyond which they are forgotten and found again. */
const PAGE_STARTS_MAX = 10_000;

function listing(db: Database, accountId: string): Listing {
  let byAccount = listings.get(db);
  if (!byAccount) listings.set(db, (byAccount = new Map()));
  let l = byAccount.get(accountId);
  if (!l) byAccount.set(accountId, (l = { count: undefined, seqBefore: new Map() }));
  return l;
}

/** A site was inserted into the account (its seq is the highest: every page start stays true). */
export function noteSiteInserted(db: Database, accountId: string): void {
  const l = listings.get(db)?.get(accountId);
  if (l) l.count = undefined; // not +1: the insert's transaction may still roll back
}

/** The site as the API shows it when it belongs to this account, else undefined. */
export function siteJson(db: Database, accountId: string, siteId: string): SiteJson | undefined {
  let cache = siteCache.get(db);
  const hit = cache?.get(siteId);
  if (hit) return hit.accountId === accountId ? hit.json : undefined;
  if (!isId("site", siteId)) return undefined;
  const row = stmt(db, `SELECT account_id, ${SHOWN.join(", ")} FROM sites WHERE id = ?`).get(siteId) as (SiteJson & { account_id: string }) | undefined;
  if (!row || row.account_id !== accountId) return undefined;
  const { account_id: _account, ...json } = row;
  if (!cache) siteCache.set(db, (cache = new Map()));
  if (cache.size >= SITE_CACHE_MAX) cache.clear();
  cache.set(siteId, { accountId, json });
  return json;
}

export function findSite(db: Database, siteId: string): SiteRow | undefined {
  return stmt(db, "SELECT * FROM sites WHERE id = ?").get(siteId) as SiteRow | undefined;
}

/** The site when it belongs to this account (another account's site does not exist for the caller). */
export function findSiteOf(db: Database, accountId: string, siteId: string): SiteRow | undefined {
  if (!isId("site", siteId)) return undefined;
  return stmt(db, "SELECT * FROM sites WHERE id = ? AND account_id = ?").get(siteId, accountId) as SiteRow | undefined;
}

/** A site of the account other than `exceptSiteId` whose URL has this key (site-urls.ts): one index lookup. */
export function siteIdWithUrlKey(db: Database, accountId: string, key: string, exceptSiteId: string | null): string | undefined {
  const row = stmt(db, "SELECT id FROM sites WHERE account_id = ? AND url_key = ? AND id IS NOT ? LIMIT 1").get(accountId, key, exceptSiteId) as
    | { id: string }
    | undefined;
  return row?.id;
}

/** The account's sites, oldest first (see the listing note at the top). */
export function sitesPage(db: Database, accountId: string): PageSource<SiteJson> {
  const l = listing(db, accountId);
  return {
    count: () => (l.count ??= (stmt(db, "SELECT COUNT(*) AS n FROM sites WHERE account_id = ?").get(accountId) as { n: number }).n),
    rows: (limit, offset) => {
      let before = offset === 0 ? 0 : l.seqBefore.get(offset);
      if (before === undefined) {
        // A page reached by jumping: skip along the index alone (no row is read), then read by key.
        const row = stmt(db, "SELECT seq FROM sites WHERE account_id = ? ORDER BY seq LIMIT 1 OFFSET ?").get(accountId, offset - 1) as
          | { seq: number }
          | undefined;
        if (!row) return [];
        before = row.seq;
        l.seqBefore.set(offset, before); // the same jump again is a seek
      }
      const rows = stmt(db, "SELECT * FROM sites WHERE account_id = ? AND seq > ? ORDER BY seq LIMIT ?").all(accountId, before, limit) as SiteRow[];
      if (rows.length === limit) {
        if (l.seqBefore.size >= PAGE_STARTS_MAX) l.seqBefore.clear();
        l.seqBefore.set(offset + limit, rows[limit - 1]!.seq);
      }
      return rows.map(siteToJson);
    },
  };
}

/** A new site: what the create took (the versions defaulted), and what the emulator sets. */
export type NewSite = SiteInput & SiteVersions & Pick<SiteRow, "id" | "account_id" | "next_health_check_ms" | "created_at">;

/** Inserts a new site (status `unknown` until its first check); returns its row as stored. */
export function insertSite(db: Database, s: NewSite): SiteRow {
  const { id, account_id, next_health_check_ms, created_at } = s;
  const row = { id, account_id, status: "unknown" as const, next_health_check_ms, created_at, updated_at: created_at, ...pickColumns(s, CREATED) };
  const { lastInsertRowid } = insertRow(db, "sites", { ...row, url_key: siteUrlKeyOf(s.url) });
  noteSiteInserted(db, account_id);
  return { ...(row as Omit<SiteRow, "seq" | "forced_health">), seq: Number(lastInsertRowid), forced_health: null };
}

/** What updateSiteRow may change: any column but the site's identity and creation. */
export type SiteColumns = Partial<Omit<SiteRow, "seq" | "id" | "account_id" | "created_at">>;

/** The one way to change a site's row (keeps siteJson's cache and the url's key true). */
export function updateSiteRow(db: Database, siteId: string, columns: SiteColumns): void {
  const names = Object.keys(columns) as (keyof SiteColumns)[];
  if (names.length === 0) return;
  const values = names.map((n) => (columns[n] ?? null) as SQLInputValue);
  const sets = names.map((n) => `${n} = ?`);
  if (columns.url !== undefined) {
    sets.push("url_key = ?");
    values.push(siteUrlKeyOf(columns.url));
  }
  stmt(db, `UPDATE sites SET ${sets.join(", ")} WHERE id = ?`).run(...values, siteId);
  siteCache.get(db)?.delete(siteId);
}

/** Deletes the site; its children go by ON DELETE CASCADE. */
export function deleteSiteRow(db: Database, siteId: string): void {
  const row = stmt(db, "DELETE FROM sites WHERE id = ? RETURNING account_id").get(siteId) as { account_id: string } | undefined;
  siteCache.get(db)?.delete(siteId);
  if (row) listings.get(db)?.delete(row.account_id);
}

export function allSiteIds(db: Database): string[] {
  return (stmt(db, "SELECT id FROM sites ORDER BY seq").all() as { id: string }[]).map((r) => r.id);
}

/** Sites whose periodic health check is due by nowMs, in due order. */
export function sitesDueForCheck(db: Database, nowMs: number): string[] {
  return (stmt(db, "SELECT id FROM sites WHERE next_health_check_ms <= ? ORDER BY next_health_check_ms, seq").all(nowMs) as { id: string }[]).map((r) => r.id);
}

export function nextHealthCheckDueMs(db: Database): number | null {
  return (stmt(db, "SELECT MIN(next_health_check_ms) AS m FROM sites").get() as { m: number | null }).m;
}
