// Runs a scheduled job's work (snapshot create, snapshot prune) under its lock, then reports and tells the outside.
// The job's identity is the command, service, account and the sites selected (not output flags); the lock is
// --lock FILE, else a default one per job (--no-lock: none); the JSON report (--report FILE) is written also when
// the run fails; the metrics, pings and notification (outbound.ts) follow every end but a lock held by another run.

import { createHash } from "node:crypto";
import { type Site, urlKey } from "../../src/index.js";
import type { Parsed } from "../args.js";
import { flagBool, flagList, flagString } from "../args.js";
import type { Context } from "../context.js";
import type { Target } from "../credentials.js";
import { EXIT, exitCodeOf, UsageError } from "../exit-codes.js";
import { SELECTION_FLAGS } from "../sites.js";
import { acquireLock, defaultLockFile, type Lock } from "./lock.js";
import { type JobNotification, type JobOutbound, jobOutbound, redactArgv } from "./outbound.js";
import { buildReport, checkReportPath, errorInfo, type ReportHeader, writeReport } from "./report.js";

/** A run's job: `name` (`snapshot-create-<16 hex>`) names its default lock and its state (run-state.ts). */
export interface Job {
  name: string;
}

/** What a command puts in its job's identity, found before the lock is taken: the sites it selects as
 * resolved (a `--site` list by id, not as written), in place of the selection flags, and whatever else makes
 * the job's work different (snapshot create: the trigger and the description). */
export type JobIdentity = (target: Target) => Promise<unknown>;

/** The sites part of a job's identity: `--all` as its flags (the fleet may change between a night and its
 * rerun), a `--site`/`--sites-from` list as the sorted set of the ids it resolved to (a site named by id or by name,
 * in any order, is one job). */
export function selectedSitesIdentity(parsed: Parsed, all: boolean, sites: readonly Site[]): unknown {
  return all
    ? { all: true, status: [...new Set(flagList(parsed, "status"))].sort(), shard: flagString(parsed, "shard") ?? null }
    : { sites: [...new Set(sites.map((site) => site.id))].sort() };
}

/** Loopback names of one machine: `localhost`, `127.0.0.1` and `[::1]` are one service (RFC 6761 keeps
 * localhost on the loopback). */
const LOOPBACK = /^(localhost|127\.0\.0\.1|\[::1\])(?=:\d+$|$)/;

/** The service as the job's identity compares it: by meaning (src/equivalence.ts urlKey), loopback names as one. */
function serviceKey(baseUrl: string): string {
  const key = urlKey(baseUrl);
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/]*)(.*)$/.exec(key);
  return m ? `${m[1]}${m[2]!.replace(LOOPBACK, "localhost")}${m[3]}` : key;
}

/** The job a run belongs to: the command, the service (base URL by meaning), the account (profile, --account)
 * and the sites it selects (`selection`, from the command; else the selection flags, --site in any order).
 * Output flags (--report, --quiet, --json, ...) and how the work is paced (--concurrency, --timeout, ...) do
 * not make another job. */
function jobOf(command: string, target: Target, parsed: Parsed, selection: unknown): Job {
  const flags = SELECTION_FLAGS.map((f) => [f.name, f.multiple ? [...new Set(flagList(parsed, f.name))].sort() : (parsed.flags[f.name] ?? null)]);
  const key = createHash("sha256")
    .update(JSON.stringify([command, serviceKey(target.baseUrl), target.profile, target.accountId ?? null, selection ?? flags]))
    .digest("hex")
    .slice(0, 16);
  return { name: `${command.replace(/\W+/g, "-")}-${key}` };
}

/**
 * Runs a job under its lock and writes its report. Everything that can be refused (report path, outbound
 * flags, credentials, lock) is checked before `work` makes a request; `identity` (the sites resolved) runs
 * before the lock, so that the lock covers the job as resolved. The report is written when `work` throws
 * too, and the job's outbound (metrics, pings, notification: outbound.ts) follows every end but a lock held by
 * another run (exit 75: that run tells).
 */
export async function runJob(
  ctx: Context,
  parsed: Parsed,
  command: string,
  work: (job: Job) => Promise<{ code: number; report: Record<string, unknown> }>,
  identity?: JobIdentity,
  news?: JobNotification,
): Promise<number> {
  const reportArg = flagString(parsed, "report");
  const reportFile = reportArg === undefined ? undefined : checkReportPath(reportArg);
  const lockArg = flagString(parsed, "lock");
  const noLock = flagBool(parsed, "no-lock") === true;
  if (lockArg !== undefined && noLock) throw new UsageError("give --lock FILE or --no-lock, not both");
  const outbound = jobOutbound(ctx, parsed, command, news);
  const header: ReportHeader = { command: `siteops ${command}`, base_url: "", started_at: new Date().toISOString() };
  let lock: Lock | undefined;
  try {
    const target = await ctx.target();
    header.base_url = target.baseUrl;
    header.started_at = new Date().toISOString();
    let selected: unknown;
    try {
      selected = await identity?.(target);
    } catch (err) {
      // Finding the sites is the run's first request: a run that fails there (credentials refused, an unknown
      // site) has started all the same, and pings its start before its failure.
      outbound.started();
      throw err;
    }
    const job = jobOf(command, target, parsed, selected);
    if (!noLock) lock = acquireLock(lockArg ?? defaultLockFile(ctx.env, job.name), `siteops ${command} ${redactArgv(ctx.argv).join(" ")}`.trim());
    outbound.started();
    const { code, report } = await work(job);
    return await finish(ctx, reportFile, header, code, report, outbound);
  } catch (err) {
    if (exitCodeOf(err) !== EXIT.LOCKED) await finish(ctx, reportFile, header, exitCodeOf(err), { error: errorInfo(err, ctx.secrets) }, outbound);
    throw err;
  } finally {
    lock?.release();
  }
}

async function finish(
  ctx: Context,
  file: string | undefined,
  header: ReportHeader,
  code: number,
  body: Record<string, unknown>,
  outbound: JobOutbound,
): Promise<number> {
  const report = buildReport(header, code, body);
  if (file) {
    try {
      writeReport(file, report);
    } catch (err) {
      ctx.stderr.write(`error: cannot write the report ${file}: ${(err as Error).message}\n`);
      if (code === EXIT.OK) code = EXIT.FAILED;
    }
  }
  const told = await outbound.finished(report);
  return code === EXIT.OK ? told : code;
}
