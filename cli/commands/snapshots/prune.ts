// `siteops snapshot prune`: retention, as restic's `forget` does it. Per site, lists what the policy keeps
// (and why) and what it deletes, then deletes (unless --dry-run) through the core's so.operations.pruneSnapshots. Never
// deletes a snapshot still running, nor the newest completed one of a site.

import { flagBool, flagInt, flagString, type Parsed } from "../../args.js";
import type { PruneResult, RetentionPolicy, Site } from "../../../src/index.js";
import { isEmptyPolicy, mapPool } from "../../../src/fleet.js";
import { parseDuration } from "../../duration.js";
import { EXIT, exitCodeOf, UsageError, worstExitCode } from "../../exit-codes.js";
import { JOB_FLAGS } from "../../jobs/flags.js";
import { errorInfo, type ErrorInfo } from "../../jobs/report.js";
import { runJob } from "../../jobs/run-job.js";
import { errorLine, formatDuration } from "../../output/format.js";
import { createProgress } from "../../output/progress.js";
import { clean } from "../../../common/sanitize.js";
import { ALLOW_EMPTY_FLAG, SELECTION_FLAGS, selectionOf } from "../../sites.js";
import type { LeafSpec } from "../../spec.js";
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from "./create.js";
import { printPruneRecords, type PruneRecord } from "./prune-records.js";

const KEEP_RULES = [
  ["keep-last", "keepLast", "the N newest snapshots"],
  ["keep-hourly", "keepHourly", "the newest snapshot of each of the last N hours that have one"],
  ["keep-daily", "keepDaily", "the newest snapshot of each of the last N days that have one"],
  ["keep-weekly", "keepWeekly", "the newest snapshot of each of the last N ISO weeks that have one"],
  ["keep-monthly", "keepMonthly", "the newest snapshot of each of the last N months that have one"],
  ["keep-yearly", "keepYearly", "the newest snapshot of each of the last N years that have one"],
] as const;

export const pruneLeaf: LeafSpec = {
  name: "prune",
  aliases: ["forget"],
  summary: "delete old snapshots by a retention policy (restic's forget rules)",
  description:
    "Each --keep-* rule keeps the newest snapshot of each of its last N periods (N may be 'unlimited'); a rule\n" +
    "with periods left over also keeps the oldest snapshot. --older-than D keeps everything made less than D\n" +
    "before the site's newest snapshot (as restic's --keep-within), so a job whose snapshots stopped does not\n" +
    "age everything out. Failed snapshots count for no rule; running ones and the newest completed one are\n" +
    "never deleted. Periods are in the local time zone (TZ), or UTC with --utc.",
  flags: [
    ...SELECTION_FLAGS,
    ALLOW_EMPTY_FLAG,
    ...KEEP_RULES.map(([flag, , what]) => ({ name: flag, type: "string" as const, value: "N", description: `keep ${what}` })),
    {
      name: "older-than",
      type: "string",
      value: "DURATION",
      description: "delete only snapshots older than this before the site's newest one (30d, 12w, 36h)",
    },
    { name: "dry-run", short: "n", type: "boolean", description: "show what would be kept and deleted; delete nothing" },
    { name: "utc", type: "boolean", description: "count days, weeks, months in UTC instead of the local time zone" },
    { name: "concurrency", short: "c", type: "string", value: "N", description: `sites at a time, 1 to ${MAX_CONCURRENCY} (default ${DEFAULT_CONCURRENCY})` },
    ...JOB_FLAGS,
  ],
  jsonFields: ["site", "dry_run", "snapshots", "error"] satisfies (keyof PruneRecord)[],
  examples: [
    "siteops snapshot prune --all --keep-daily 7 --keep-weekly 4 --keep-monthly 12 --dry-run",
    "siteops snapshot prune --site Blog --keep-last 10 --older-than 30d",
  ],
  async run(ctx, parsed) {
    const selection = selectionOf(parsed);
    const policy = policyOf(parsed);
    const dryRun = flagBool(parsed, "dry-run") === true;
    const concurrency = flagInt(parsed, "concurrency", 1, MAX_CONCURRENCY) ?? DEFAULT_CONCURRENCY;
    const timeZone = flagBool(parsed, "utc") ? "utc" : "local";

    return runJob(ctx, parsed, {
      command: "snapshot prune",
      selection,
      work: async ({ sites }) => {
        const client = await ctx.client();
        const progress = createProgress(ctx.stderr, ctx.quiet);
        const started = Date.now();
        let done = 0;
        let records: PruneRecord[] = [];
        try {
          const header = () => progress.status(`prune${dryRun ? " (dry run)" : ""}: ${done}/${sites.length} sites, ${formatDuration(Date.now() - started)}`);
          records = await mapPool(sites, concurrency, async (site): Promise<PruneRecord> => {
            const record: PruneRecord = { site: { id: site.id, name: site.name, url: site.url }, dry_run: dryRun, snapshots: [], error: null };
            if (ctx.signal.aborted) return { ...record, error: { message: "not started: interrupted", code: "INTERRUPTED" } };
            const name = clean(site.name);
            progress.update(site.id, `${name}  listing snapshots`);
            header();
            let deleted = 0;
            try {
              const result = await client.operations.pruneSnapshots(site.id, policy, {
                dryRun,
                timeZone,
                signal: ctx.signal,
                onProgress: (event) => {
                  if (event.type === "snapshot.deleted") progress.update(site.id, `${name}  deleted ${++deleted}`);
                  else
                    progress.event(
                      `${name} (${clean(site.id)}): snapshot ${clean(event.snapshot.id)} kept: the service refused to delete it: ${errorLine(event.error, ctx.secrets)}`,
                      "warn",
                    );
                },
              });
              fill(record, result, ctx.secrets);
              if (result.error !== undefined) {
                record.error = errorInfo(result.error, ctx.secrets);
                if (!(ctx.signal.aborted && exitCodeOf(result.error) === EXIT.INTERRUPTED))
                  progress.event(`${name} (${clean(site.id)}): ${errorLine(result.error, ctx.secrets)}`, "error");
              }
              progress.event(siteLine(site, record));
            } catch (err) {
              record.error = errorInfo(err, ctx.secrets);
              if (!(ctx.signal.aborted && exitCodeOf(err) === EXIT.INTERRUPTED))
                progress.event(`${name} (${clean(site.id)}): ${errorLine(err, ctx.secrets)}`, "error");
            } finally {
              done++;
              progress.remove(site.id);
              header();
            }
            return record;
          });
        } finally {
          progress.close();
        }
        printPruneRecords(ctx, progress, records, Date.now() - started);
        const code = ctx.signal.aborted ? EXIT.INTERRUPTED : worstExitCode(records.map((r) => (r.error ? codeOf(r.error) : EXIT.OK)));
        return { code, report: { dry_run: dryRun, policy, results: records } };
      },
    });
  },
};

function codeOf(error: ErrorInfo): number {
  if (error.code === "AUTHENTICATION_FAILED" || error.code === "PERMISSION_DENIED") return EXIT.AUTH;
  if (error.code === "INTERRUPTED" || error.code === "ABORTED") return EXIT.INTERRUPTED;
  return EXIT.FAILED;
}

function policyOf(parsed: Parsed): RetentionPolicy {
  const policy: RetentionPolicy = {};
  for (const [flag, key] of KEEP_RULES) {
    const raw = flagString(parsed, flag);
    if (raw === undefined) continue;
    if (raw === "unlimited") policy[key] = -1;
    else policy[key] = flagInt(parsed, flag, 0, 1_000_000);
  }
  const olderThan = flagString(parsed, "older-than");
  if (olderThan !== undefined) policy.keepWithin = { ms: parseDuration(olderThan, "--older-than"), label: olderThan };
  if (isEmptyPolicy(policy)) {
    throw new UsageError(
      "no retention policy: give at least one of --keep-last, --keep-hourly, --keep-daily, --keep-weekly, --keep-monthly, --keep-yearly N, or --older-than DURATION",
    );
  }
  return policy;
}

function fill(record: PruneRecord, result: PruneResult, secrets: readonly string[]): void {
  const deleted = new Set(result.deleted.map((s) => s.id));
  const refused = new Map(result.refused.map((r) => [r.snapshot.id, r.error]));
  record.snapshots = result.decisions.map((d) => {
    const refusal = refused.get(d.snapshot.id);
    const action = d.keep ? "keep" : record.dry_run ? "delete" : deleted.has(d.snapshot.id) ? "deleted" : refusal ? "refused" : "not_deleted";
    return { snapshot: d.snapshot, action, reasons: d.reasons, error: refusal ? errorInfo(refusal, secrets) : null };
  });
}

function siteLine(site: Site, record: PruneRecord): string {
  const keep = record.snapshots.filter((s) => s.action === "keep" || s.action === "refused").length;
  const gone = record.snapshots.filter((s) => s.action === "deleted" || s.action === "delete").length;
  const verb = record.dry_run ? "would delete" : "deleted";
  return `${clean(site.name)}: ${verb} ${gone} of ${record.snapshots.length} snapshot${record.snapshots.length === 1 ? "" : "s"}, kept ${keep}`;
}
