// Runs a scheduled job's work (snapshot create, snapshot prune) under its lock, then reports and tells the outside.
// The job's identity is the command, service, account and site selection (not output flags); the lock is
// --lock FILE, else a default one per job (--no-lock: none); the JSON report (--report FILE) is written also when
// the run fails; the metrics, pings and notification (outbound.ts) follow every end but a lock held by another run.

import { createHash } from "node:crypto";
import type { Parsed } from "../args.js";
import { flagBool, flagList, flagString } from "../args.js";
import type { Context } from "../context.js";
import type { Target } from "../credentials.js";
import { EXIT, exitCodeOf, UsageError } from "../exit-codes.js";
import { SELECTION_FLAGS } from "../sites.js";
import { acquireLock, defaultLockFile, type Lock } from "./lock.js";
import { type JobOutbound, jobOutbound, redactArgv } from "./outbound.js";
import { buildReport, checkReportPath, errorInfo, type ReportHeader, writeReport } from "./report.js";

/** A run's job: `name` (`snapshot-create-<16 hex>`) names its default lock and its state (run-state.ts). */
export interface Job {
  name: string;
}

/** The job a run belongs to: the command, the service (base URL), the account (profile, --account) and the
 * sites it selects (--site in any order, --all, --status, --shard). Output flags (--report, --quiet, --json,
 * ...) and how the work is done (--concurrency, --timeout, ...) do not make another job. */
function jobOf(command: string, target: Target, parsed: Parsed): Job {
  const selection = SELECTION_FLAGS.map((f) => [f.name, f.multiple ? [...new Set(flagList(parsed, f.name))].sort() : (parsed.flags[f.name] ?? null)]);
  const key = createHash("sha256")
    .update(JSON.stringify([command, target.baseUrl, target.profile, target.accountId ?? null, selection]))
    .digest("hex")
    .slice(0, 16);
  return { name: `${command.replace(/\W+/g, "-")}-${key}` };
}

/**
 * Runs a job under its lock and writes its report. Everything that can be refused (report path, outbound
 * flags, credentials, lock) is checked before `work` makes a request. The report is written when `work` throws
 * too, and the job's outbound (metrics, pings, notification: outbound.ts) follows every end but a lock held by
 * another run (exit 75: that run tells).
 */
export async function runJob(
  ctx: Context,
  parsed: Parsed,
  command: string,
  work: (job: Job) => Promise<{ code: number; report: Record<string, unknown> }>,
): Promise<number> {
  const reportArg = flagString(parsed, "report");
  const reportFile = reportArg === undefined ? undefined : checkReportPath(reportArg);
  const lockArg = flagString(parsed, "lock");
  const noLock = flagBool(parsed, "no-lock") === true;
  if (lockArg !== undefined && noLock) throw new UsageError("give --lock FILE or --no-lock, not both");
  const outbound = jobOutbound(ctx, parsed, command);
  const header: ReportHeader = { command: `siteops ${command}`, base_url: "", started_at: new Date().toISOString() };
  let lock: Lock | undefined;
  try {
    const target = await ctx.target();
    header.base_url = target.baseUrl;
    header.started_at = new Date().toISOString();
    const job = jobOf(command, target, parsed);
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
