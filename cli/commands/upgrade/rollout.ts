// `siteops upgrade rollout`: the core's rolloutUpgrade as a scheduled job (cli/jobs/: lock, state and resume within
// --window, --report, --ping, --notify, --metrics-file). Glue only: the flags are derived from the core's option
// declaration (ROLLOUT_OPTIONS) and read by it; the plan, the judging, the counts and the records are the core's
// (src/operations/rollout*.ts, docs/project-layout.md "Where each rollout rule lives"). Here: the job's identity,
// the progress lines, the end of the run as a person reads it at 300 sites, and the exit code.

import { flagBool, flagList, flagString, type FlagSpec, type Parsed } from "../../args.js";
import type { Site } from "../../../src/index.js";
import {
  defaultText,
  mergedWaveNote,
  planRollout,
  readRolloutSettings,
  ROLLOUT_OPTIONS,
  ROLLOUT_ROW_FIELDS,
  rolloutPlanRows,
  rolloutReport,
  rolloutRows,
  RolloutProgress,
  rolloutUpgrade,
  eventLines,
  planLines,
  endLines,
  type RolloutEvent,
  type RolloutResult,
  type RolloutRow,
  type RolloutSettings,
} from "../../../src/fleet.js";
import { clean } from "../../../common/sanitize.js";
import { shellCommand } from "../../../common/shell.js";
import type { Context } from "../../context.js";
import { parseDuration } from "../../duration.js";
import { EXIT, UsageError } from "../../exit-codes.js";
import { jobFlagsFor } from "../../jobs/flags.js";
import { redactArgv } from "../../jobs/outbound.js";
import { runJob } from "../../jobs/run-job.js";
import { openRolloutState } from "../../jobs/run-state.js";
import { errorLine, formatDuration } from "../../output/format.js";
import { printRecords } from "../../output/printer.js";
import { createProgress, type Progress } from "../../output/progress.js";
import { statusColor } from "../../output/style.js";
import { renderTable, type Column } from "../../output/table.js";
import { pollIntervalFrom } from "../../poll-interval.js";
import { ALLOW_EMPTY_FLAG, SELECTION_FLAGS, selectionOf } from "../../sites.js";
import type { LeafSpec } from "../../spec.js";
import { startRolloutVisual } from "./rollout-visual.js";

/** A rerun within this long adopts the earlier run's pipelines: a rollout stopped on Friday and continued on Monday
 * still never opens a second pipeline for a site. */
const DEFAULT_WINDOW = "7d";
const JOB = "upgrade rollout";

/** The rollout's flags, one per option of the core's declaration. */
const OPTION_FLAGS: FlagSpec[] = ROLLOUT_OPTIONS.map((o) => {
  const d = defaultText(o, "text");
  return {
    name: o.flag,
    ...(o.short ? { short: o.short } : {}),
    type: o.kind === "boolean" ? "boolean" : "string",
    ...(o.list ? { multiple: true } : {}),
    ...(o.value ? { value: o.value } : {}),
    description: `${o.description}${d !== undefined && o.kind !== "boolean" ? ` (default ${d})` : ""}`,
  };
});

/** The settings the flags give (the core reads and checks them), the first problem as a usage error (exit 2). */
function settingsOf(parsed: Parsed): { settings: RolloutSettings; dryRun: boolean; windowMs: number } {
  const { settings, dryRun, problems } = readRolloutSettings(
    (o) => {
      if (o.kind === "boolean") return flagBool(parsed, o.flag) === undefined ? undefined : [String(flagBool(parsed, o.flag))];
      if (o.list) return flagList(parsed, o.flag).length ? flagList(parsed, o.flag) : undefined;
      const v = flagString(parsed, o.flag);
      return v === undefined ? undefined : [v];
    },
    (o) => `--${o.flag}`,
    "text",
  );
  if (problems.length) throw new UsageError(problems[0]!);
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
    ...OPTION_FLAGS,
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
        command: JOB,
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

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

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
  const { headline, failures, untouched } = endLines(result);
  if (result.refusal) progress.event(refusalLine(ctx, result), "error");
  const level = result.outcome === "done" ? (result.counts.failed ? "warn" : "notice") : "error";
  progress.event(`${clean(headline)}, in ${formatDuration(elapsedMs)}`, level);
  for (const line of failures) progress.event(`  ${clean(line)}`, "error");
  if (untouched === null) return;
  progress.event(untouched, "error");
  const hint = result.outcome === "stopped" ? " (once the failed sites are dealt with, or with a larger --max-failures)" : "";
  progress.event(`to continue${hint}, run the same command again; it adopts this run's pipelines and opens none twice:`, "error");
  progress.event(`  ${again}`, "error");
}

/** Why the service refused the run: the credentials or permission with the CLI's advice, or the target in the
 * service's words (a usage error: nothing was opened). */
function refusalLine(ctx: Context, result: RolloutResult): string {
  const { reason, failure, error } = result.refusal!;
  if (reason !== "target") return `${errorLine(error, ctx.secrets)} The rollout stopped there: nothing more was opened.`;
  const request = failure.request_id ? `, request ${clean(failure.request_id)}` : "";
  return `${clean(failure.message)} [HTTP ${failure.status}${request}]: give a version the service offers; no pipeline was opened`;
}

/** 0 done and every site passed; 1 done with failures within the budget; 5 stopped by a gate; 4 a wave timed out; 130
 * interrupted; 3 credentials or permission refused, 2 the target refused: from the result, never from error text. */
function exitCode(ctx: Context, result: RolloutResult): number {
  if (result.refusal) return result.refusal.reason === "target" ? EXIT.USAGE : EXIT.AUTH;
  if (ctx.signal.aborted || result.outcome === "interrupted") return EXIT.INTERRUPTED;
  if (result.outcome === "stopped") return EXIT.STOPPED;
  if (result.outcome === "timed_out") return EXIT.TIMEOUT;
  return result.counts.failed ? EXIT.FAILED : EXIT.OK;
}

/** The sites on stdout: --json/--jsonl every record; else a table (terminal) or tab-separated lines (piped) of the
 * sites this run asked something of, the others counted on stderr (not one row each). */
function printRows(ctx: Context, rows: readonly RolloutRow[]): void {
  if (printRecords(ctx, rows) || ctx.quiet) return;
  const asked = rows.filter((r) => r.wave !== null && r.outcome !== "untouched");
  const untouched = rows.filter((r) => r.outcome === "untouched").length;
  const current = rows.filter((r) => r.wave === null).length;
  const style = ctx.stdout.style;
  const columns: Column<RolloutRow>[] = [
    { header: "WAVE", value: (r) => r.wave, align: "right" },
    { header: "SITE", value: (r) => (ctx.stdout.isTTY ? r.site.name : r.site.id) },
    ...(ctx.stdout.isTTY ? [] : [{ header: "NAME", value: (r: RolloutRow) => r.site.name }]),
    { header: "PIPELINE", value: (r) => r.pipeline?.id ?? "" },
    {
      header: "RESULT",
      value: (r) => r.outcome,
      display: (r) => (r.adopted ? `${r.outcome}, adopted` : r.outcome),
      color: (text) => text.replace(/[a-z_]+/, (w) => statusColor(style, w)),
    },
    { header: "WHY", value: (r) => r.error?.message ?? "" },
  ];
  if (asked.length) ctx.stdout.write(`${renderTable(asked, columns, { tty: ctx.stdout.isTTY, style, width: ctx.stdout.columns }).join("\n")}\n`);
  const apart = [
    ...(untouched ? [`${plural(untouched, "site")} untouched`] : []),
    ...(current ? [`${plural(current, "site")} already at the target, in no wave`] : []),
  ];
  if (apart.length) ctx.stderr.write(`not listed: ${apart.join("; ")} (--json lists every site)\n`);
}

/** --dry-run: the waves and their sites, the sites already at the target and any waves merged; nothing opened.
 * `earlier`: the sites an earlier run within --window asked for, which keep their place. */
function showPlan(
  ctx: Context,
  sites: readonly Site[],
  settings: RolloutSettings,
  earlier: readonly string[],
): { code: number; report: Record<string, unknown> } {
  const plan = planRollout(sites, settings.waves, settings.target, { earlier: new Set(earlier) });
  for (const line of planLines(plan, settings.target)) ctx.stderr.write(`${clean(line)}\n`);
  const rows = rolloutPlanRows(plan);
  if (!printRecords(ctx, rows) && !ctx.quiet) for (const r of rows) ctx.stdout.write(`${r.wave ?? "-"}\t${clean(r.site.id)}\t${clean(r.site.name)}\n`);
  return {
    code: EXIT.OK,
    report: {
      dry_run: true,
      target: settings.target,
      waves: plan.waves.map((w, i) => ({ wave: i + 1, sites: w.map((s) => s.id) })),
      current: plan.current.map((s) => s.id),
      merged: plan.merged.map(mergedWaveNote),
    },
  };
}
