// Opens the SQLite database (better-sqlite3), applies migrations, and sets the pragmas the emulator
// relies on: WAL for concurrent readers, foreign keys for cascading deletes.
import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";
import { MIGRATIONS } from "./migrations.js";

export type Database = BetterSqlite3.Database;

const require = createRequire(import.meta.url);

function loadDriver(): typeof BetterSqlite3 {
  try {
    return require("better-sqlite3") as typeof BetterSqlite3;
  } catch {
    throw new Error("the emulator needs the optional dependency better-sqlite3 (npm install better-sqlite3@12) — the API client itself does not");
  }
}

export function openDatabase(file: string): Database {
  const Driver = loadDriver();
  const db = new Driver(file);
  if (file !== ":memory:") db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  migrate(db);
  return db;
}

function migrate(db: Database): void {
  const applied = db.pragma("user_version", { simple: true }) as number;
  for (let i = applied; i < MIGRATIONS.length; i++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[i]!);
      db.pragma(`user_version = ${i + 1}`);
    })();
  }
}

// Children before parents, so that no foreign key stands in the way.
const DATA_TABLES = [
  "webhook_deliveries",
  "webhook_endpoints",
  "activity_logs",
  "vulnerability_records",
  "upgrade_pipelines",
  "snapshots",
  "health_checks",
  "sites",
  "idempotency_keys",
  "revoked_jtis",
  "refresh_tokens",
  "api_tokens",
  "memberships",
  "users",
  "accounts",
];

/** Empties every data table and sets the clock offset back to 0 (POST /__emulator/reset). */
export function clearData(db: Database): void {
  db.transaction(() => {
    for (const t of DATA_TABLES) db.prepare(`DELETE FROM ${t}`).run();
    setMeta(db, "clock_offset_ms", "0");
  })();
}

export function getMeta(db: Database, key: string): string | undefined {
  const row = db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined;
  return row?.value;
}

export function setMeta(db: Database, key: string, value: string): void {
  db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(key, value);
}

/** A listing as the pagination helper reads it: the total, and one page of rows. */
export interface PageSource<T> {
  count(): number;
  rows(limit: number, offset: number): T[];
}

/** Parse a JSON column, tolerating NULL. */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text == null) return fallback;
  return JSON.parse(text) as T;
}

const statementCache = new WeakMap<Database, Map<string, BetterSqlite3.Statement>>();

/** A prepared statement, compiled once per database and reused (hot paths run these per request). */
export function stmt(db: Database, sql: string): BetterSqlite3.Statement {
  let cache = statementCache.get(db);
  if (!cache) statementCache.set(db, (cache = new Map()));
  let s = cache.get(sql);
  if (!s) cache.set(sql, (s = db.prepare(sql)));
  return s;
}
