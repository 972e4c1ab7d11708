// startEmulator(): open the store, build the app, seed, start the jobs, listen.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { resolveOptions, type EmulatorOptions } from "./options.js";
import { clearData, openDatabase, getMeta, setMeta, type Database } from "./store/db.js";
import { openPrivateDatabase } from "./store/db-file.js";
import { Clock } from "./clock.js";
import { Scheduler } from "./jobs/scheduler.js";
import { Events } from "./events.js";
import { buildApp } from "./app.js";
import type { App } from "./http.js";
import type { EmulatorContext } from "./context.js";
import { applySeed, loadSeed, reissueDemoToken, seedDemo, type DemoCredentials } from "./seed.js";
import { registerJobs } from "./jobs/index.js";
import { forgetApiTokens } from "./auth/authenticate.js";
import { forgetSites } from "./store/sites.js";
import { anyAccount } from "./store/users.js";
import { Faults } from "./control/faults.js";
import { PipelineOutcomes } from "./control/pipeline-outcomes.js";
import { PipelineStateNames } from "./control/pipeline-states.js";
import { LoginThrottle } from "./auth/login-counters.js";
import { claimDataDir, sweepSnapshotFiles } from "./services/snapshot-files.js";
import { PROFILES, PROFILE_NAMES } from "./profile.js";
import { idIssuer } from "./ids.js";

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

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const opts = resolveOptions(options);
  if (!PROFILE_NAMES.includes(opts.profile)) throw new Error(`profile must be ${PROFILE_NAMES.join(" or ")}, got "${String(opts.profile)}"`);
  const profile = PROFILES[opts.profile];
  const seed = opts.seed ? loadSeed(opts.seed) : undefined; // fail before touching anything
  const ownDataDir = !opts.dataDir;
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(tmpdir(), "siteops-emulator-"));
  // Both hold secrets or data: refused when another user could read or swap them (issue 38).
  claimDataDir(dataDir);
  const db = opts.db === ":memory:" ? openDatabase(opts.db) : openPrivateDatabase(opts.db);

  const clock = new Clock(Number(getMeta(db, "clock_offset_ms") ?? 0));
  clock.onAdvance(() => setMeta(db, "clock_offset_ms", String(clock.offsetMs)));
  const log = (message: string): void => {
    if (opts.logger) process.stderr.write(`[emulator] ${message}\n`);
  };
  const scheduler = new Scheduler(clock, (job, err) =>
    process.stderr.write(`[emulator] job ${job} failed: ${err instanceof Error ? err.stack : String(err)}\n`),
  );
  const newId = idIssuer(profile.idLength);
  const events = new Events(db, clock, scheduler, newId);
  const ctx: EmulatorContext = {
    db,
    clock,
    options: opts,
    dataDir,
    scheduler,
    events,
    jwtSecret: loadJwtSecret(db),
    log,
    listener: { port: null, publicUrl: null },
    loginThrottle: new LoginThrottle(opts.loginThrottle, () => clock.nowMs()),
    profile,
    newId,
    pipelineOutcomes: new PipelineOutcomes(),
    pipelineStates: new PipelineStateNames(),
  };
  // Files a crash left behind (.part of a one-request upload, data of snapshots no longer uploading).
  sweepSnapshotFiles(ctx);
  registerJobs(ctx);

  let demo: DemoCredentials | undefined;
  const seedAll = (): void => {
    const empty = !anyAccount(db);
    if (empty && seed) applySeed(ctx, seed);
    if (opts.demo) demo = empty ? seedDemo(ctx) : reissueDemoToken(ctx);
  };
  seedAll();
  scheduler.runDue();

  const faults = new Faults();
  const reset = async (): Promise<void> => {
    faults.clear();
    ctx.pipelineOutcomes.clear();
    ctx.pipelineStates.clear();
    ctx.loginThrottle.clear();
    clearData(db);
    forgetApiTokens(ctx);
    forgetSites(db);
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
  const url = `http://${host}:${port}`;
  ctx.listener.port = port;
  ctx.listener.publicUrl = opts.publicUrl ?? url;

  return {
    url,
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
