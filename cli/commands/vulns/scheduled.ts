// The scheduled form of `siteops vulns report` (with --notify, --ping, --metrics-file, --lock, --report: the job
// flags of cli/jobs/): the report runs as a job (its lock, its JSON report, metrics with
// siteops_vulnerabilities_open by severity) and --notify tells only the open records no earlier run told about,
// once (seen-records.ts keeps them; a failed delivery tells them again next time). A run with nothing new posts
// nothing. Called by report.ts with its own collect and emit steps.

import type { Site } from "../../../src/index.js";
import type { VulnerabilityReport, VulnerabilityReportRow } from "../../../src/fleet.js";
import { openCountsWorstFirst, vulnerabilityReportRows, vulnerabilitySiteResults } from "../../../src/fleet.js";
import type { FlagSpec, Parsed } from "../../args.js";
import type { Context } from "../../context.js";
import { anyFlagGiven, JOB_FLAGS } from "../../jobs/flags.js";
import { errorLine } from "../../output/format.js";
import { mrkdwn } from "../../jobs/outbound/notify.js";
import { capLines } from "../../jobs/outbound/run-facts.js";
import type { Delivery } from "../../jobs/outbound/delivery.js";
import { type JobNews, notificationId } from "../../jobs/outbound.js";
import { runJob } from "../../jobs/run-job.js";
import type { CliSelection } from "../../sites.js";
import { openSeenRecords, type Seen } from "../../jobs/seen-records.js";

const DESCRIPTIONS: Record<string, string> = {
  notify: "post the open records no earlier run told about (once) to URL; nothing when none is new; default $SITEOPS_NOTIFY_URL",
  "notify-format": "what --notify posts: the new records as JSON, or a Slack message listing them (default json)",
  "job-name": "the job's name in metrics (job_name label), pings and notifications (default vulns-report)",
};

/** The job flags `vulns report` takes: all but --notify-on (it notifies when there is something new). */
export const REPORT_JOB_FLAGS: FlagSpec[] = JOB_FLAGS.filter((f) => f.name !== "notify-on").map((f) =>
  DESCRIPTIONS[f.name] ? { ...f, description: DESCRIPTIONS[f.name]! } : f,
);

/** A job flag, on the command line or through its environment variable (SITEOPS_NOTIFY_URL, SITEOPS_PING_URL),
 * makes the run the scheduled form. */
export function isScheduled(parsed: Parsed, env: NodeJS.ProcessEnv): boolean {
  return anyFlagGiven(parsed, REPORT_JOB_FLAGS, env);
}

/** New records a JSON notification lists (about 1 MB; receivers refuse larger bodies); `new_count` counts all. */
const MAX_JSON_RECORDS = 1000;
/** New records a Slack message lists; the rest are counted. */
const SLACK_RECORDS = 30;
const SLACK_TEXT_LIMIT = 3_500;

/** Runs the report as a job (report.ts gives the steps): runJob resolves the selection before the lock (the job
 * is the sites as resolved, like the snapshot job's), `collect` reads their records, `emit` prints the report and
 * gives the exit code. */
export function runScheduledReport(
  ctx: Context,
  parsed: Parsed,
  steps: {
    selection: CliSelection;
    collect(sites: readonly Site[]): Promise<VulnerabilityReport>;
    emit(report: VulnerabilityReport): number;
  },
): Promise<number> {
  return runJob(ctx, parsed, {
    command: "vulns report",
    selection: steps.selection,
    news: true,
    async work({ job, sites }) {
      const seen = openSeenRecords(ctx.env, job.name, (line) => ctx.stderr.write(`warning: ${line}\n`));
      const report = await steps.collect(sites);
      const code = steps.emit(report);
      const open = vulnerabilityReportRows(report).filter((r) => !r.suppressed);
      const fresh = open.filter((r) => !seen.seen.has(r.fingerprint));
      const failed = new Set(report.failures.map((f) => f.site.id));
      const news: JobNews = {
        delivery(runReport, format, name) {
          if (!fresh.length) return undefined;
          // The same news has the same id, in every attempt and in the next run when this one is not noted as told.
          const id = notificationId(name, ...fresh.map((r) => r.fingerprint).sort());
          return format === "slack" ? slackNews(name, fresh, id) : jsonNews(runReport, name, fresh, id);
        },
        told() {
          // What is open now, and what sites not read this run had: a site that failed once is not told again.
          const now = new Date().toISOString();
          const next = new Map<string, Seen>(open.map((r) => [r.fingerprint, { site: r.site_id, at: seen.seen.get(r.fingerprint)?.at ?? now }]));
          for (const [fingerprint, entry] of seen.seen) if (failed.has(entry.site) && !next.has(fingerprint)) next.set(fingerprint, entry);
          seen.save(next);
        },
      };
      if (!ctx.quiet) ctx.stderr.write(`${fresh.length} open record${fresh.length === 1 ? "" : "s"} not seen by an earlier run of this job\n`);
      return {
        code,
        report: {
          results: vulnerabilitySiteResults(report, (err) => errorLine(err, ctx.secrets)),
          vulnerabilities: { open: openCountsWorstFirst(report), new: fresh.length },
          new_records: fresh,
        },
        news,
      };
    },
  });
}

function jsonNews(report: Record<string, unknown>, job: string, fresh: VulnerabilityReportRow[], id: string): Delivery {
  const body = {
    type: "siteops.vulnerabilities.new",
    job,
    started_at: report.started_at,
    finished_at: report.finished_at,
    open: (report.vulnerabilities as { open: unknown }).open,
    // The worst first (the report's order); a first run over a large fleet lists the first ones and counts all.
    new_count: fresh.length,
    new_records: fresh.slice(0, MAX_JSON_RECORDS),
  };
  return { body: JSON.stringify(body), contentType: "application/json", id };
}

function slackNews(job: string, fresh: VulnerabilityReportRow[], id: string): Delivery {
  const sites = new Set(fresh.map((r) => r.site_id)).size;
  const head = `:rotating_light: *siteops vulns report* (job \`${mrkdwn(job)}\`): ${fresh.length} new open vulnerability record${fresh.length === 1 ? "" : "s"} on ${sites} site${sites === 1 ? "" : "s"}`;
  const lines = fresh.map(
    (r) =>
      `• *${mrkdwn(r.site_name)}*: ${mrkdwn(r.software_name || r.software_slug)} ${mrkdwn(r.installed_version)}: ${mrkdwn(r.title)} (${r.severity}; ${r.fixed_in ? `fixed in ${mrkdwn(r.fixed_in)}` : "no fix yet"}${r.cve ? `; ${mrkdwn(r.cve)}` : ""})`,
  );
  const text = capLines([head, ...lines], SLACK_TEXT_LIMIT, (n) => `... and ${n} more`, 1 + SLACK_RECORDS).trimEnd();
  return { body: JSON.stringify({ text }), contentType: "application/json", id };
}
