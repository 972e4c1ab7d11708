// startEmulator(): open the store, build the app, seed, start the jobs, listen.
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { resolveOptions, type EmulatorOptions } from "./options.js";
import { openDatabase, getMeta, setMeta, type Database } from "./store/db.js";
import { Clock } from "./clock.js";
import { Scheduler } from "./jobs/scheduler.js";
import { Events } from "./events.js";
import { buildApp, type App } from "./app.js";
import type { EmulatorContext } from "./context.js";
import { applySeed, loadSeed, seedDemo, DEMO_EMAIL, DEMO_PASSWORD, type DemoCredentials } from "./seed.js";
import { registerJobs } from "./jobs/index.js";
import { forgetApiTokens } from "./auth/authenticate.js";
import { forgetSites } from "./services/sites.js";
import { Faults } from "./control/faults.js";
import { newId } from "./ids.js";
import { hashToken, newApiToken } from "./auth/secrets.js";

export interface RunningEmulator {
  /** Base URL, e.g. http://127.0.0.1:4747 (no trailing slash). */
  url: string;
  port: number;
  /** Credentials of the demo account when started with demo: true. */
  demo?: DemoCredentials;
  /** The emulator's context (database, clock, scheduler): for tests and benchmarks. */
  context: EmulatorContext;
  app: App;
  /** Re-seed from scratch, as POST /__emulator/reset does. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

function loadJwtSecret(db: Database): Uint8Array {
  let secret = getMeta(db, "jwt_secret");
  if (!secret) {
    secret = randomBytes(32).toString("base64");
    setMeta(db, "jwt_secret", secret);
  }
  return new Uint8Array(Buffer.from(secret, "base64"));
}

const DATA_TABLES = [
  "webhook_deliveries", "webhook_endpoints", "activity_logs", "vulnerability_records", "upgrade_pipelines",
  "snapshots", "health_checks", "sites", "idempotency_keys", "revoked_jtis", "refresh_tokens", "api_tokens",
  "memberships", "users", "accounts",
];

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const opts = resolveOptions(options);
  const seed = opts.seed ? loadSeed(opts.seed) : undefined; // fail before touching anything
  const ownDataDir = !opts.dataDir;
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(tmpdir(), "siteops-emulator-"));
  mkdirSync(dataDir, { recursive: true });
  if (opts.db !== ":memory:") mkdirSync(path.dirname(path.resolve(opts.db)), { recursive: true });
  const db = openDatabase(opts.db);

  const clock = new Clock(Number(getMeta(db, "clock_offset_ms") ?? 0));
  clock.onAdvance(() => setMeta(db, "clock_offset_ms", String(clock.offsetMs)));
  const log = (message: string): void => {
    if (opts.logger) process.stderr.write(`[emulator] ${message}\n`);
  };
  const scheduler = new Scheduler(clock, (job, err) =>
    process.stderr.write(`[emulator] job ${job} failed: ${err instanceof Error ? err.stack : String(err)}\n`),
  );
  const events = new Events(db, clock, scheduler);
  const ctx: EmulatorContext = { db, clock, options: opts, dataDir, scheduler, events, jwtSecret: loadJwtSecret(db), log };
  registerJobs(ctx);

  let demo: DemoCredentials | undefined;
  const seedAll = (): void => {
    const empty = !(db.prepare("SELECT 1 FROM accounts LIMIT 1").get());
    if (empty && seed) applySeed(ctx, seed);
    if (opts.demo) demo = empty ? seedDemo(ctx) : reissueDemoToken(ctx);
  };
  seedAll();
  scheduler.runDue();

  const faults = new Faults();
  const reset = async (): Promise<void> => {
    faults.clear();
    db.transaction(() => {
      for (const t of DATA_TABLES) db.prepare(`DELETE FROM ${t}`).run();
      setMeta(db, "clock_offset_ms", "0");
    })();
    forgetApiTokens(ctx);
    forgetSites(ctx);
    clock.advance(-clock.offsetMs / 1000);
    rmSync(path.join(dataDir, "snapshots"), { recursive: true, force: true });
    seedAll();
    scheduler.runDue();
  };
  const app = await buildApp(ctx, { faults, reset });

  await app.listen({ port: opts.port, host: opts.host });
  scheduler.start();
  const port = (app.server.address() as AddressInfo).port;
  const host = opts.host.includes(":") ? `[${opts.host}]` : opts.host;

  return {
    url: `http://${host}:${port}`,
    port,
    demo,
    context: ctx,
    app,
    reset,
    async close() {
      scheduler.stop();
      await app.close();
      db.close();
      if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** On a restart with an existing demo database, a fresh token (tokens are stored hashed). */
function reissueDemoToken(ctx: EmulatorContext): DemoCredentials | undefined {
  const row = ctx.db
    .prepare(
      `SELECT u.id AS user_id, m.account_id FROM users u JOIN memberships m ON m.user_id = u.id
        WHERE u.email = ? AND m.role = 'owner' ORDER BY m.created_at LIMIT 1`,
    )
    .get(DEMO_EMAIL) as { user_id: string; account_id: string } | undefined;
  if (!row) return seedDemo(ctx);
  const token = newApiToken();
  ctx.db
    .prepare("INSERT INTO api_tokens (id, token_hash, user_id, account_id, name, created_at) VALUES (?, ?, ?, ?, ?, ?)")
    .run(newId("tok"), hashToken(token), row.user_id, row.account_id, "demo token", ctx.clock.iso());
  return { email: DEMO_EMAIL, password: DEMO_PASSWORD, api_token: token, account_id: row.account_id };
}
