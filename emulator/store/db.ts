// Opens the SQLite database (Node's built-in node:sqlite, no native add-on to build), applies migrations, and
// sets the pragmas the emulator relies on: WAL for concurrent readers, foreign keys for cascading deletes.
import type { DatabaseSync, SQLInputValue, StatementResultingChanges } from "node:sqlite";
import { unsupportedNode } from "../../common/node-support.js";
import { siteUrlKeyOf } from "../site-urls.js";
import { MIGRATIONS } from "./migrations.js";

type Params = SQLInputValue[] | [Record<string, SQLInputValue>, ...SQLInputValue[]];

/** A prepared statement (node:sqlite's StatementSync); callers name the row type they selected. */
export interface Statement {
  run(...params: Params): StatementResultingChanges;
  get(...params: Params): unknown;
  all(...params: Params): unknown[];
}

/** The database handle the stores take: node:sqlite's DatabaseSync, plus `transaction()`. */
export interface Database {
  prepare(sql: string): Statement;
  exec(sql: string): void;
  close(): void;
  /** Wraps `fn` so that each call runs in one transaction (a savepoint when nested), rolled back on a throw. */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
}

/**
 * node:sqlite, loaded on first use rather than imported: Node 20 has none, and the caller says so in a sentence.
 * Node 22 flags the module experimental when it loads (24 and later do not); that one warning is dropped here,
 * since the emulator relies only on the API that 24 made stable. Every other warning passes through.
 */
function loadSqlite(): typeof import("node:sqlite") {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === "string" ? warning : warning.message;
    const type = typeof rest[0] === "string" ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    if ((type === "ExperimentalWarning" || (warning as Error).name === "ExperimentalWarning") && text.startsWith("SQLite ")) return;
    return (emitWarning as (...a: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    const sqlite = process.getBuiltinModule?.("node:sqlite") as typeof import("node:sqlite") | undefined;
    if (sqlite?.DatabaseSync) return sqlite;
  } catch {
    // Node 22.5-22.12: the module exists behind --experimental-sqlite
  } finally {
    process.emitWarning = emitWarning;
  }
  throw new Error(unsupportedNode("the emulator (its database is Node's built-in node:sqlite)") ?? "node:sqlite did not load");
}

type OpenedDatabase = Database & Pick<DatabaseSync, "function">;
let DatabaseClass: (new (file: string) => OpenedDatabase) | undefined;

function databaseClass(): new (file: string) => OpenedDatabase {
  if (DatabaseClass) return DatabaseClass;
  const { DatabaseSync } = loadSqlite();
  class TransactionalDatabase extends DatabaseSync {
    #depth = 0;
    #savepoints = 0;
    transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
      return (...args: A): R => {
        const outer = this.#depth === 0;
        const name = `sp${this.#savepoints++}`;
        this.exec(outer ? "BEGIN" : `SAVEPOINT ${name}`);
        this.#depth++;
        try {
          const result = fn(...args);
          this.exec(outer ? "COMMIT" : `RELEASE ${name}`);
          return result;
        } catch (err) {
          // A failed COMMIT may already have ended the transaction: roll back only what is still open
          // (isTransaction is Node >= 22.16; before it, a rollback with nothing open throws and is ignored).
          if (this.isTransaction !== false) {
            try {
              this.exec(outer ? "ROLLBACK" : `ROLLBACK TO ${name}; RELEASE ${name}`);
            } catch {
              // nothing left to roll back
            }
          }
          throw err;
        } finally {
          this.#depth--;
          if (outer) this.#savepoints = 0;
        }
      };
    }
  }
  DatabaseClass = TransactionalDatabase;
  return DatabaseClass;
}

export function openDatabase(file: string): Database {
  const db = new (databaseClass())(file);
  if (file !== ":memory:") db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000");
  // A migration fills sites.url_key from the stored URLs with the function the store writes it with.
  db.function("site_url_key", { deterministic: true }, (url) => (typeof url === "string" ? siteUrlKeyOf(url) : null));
  migrate(db);
  return db;
}

function migrate(db: Database): void {
  const applied = Number((db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version);
  for (let i = applied; i < MIGRATIONS.length; i++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[i]!);
      db.exec(`PRAGMA user_version = ${i + 1}`);
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

const statementCache = new WeakMap<Database, Map<string, Statement>>();

/** A prepared statement, compiled once per database and reused (hot paths run these per request). */
export function stmt(db: Database, sql: string): Statement {
  let cache = statementCache.get(db);
  if (!cache) statementCache.set(db, (cache = new Map()));
  let s = cache.get(sql);
  if (!s) cache.set(sql, (s = db.prepare(sql)));
  return s;
}
