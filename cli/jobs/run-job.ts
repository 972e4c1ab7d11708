// Runs a scheduled job's work (snapshot create and prune, vulns report, upgrade rollout; vulns apply for its lock)
// under its lock, then reports and tells the outside. The job resolves its selection first and hands the sites to
// the work (`JobRun`); an empty selection is a failure of its own (exit 6) unless --allow-empty. The job's identity
// is the command, service, account and the sites selected (not output flags); the lock is --lock FILE, else a
// default one per job (--no-lock: none); the JSON report (--report FILE) is written also when the run fails; the
// metrics, pings and notification (outbound.ts) follow every end but a lock held by another run.

import { createHash } from "node:crypto";
import { type Site, urlKey } from "../../src/index.js";
import type { Parsed } from "../args.js";
import { flagBool, flagList, flagString } from "../args.js";
import type { Context } from "../context.js";
import type { Target } from "../credentials.js";
import { EXIT, exitCodeOf, UsageError } from "../exit-codes.js";
import { type CliSelection, checkFleet, resolveFleet } from "../sites.js";
import type { SelectedFleet } from "../../src/fleet.js";
import { acquireLock, defaultLockFile, type Lock } from "./lock.js";
import { type JobNews, type JobOutbound, jobOutbound, redactArgv } from "./outbound.js";
import { buildReport, checkReportPath, errorInfo, type ReportHeader, writeReport } from "./report.js";

/** A run's job: `name` (`snapshot-create-<16 hex>`) names its default lock and its state (run-state.ts). */
interface Job {
  name: string;
}

/** What the work of a job is handed: the job, and the sites of its selection as resolved before the lock. */
interface JobRun {
  job: Job;
  sites: readonly Site[];
}

/** What the work of a job returns: its exit code, the body of its JSON report (results, summary) and, for a job
 * that tells its own news (`news` in its spec), the news it found. */
interface JobResult {
  code: number;
  report: Record<string, unknown>;
  news?: JobNews;
}

/** A scheduled job, as its command declares it. */
export interface JobSpec {
  /** "snapshot create": the report's command, the job's name and the default job_name label. */
  command: string;
  /** The sites it runs on, from the selection flags: resolved before the lock, since they name the job. */
  selection: CliSelection;
  /** What else makes the job's work different, part of its identity (snapshot create: the trigger and the
   * description; a rollout: the target). */
  identity?: Record<string, unknown>;
  work(run: JobRun): Promise<JobResult>;
  /** The job tells its own news (`vulns report`: what its work returns as `news`) instead of the run's report. */
  news?: true;
  /** False: the command takes the lock and nothing else of a job (no report, metrics, ping or notification:
   * `vulns apply`, whose flags declare none of them). */
  outbound?: false;
}

/** The sites part of a job's identity: `--all` as its flags (the fleet may change between a night and its
 * rerun), a `--site`/`--sites-from` list as the sorted set of the ids it resolved to (a site named by id or by name,
 * in any order, is one job). */
function selectedSitesIdentity(parsed: Parsed, all: boolean, sites: readonly Site[]): unknown {
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
 * and what it selects (the sites resolved, and the command's own `identity`). Output flags (--report, --quiet,
 * --json, ...) and how the work is paced (--concurrency, --timeout, ...) do not make another job. */
function jobOf(command: string, target: Target, identity: unknown): Job {
  const key = createHash("sha256")
    .update(JSON.stringify([command, serviceKey(target.baseUrl), target.profile, target.accountId ?? null, identity]))
    .digest("hex")
    .slice(0, 16);
  return { name: `${command.replace(/\W+/g, "-")}-${key}` };
}

/**
 * Runs a job under its lock and writes its report. Everything that can be refused (report path, outbound
 * flags, credentials, lock) is checked before the work makes a request; the selection is resolved before the
 * lock (the lock covers the job as resolved), and its sites are handed to the work. A selection that holds no
 * site is exit 6 (EmptySelectionError), reported as any failure, unless --allow-empty. The report is written when
 * the work throws too, and the job's outbound (metrics, pings, notification: outbound.ts) follows every end but a
 * lock held by another run (exit 75: that run tells).
 */
export async function runJob(ctx: Context, parsed: Parsed, spec: JobSpec): Promise<number> {
  const { command } = spec;
  const reportArg = flagString(parsed, "report");
  const reportFile = reportArg === undefined ? undefined : checkReportPath(reportArg);
  const lockArg = flagString(parsed, "lock");
  const noLock = flagBool(parsed, "no-lock") === true;
  if (lockArg !== undefined && noLock) throw new UsageError("give --lock FILE or --no-lock, not both");
  const outbound = spec.outbound === false ? SILENT : jobOutbound(ctx, parsed, command, spec.news === true);
  const header: ReportHeader = { command: `siteops ${command}`, base_url: "", started_at: new Date().toISOString() };
  let lock: Lock | undefined;
  try {
    const target = await ctx.target();
    header.base_url = target.baseUrl;
    header.started_at = new Date().toISOString();
    let fleet: SelectedFleet;
    try {
      fleet = await resolveFleet(await ctx.client(), spec.selection, ctx.signal);
    } catch (err) {
      // Finding the sites is the run's first request: a run that fails there (credentials refused, an unknown
      // site) has started all the same, and pings its start before its failure.
      outbound.started();
      throw err;
    }
    const identity = { selected: selectedSitesIdentity(parsed, spec.selection.all === true, fleet.sites), ...spec.identity };
    const job = jobOf(command, target, identity);
    if (!noLock) lock = acquireLock(lockArg ?? defaultLockFile(ctx.env, job.name), `siteops ${command} ${redactArgv(ctx.argv).join(" ")}`.trim());
    outbound.started();
    const { notice } = checkFleet(fleet, parsed);
    if (notice !== undefined && !ctx.quiet) ctx.stderr.write(`${notice}\n`);
    const { code, report, news } = await spec.work({ job, sites: fleet.sites });
    return spec.outbound === false ? code : await finish(ctx, reportFile, header, code, report, outbound, news);
  } catch (err) {
    if (exitCodeOf(err) !== EXIT.LOCKED && spec.outbound !== false)
      await finish(ctx, reportFile, header, exitCodeOf(err), { error: errorInfo(err, ctx.secrets) }, outbound);
    throw err;
  } finally {
    lock?.release();
  }
}

/** The outbound of a command that takes the lock only. */
const SILENT: JobOutbound = { started() {}, finished: async (report) => report.exit_code };

async function finish(
  ctx: Context,
  file: string | undefined,
  header: ReportHeader,
  code: number,
  body: Record<string, unknown>,
  outbound: JobOutbound,
  news?: JobNews,
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
  const told = await outbound.finished(report, news);
  return code === EXIT.OK ? told : code;
}
