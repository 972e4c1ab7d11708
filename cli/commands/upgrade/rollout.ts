// `siteops upgrade rollout`: the core's rolloutUpgrade as a scheduled job (cli/jobs/: lock, state and resume within
// --window, --report, --ping, --notify, --metrics-file). Glue only: the flags are derived from the core's option
// declaration (ROLLOUT_OPTIONS) and read by it; the plan, the judging, the counts and the records are the core's
// (src/operations/rollout*.ts, docs/project-layout.md "Where each rollout rule lives"). Here: the job's identity,
// the progress lines, the end of the run as a person reads it at 300 sites, and the exit code.

import { flagBool, flagList, flagString, type FlagSpec, type Parsed } from "../../args.js";
import type { Site } from "../../../src/index.js";
import {
  defaultText,
  failureGroups,
  formatTarget,
  mergedWaveNote,
  planRollout,
  readRolloutSettings,
  ROLLOUT_OPTIONS,
  ROLLOUT_ROW_FIELDS,
  rolloutPlanRows,
  rolloutReport,
  rolloutRows,
  rolloutTotals,
  rolloutUpgrade,
  type RolloutEvent,
  type RolloutResult,
  type RolloutRow,
  type RolloutSettings,
  type WaveResult,
} from "../../../src/fleet.js";
import { clean } from "../../../common/sanitize.js";
import { shellCommand } from "../../../common/shell.js";
import type { Context } from "../../context.js";
import { parseDuration } from "../../duration.js";
import { EXIT, UsageError } from "../../exit-codes.js";
import { jobFlagsFor } from "../../jobs/flags.js";
import { redactArgv } from "../../jobs/outbound.js";
import { runJob, selectedSitesIdentity } from "../../jobs/run-job.js";
import { openRolloutState } from "../../jobs/run-state.js";
import { errorLine, formatDuration } from "../../output/format.js";
import { printRecords } from "../../output/printer.js";
import { createProgress, type Progress, ProgressThrottle } from "../../output/progress.js";
import { statusColor } from "../../output/style.js";
import { renderTable, type Column } from "../../output/table.js";
import { pollIntervalFrom } from "../../poll-interval.js";
import { SELECTION_FLAGS, selectionOf, selectSites } from "../../sites.js";
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
    "3 credentials refused, 4 a wave timed out, 5 stopped by a wave's gate, 75 another run holds the lock,\n" +
    "130 interrupted (pipelines carry on).",
  flags: [
    ...SELECTION_FLAGS,
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
    let sites: Site[] = [];
    /** The job: the sites as resolved (--all as its flags) and the target. Waves, gates, budget and pace are not part
     * of it: a rerun with a larger --max-failures continues the same rollout. */
    const identity = async () => {
      sites = await selectSites(await ctx.client(), selection, ctx.signal);
      return { selected: selectedSitesIdentity(parsed, selection.all, sites), target: { wp: settings.target.wp ?? null, php: settings.target.php ?? null } };
    };
    // The visual gate's browser first: missing, it is one line and exit 2 before any request.
    const visual = await startRolloutVisual(ctx, settings, dryRun);
    const work = async (job: { name: string }) => {
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
            onProgress: onEvent(ctx, progress, started),
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
    };
    try {
      return await runJob(ctx, parsed, JOB, work, identity);
    } finally {
      await visual?.close();
    }
  },
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The progress of a rollout's events: the live header (terminal) or a line at most every 10 % or 30 s (logs) with
 * the wave's counts and elapsed time; a line per site that did not pass as it ends; a line per wave as it ends. */
function onEvent(ctx: Context, progress: Progress, started: number): (event: RolloutEvent) => void {
  const name = (site: Site) => clean(site.name);
  let waves = 0;
  let wave = { n: 0, members: 0, done: 0, failed: 0, running: 0, started };
  let throttle = new ProgressThrottle();
  const line = () =>
    `wave ${wave.n}/${waves}: ${wave.done}/${wave.members} done${wave.failed ? `, ${wave.failed} failed` : ""}, ${wave.running} running, ${formatDuration(Date.now() - wave.started)}`;
  return (event) => {
    switch (event.type) {
      case "wave.paused":
        progress.event(`pausing ${formatDuration(event.ms)} before wave ${event.wave} (--pause)`, "notice");
        break;
      case "wave.started":
        waves = event.waves;
        wave = { n: event.wave, members: event.sites.length, done: 0, failed: 0, running: 0, started: Date.now() };
        throttle = new ProgressThrottle();
        progress.event(
          `wave ${event.wave}/${event.waves}: ${plural(event.sites.length, "site")} (${event.sites.slice(0, 5).map(name).join(", ")}${event.sites.length > 5 ? ", ..." : ""}), at most ${event.allowed} may fail`,
          "notice",
        );
        progress.status(line);
        break;
      case "site.started":
        wave.running++;
        break;
      case "site.adopted":
        progress.event(`${name(event.site)}: pipeline ${clean(event.pipeline.id)} adopted (${clean(event.pipeline.status)}), not opened again`);
        break;
      case "site.pipeline":
        if (event.opened) progress.event(`${name(event.site)}: pipeline ${clean(event.pipeline.id)} opened (${clean(event.pipeline.status)})`);
        else if (event.pipeline.status === "awaiting_approval")
          progress.event(
            `${name(event.site)}: pipeline ${clean(event.pipeline.id)} awaits approval: ${shellCommand(["siteops", "upgrade", "approve", event.pipeline.id, "--site", event.site.id])}`,
            "notice",
          );
        progress.update(event.site.id, `${name(event.site)}  ${clean(event.pipeline.id)}  ${statusColor(ctx.stderr.style, clean(event.pipeline.status))}`);
        break;
      case "site.finished": {
        const r = event.result;
        progress.remove(r.site.id);
        wave.running--;
        wave.done = event.counts.sites;
        wave.failed = event.counts.failed;
        if (r.outcome === "passed") progress.event(`${name(r.site)}: passed (${[...new Set(r.checks.map((c) => c.gate))].join(", ")})`);
        else if (r.failure)
          progress.event(`${name(r.site)}: ${r.outcome.replace("_", " ")}: ${clean(r.failure.message)}`, r.outcome === "failed" ? "error" : "warn");
        if (throttle.due(wave.done, wave.members)) progress.event(line());
        break;
      }
      case "wave.finished":
        printWave(progress, event.result, waves);
        break;
      default:
        break;
    }
  };
}

/** The line a wave ends with: its denominator, its counts and the budget against them. */
function printWave(progress: Progress, w: WaveResult, waves: number): void {
  const c = w.counts;
  const verdict = {
    passed: "passed",
    stopped: "STOPPED: failures over the budget",
    timed_out: "timed out",
    interrupted: "interrupted",
    refused: "refused",
    not_started: "not started",
  }[w.verdict];
  const found = c.already_upgraded ? ` (${c.already_upgraded} found already at the target)` : "";
  const parts = [
    `${c.passed} passed`,
    `${c.failed} failed (at most ${w.allowed} allowed)`,
    ...(c.timed_out ? [`${c.timed_out} timed out`] : []),
    ...(c.untouched ? [`${c.untouched} not started`] : []),
    ...(c.adopted ? [`${c.adopted} adopted from an earlier run`] : []),
  ];
  progress.event(`wave ${w.wave}/${waves}: ${plural(w.size, "site")}${found}, ${parts.join(", ")}: ${verdict}`, w.verdict === "passed" ? "notice" : "error");
}

/** The end of the run on stderr: the totals, why it stopped, the failed sites grouped by reason (each reason once),
 * the count of sites left untouched and the command that continues. */
function printEnd(ctx: Context, progress: Progress, result: RolloutResult, again: string, elapsedMs: number): void {
  const c = result.counts;
  const level = result.outcome === "done" ? (c.failed ? "warn" : "notice") : "error";
  for (const m of result.merged) progress.event(`note: ${mergedWaveNote(m)}`, "notice");
  if (result.refusal) progress.event(refusalLine(ctx, result), "error");
  progress.event(`${result.outcome === "done" ? "done" : stopLine(result)}: ${rolloutTotals(c, result.target)}, in ${formatDuration(elapsedMs)}`, level);
  for (const group of failureGroups(rolloutRows(result)).filter((g) => g.code !== "INTERRUPTED")) {
    const names = group.rows.slice(0, 5).map((r) => clean(r.site.name));
    const more = group.rows.length > 5 ? `, and ${group.rows.length - 5} more` : "";
    progress.event(
      `  ${plural(group.rows.length, "site")} ${group.rows[0]!.outcome.replace("_", " ")}: ${clean(group.reason)} (${names.join(", ")}${more})`,
      "error",
    );
  }
  if (result.outcome === "done" || result.refusal?.reason === "target") return;
  const left = result.sites.filter((s) => s.outcome === "untouched");
  const waves = [...new Set(left.map((s) => s.wave))];
  progress.event(
    left.length
      ? `left untouched: ${plural(left.length, "site")} (wave${waves.length === 1 ? "" : "s"} ${waves.join(", ")}); nothing was asked of the service for them`
      : "no site was left untouched: every wave ran",
    "error",
  );
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

function stopLine(result: RolloutResult): string {
  const at = result.waves.find((w) => w.verdict !== "passed" && w.verdict !== "not_started");
  if (result.outcome === "stopped")
    return `stopped at wave ${at?.wave}: ${at?.counts.failed} failed of ${at?.size}, at most ${at?.allowed} allowed (--max-failures)`;
  if (result.outcome === "timed_out") return `stopped at wave ${at?.wave}: --timeout ran out before every site was judged (their pipelines carry on)`;
  if (result.outcome === "refused") return `stopped at wave ${at?.wave}: refused by the service`;
  return "interrupted (pipelines already opened carry on in the service)";
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
  for (const m of plan.merged) ctx.stderr.write(`note: ${mergedWaveNote(m)}\n`);
  plan.waves.forEach((wave, i) => ctx.stderr.write(`wave ${i + 1}/${plan.waves.length}: ${plural(wave.length, "site")}\n`));
  if (plan.current.length) ctx.stderr.write(`${plural(plan.current.length, "site")} already at ${formatTarget(settings.target)} or newer: in no wave\n`);
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
