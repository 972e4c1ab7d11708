// What the scheduled jobs (snapshot create, snapshot prune) share: the job's identity (command, service,
// account, site selection: not output flags), the lock (--lock FILE, else a default one per job; --no-lock),
// the JSON report (--report FILE, written also when the run fails), the poll interval from the environment,
// and the JSON form of an error.

import { createHash } from "node:crypto";
import type { FlagSpec, Parsed } from "../../args.js";
import { flagBool, flagList, flagString } from "../../args.js";
import { APIError, SiteOpsError } from "../../../src/index.js";
import type { Context } from "../../context.js";
import { EXIT, exitCodeOf, UsageError } from "../../exit-codes.js";
import { jobSignals, redactArgv, SIGNAL_FLAGS } from "../../jobs/signals.js";
import { acquireLock, defaultLockFile, type Lock } from "../../lock.js";
import { errorLine } from "../../output/format.js";
import { buildReport, checkReportPath, type ReportHeader, writeReport } from "../../report.js";
import { SELECTION_FLAGS } from "../../sites.js";
import type { Target } from "../../credentials.js";

export const JOB_FLAGS: FlagSpec[] = [
  {
    name: "lock",
    type: "string",
    value: "FILE",
    description: "lock file; a second run with the same lock exits 75 (default: one per job in $XDG_RUNTIME_DIR/siteops)",
  },
  { name: "no-lock", type: "boolean", description: "run even if the same job is running" },
  { name: "report", type: "string", value: "FILE", description: "write a JSON report of the run (every site's outcome) to FILE" },
  ...SIGNAL_FLAGS,
];

/** The JSON form of a failure in reports and --json output. */
export interface ErrorInfo {
  message: string;
  /** Stable code: the core's (NOT_FOUND, OPERATION_FAILED, WAIT_TIMEOUT, ...) or the CLI's. */
  code: string;
  http_status?: number;
  request_id?: string;
}

export function errorInfo(err: unknown, secrets: readonly string[] = []): ErrorInfo {
  const info: ErrorInfo = { message: errorLine(err, secrets), code: err instanceof SiteOpsError ? err.code : "ERROR" };
  if (err instanceof APIError) {
    info.http_status = err.status;
    if (err.requestId) info.request_id = err.requestId;
  }
  return info;
}

/** Time between two polls while waiting: env SITEOPS_POLL_INTERVAL_MS, else the core's default. */
export function pollIntervalFrom(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.SITEOPS_POLL_INTERVAL_MS?.trim();
  if (!raw) return undefined;
  const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > 600_000)
    throw new UsageError(`SITEOPS_POLL_INTERVAL_MS must be a whole number of milliseconds from 1 to 600000 (got ${JSON.stringify(raw)})`);
  return n;
}

/** A run's job: `name` (`snapshot-create-<16 hex>`) names its default lock and its state (job-state.ts). */
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
 * Runs a job under its lock and writes its report. Everything that can be refused (report path, signal flags,
 * credentials, lock) is checked before `work` makes a request. The report is written when `work` throws too,
 * and the job's signals (metrics, pings, notification: ../../jobs/signals.ts) follow every end but a lock
 * held by another run (exit 75: that run signals).
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
  const signals = jobSignals(ctx, parsed, command);
  const header: ReportHeader = { command: `siteops ${command}`, base_url: "", started_at: new Date().toISOString() };
  let lock: Lock | undefined;
  try {
    const target = await ctx.target();
    header.base_url = target.baseUrl;
    header.started_at = new Date().toISOString();
    const job = jobOf(command, target, parsed);
    if (!noLock) lock = acquireLock(lockArg ?? defaultLockFile(ctx.env, job.name), `siteops ${command} ${redactArgv(ctx.argv).join(" ")}`.trim());
    signals.started();
    const { code, report } = await work(job);
    return await finish(ctx, reportFile, header, code, report, signals);
  } catch (err) {
    if (exitCodeOf(err) !== EXIT.LOCKED) await finish(ctx, reportFile, header, exitCodeOf(err), { error: errorInfo(err, ctx.secrets) }, signals);
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
  signals: ReturnType<typeof jobSignals>,
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
  const signalled = await signals.finished(report);
  return code === EXIT.OK ? signalled : code;
}
