// `siteops upgrade rollout`: the core's rolloutUpgrade as a scheduled job (cli/jobs/: lock, state and resume within
// --window, --report, --ping, --notify, --metrics-file). Glue only: the flags are derived from the core's option
// declaration (ROLLOUT_OPTIONS) and read by it; the plan, the judging, the counts and the records are the core's
// (src/operations/rollout*.ts, docs/project-layout.md "Where each rollout rule lives"). Here: the job's identity,
// the progress lines, the end of the run as a person reads it at 300 sites, and the exit code.

import { flagString, type Parsed } from "../../args.js";
import type { Site } from "../../../src/index.js";
import {
  askedRows,
  continueLines,
  defaultText,
  endLines,
  eventLines,
  notListedLine,
  planLines,
  planRollout,
  readRolloutSettings,
  ROLLOUT_OPTIONS,
  ROLLOUT_ROW_FIELDS,
  rolloutColumns,
  rolloutFailureLine,
  rolloutPlanReport,
  rolloutPlanRows,
  RolloutProgress,
  rolloutReport,
  rolloutRows,
  rolloutUpgrade,
  rolloutVerdict,
  type RolloutEvent,
  type RolloutResult,
  type RolloutRow,
  type RolloutSettings,
} from "../../../src/fleet.js";
import { clean } from "../../../common/sanitize.js";
import { shellCommand } from "../../../common/shell.js";
import type { Context } from "../../context.js";
import { parseDuration } from "../../duration.js";
import { EXIT, EXIT_OF_VERDICT } from "../../exit-codes.js";
import { jobFlagsFor } from "../../jobs/flags.js";
import { redactArgv } from "../../jobs/outbound.js";
import { runJob } from "../../jobs/run-job.js";
import { openRolloutState } from "../../jobs/run-state.js";
import { flagLabel, flagValues, optionFlags, refuseProblems } from "../../option-flags.js";
import { errorLine, formatDuration } from "../../output/format.js";
import { printRecords, writeTable } from "../../output/printer.js";
import { createProgress, type Progress } from "../../output/progress.js";
import { statusColor } from "../../output/style.js";
import { pollIntervalFrom } from "../../poll-interval.js";
import { ALLOW_EMPTY_FLAG, SELECTION_FLAGS, selectionOf } from "../../sites.js";
import type { LeafSpec } from "../../spec.js";
import { startRolloutVisual } from "./rollout-visual.js";

/** A rerun within this long adopts the earlier run's pipelines: a rollout stopped on Friday and continued on Monday
 * still never opens a second pipeline for a site. */
const DEFAULT_WINDOW = "7d";

/** The settings the flags give (the core reads and checks them), the first problem as a usage error (exit 2). */
function settingsOf(parsed: Parsed): { settings: RolloutSettings; dryRun: boolean; windowMs: number } {
  const { settings, dryRun, problems } = readRolloutSettings(flagValues(parsed), flagLabel, "text");
  refuseProblems(problems);
  const window = flagString(parsed, "window") ?? DEFAULT_WINDOW;
  return { settings, dryRun, windowMs: /^\s*0+(\.0+)?[a-z]*\s*$/.test(window) ? 0 : parseDuration(window, "--window") };
}

export const rolloutLeaf: LeafSpec = {
  name: "rollout",
  summary: "upgrade a fleet in waves, each judged on evidence before the next: a resumable job",
  description:
    "Opens upgrade pipelines wave by wave over the sites that need the upgrade (--waves: cumulative counts or shares\n" +
    "of them, in a stable order: a rerun picks the same canaries; sites already at the target are listed apart),\n" +
    "waits for each wave and judges each site: its pipeline succeeded (a rollback is a failure; a state siteops does\n" +
    "not know is judged on the site's own versions), a health check after the upgrade is healthy, and GET of each\n" +
    "--check-path on the site's URL answers below 400, without a WordPress fatal-error page, within --check-budget;\n" +
    "with --gate visual, each --check-path shot before its pipeline is opened and after, in the machine's Chrome or\n" +
    "Chromium, changes no more than --visual-threshold (the images and HTML reports in --artifacts).\n" +
    "When a wave's failures exceed --max-failures, or its --timeout passes, it opens nothing more and the rollout\n" +
    "stops: later waves are not touched. A rerun of the same command continues where it stopped and never opens a\n" +
    "second pipeline for a site.\n" +
    "Exit codes: 0 done, 1 done with failures within the budget, 2 usage (a target the service refuses too),\n" +
    "3 credentials refused, 4 a wave timed out, 5 stopped by a wave's gate, 6 no site selected, 75 another run holds\n" +
    "the lock, 130 interrupted (pipelines carry on).",
  flags: [
    ...SELECTION_FLAGS,
    ALLOW_EMPTY_FLAG,
    // One per option of the core's declaration, its default in the help.
    ...optionFlags(ROLLOUT_OPTIONS, (o) => defaultText(o, "text")),
    {
      name: "window",
      type: "string",
      value: "DURATION",
      description: `a rerun of the same rollout (same account, sites and target) within this long adopts the earlier run's pipelines (default ${DEFAULT_WINDOW}; 0: off)`,
    },
    ...jobFlagsFor("upgrade-rollout"),
  ],
  jsonFields: [...ROLLOUT_ROW_FIELDS],
  examples: [
    "siteops upgrade rollout --all --to-wp 6.8 --waves 1,10%,100% --dry-run",
    "siteops upgrade rollout --all --to-wp 6.8 --to-php 8.3 --waves 1,10%,100% --check-path / --check-path /shop --max-failures 10% --pause 10m",
  ],
  async run(ctx, parsed) {
    const selection = selectionOf(parsed);
    const { settings, dryRun, windowMs } = settingsOf(parsed);
    // The visual gate's browser first: missing, it is one line and exit 2 before any request.
    const visual = await startRolloutVisual(ctx, settings, dryRun);
    try {
      return await runJob(ctx, parsed, {
        command: "upgrade rollout",
        selection,
        /** The job: the sites as resolved (--all as its flags) and the target. Waves, gates, budget and pace are not
         * part of it: a rerun with a larger --max-failures continues the same rollout. */
        identity: { target: { wp: settings.target.wp ?? null, php: settings.target.php ?? null } },
        async work({ job, sites }) {
          const state = windowMs > 0 ? openRolloutState(ctx.env, job.name, windowMs, (line) => ctx.stderr.write(`warning: ${line}\n`)) : undefined;
          try {
            if (dryRun) return showPlan(ctx, sites, settings, state?.earlier.map((r) => r.siteId) ?? []);
            const progress = createProgress(ctx.stderr, ctx.quiet);
            const started = Date.now();
            try {
              const result = await rolloutUpgrade(await ctx.client(), sites, {
                ...settings,
                adopt: state?.earlier,
                onRequest: state ? (request) => state.record(request) : undefined,
                pollInterval: pollIntervalFrom(ctx.env),
                signal: ctx.signal,
                onProgress: onEvent(ctx, progress),
                visual: visual?.open(job.name),
              });
              const again = `siteops upgrade rollout ${shellCommand(redactArgv(ctx.argv))}`.trim();
              printEnd(ctx, progress, result, again, Date.now() - started);
              progress.close();
              const pictures = visual?.finish();
              printRows(ctx, rolloutRows(result));
              const report = { ...rolloutReport(result), continue: result.outcome === "done" ? null : again, ...(pictures ? { visual: pictures } : {}) };
              return { code: exitCode(ctx, result), report };
            } finally {
              progress.close();
            }
          } finally {
            state?.close();
          }
        },
      });
    } finally {
      await visual?.close();
    }
  },
};

/** The progress of a rollout's events (the core's words): each event's line; the wave's counts and time as the
 * terminal's live header, or a log line at every 10 % or 30 s; a live line per site in flight. */
function onEvent(ctx: Context, progress: Progress): (event: RolloutEvent) => void {
  const counts = new RolloutProgress();
  return (event) => {
    counts.onEvent(event);
    for (const said of eventLines(event)) progress.event(clean(said.text), said.level);
    if (event.type === "wave.started") progress.status(() => counts.line());
    else if (event.type === "site.pipeline") {
      const p = event.pipeline;
      if (p.status === "awaiting_approval" && !event.opened)
        progress.event(`  to approve it: ${shellCommand(["siteops", "upgrade", "approve", p.id, "--site", event.site.id])}`, "notice");
      progress.update(event.site.id, `${clean(event.site.name)}  ${clean(p.id)}  ${statusColor(ctx.stderr.style, clean(p.status))}`);
    } else if (event.type === "site.finished") {
      progress.remove(event.result.site.id);
      if (counts.due()) progress.event(counts.line());
    }
  };
}

/** The end of the run on stderr (the core's words): why it stopped with the totals, each failure reason once with its
 * sites, the sites left untouched, and the command that continues. */
function printEnd(ctx: Context, progress: Progress, result: RolloutResult, again: string, elapsedMs: number): void {
  const { headline, level, failures, untouched } = endLines(result);
  if (result.refusal) progress.event(clean(rolloutFailureLine(result, (err) => errorLine(err, ctx.secrets))), "error");
  progress.event(`${clean(headline)}, in ${formatDuration(elapsedMs)}`, level);
  for (const line of failures) progress.event(`  ${clean(line)}`, "error");
  if (untouched === null) return;
  for (const line of [untouched, ...continueLines(result, again, "--max-failures")]) progress.event(line, "error");
}

/** The exit code of the core's verdict; an interrupt the core did not see end the run (it came as the run
 * finished) is still 130. */
function exitCode(ctx: Context, result: RolloutResult): number {
  return ctx.signal.aborted && !result.refusal ? EXIT.INTERRUPTED : EXIT_OF_VERDICT[rolloutVerdict(result)];
}

/** The sites on stdout: --json/--jsonl every record; else a table (terminal) or tab-separated lines (piped) of the
 * sites this run asked something of, the others counted on stderr (not one row each). */
function printRows(ctx: Context, rows: readonly RolloutRow[]): void {
  if (printRecords(ctx, rows) || ctx.quiet) return;
  const paint = (text: string) => text.replace(/[a-z_]+/, (w) => statusColor(ctx.stdout.style, w));
  writeTable(ctx, askedRows(rows), rolloutColumns(ctx.stdout.isTTY), { RESULT: paint });
  const apart = notListedLine(rows);
  if (apart) ctx.stderr.write(`${apart} (--json lists every site)\n`);
}

/** --dry-run: the waves and their sites, the sites already at the target and any waves merged; nothing opened.
 * `earlier`: the sites an earlier run within --window asked for, which keep their place. */
function showPlan(ctx: Context, sites: readonly Site[], settings: RolloutSettings, earlier: readonly string[]) {
  const plan = planRollout(sites, settings.waves, settings.target, { earlier: new Set(earlier) });
  for (const line of planLines(plan, settings.target)) ctx.stderr.write(`${clean(line)}\n`);
  const rows = rolloutPlanRows(plan);
  if (!printRecords(ctx, rows) && !ctx.quiet) for (const r of rows) ctx.stdout.write(`${r.wave ?? "-"}\t${clean(r.site.id)}\t${clean(r.site.name)}\n`);
  return { code: EXIT.OK, report: rolloutPlanReport(plan, settings.target) };
}
