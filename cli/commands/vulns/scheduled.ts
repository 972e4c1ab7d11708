// The scheduled form of `siteops vulns report` (with --notify, --ping, --metrics-file, --lock, --report: the job
// flags of cli/jobs/): the report runs as a job (its lock, its JSON report, metrics with
// siteops_vulnerabilities_open by severity) and --notify tells only the open records no earlier run told about,
// once (seen-records.ts keeps them; a failed delivery tells them again next time). A run with nothing new posts
// nothing. Called by report.ts with its own collect and emit steps.

import type { Site } from "../../../src/index.js";
import {
  openCountsWorstFirst,
  type VulnerabilityReport,
  vulnerabilityNews,
  vulnerabilityNewsBody,
  vulnerabilityNewsLines,
  vulnerabilitySiteResults,
} from "../../../src/fleet.js";
import type { FlagSpec, Parsed } from "../../args.js";
import type { Context } from "../../context.js";
import { anyFlagGiven, JOB_FLAGS } from "../../jobs/flags.js";
import { errorLine } from "../../output/format.js";
import { mrkdwn } from "../../jobs/outbound/notify.js";
import { capLines } from "../../jobs/outbound/run-facts.js";
import { type JobNews, notificationId } from "../../jobs/outbound.js";
import { runJob } from "../../jobs/run-job.js";
import type { CliSelection } from "../../sites.js";
import { openSeenRecords } from "../../jobs/seen-records.js";

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

/** New records a Slack message lists; the rest are counted. */
const SLACK_RECORDS = 30;
const SLACK_TEXT_LIMIT = 3_500;
const SLACK = { escape: mrkdwn, bold: (t: string) => `*${t}*`, code: (t: string) => `\`${t}\`` };

/** Runs the report as a job (report.ts gives the steps): runJob resolves the selection before the lock (the job
 * is the sites as resolved, like the snapshot job's), `collect` reads their records, `emit` prints the report and
 * gives the exit code; the core's vulnerabilityNews says what is new and what to remember once it is told. */
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
      const { fresh, told } = vulnerabilityNews(report, seen.seen);
      const open = openCountsWorstFirst(report);
      const news: JobNews = {
        delivery(runReport, format, name) {
          if (!fresh.length) return undefined;
          // The same news has the same id, in every attempt and in the next run when this one is not noted as told.
          const id = notificationId(name, ...fresh.map((r) => r.fingerprint).sort());
          if (format !== "slack") return { body: JSON.stringify(vulnerabilityNewsBody(name, runReport, open, fresh)), contentType: "application/json", id };
          const [head, ...lines] = vulnerabilityNewsLines(name, fresh, SLACK);
          const text = capLines([`:rotating_light: ${head}`, ...lines], SLACK_TEXT_LIMIT, (n) => `... and ${n} more`, 1 + SLACK_RECORDS).trimEnd();
          return { body: JSON.stringify({ text }), contentType: "application/json", id };
        },
        told: () => seen.save(told(new Date().toISOString())),
      };
      if (!ctx.quiet) ctx.stderr.write(`${fresh.length} open record${fresh.length === 1 ? "" : "s"} not seen by an earlier run of this job\n`);
      const results = vulnerabilitySiteResults(report, (err) => errorLine(err, ctx.secrets));
      return { code, report: { results, vulnerabilities: { open, new: fresh.length }, new_records: fresh }, news };
    },
  });
}
