// `siteops upgrade rollout`: an upgrade over a fleet in waves gated on evidence (the core's rolloutUpgrade), run
// as a scheduled job (cli/jobs/): lock, state and resume (--window), --report, --ping, --notify, --metrics-file.
// Here: the flags, the job's identity (the sites as resolved and the target), the progress lines and the output;
// the waves, the gates and the judging are the core's (src/operations/rollout*.ts).

import { flagBool, flagInt, flagList, flagString, type Parsed } from "../../args.js";
import type { Site } from "../../../src/index.js";
import {
  checkPathProblem,
  type FailureBudget,
  parseFailureBudget,
  parseWaves,
  planWaves,
  type RolloutEvent,
  type RolloutGate,
  ROLLOUT_GATES,
  rolloutUpgrade,
  RolloutSpecError,
  type RolloutTarget,
  type WaveSpec,
} from "../../../src/fleet.js";
import type { Context } from "../../context.js";
import { parseDuration } from "../../duration.js";
import { UsageError } from "../../exit-codes.js";
import { JOB_FLAGS } from "../../jobs/flags.js";
import { redactArgv } from "../../jobs/outbound.js";
import { runJob, selectedSitesIdentity } from "../../jobs/run-job.js";
import { openRolloutState } from "../../jobs/run-state.js";
import { formatDuration } from "../../output/format.js";
import { printRecords } from "../../output/printer.js";
import { createProgress, type Progress } from "../../output/progress.js";
import { pollIntervalFrom } from "../../poll-interval.js";
import { clean } from "../../../common/sanitize.js";
import { SELECTION_FLAGS, selectionOf, selectSites } from "../../sites.js";
import type { LeafSpec } from "../../spec.js";
import { printEnd, printRolloutRecords, printWave, ROLLOUT_JSON_FIELDS, rolloutCounts, rolloutExitCode, rolloutRecord, waveRecord } from "./rollout-records.js";

const VERSION = /^\d+\.\d+$/;
const DEFAULT_WAVES = "1,10%,100%";
/** A wave's time unless --timeout says otherwise: its pipelines, then its checks. */
const DEFAULT_WAVE_TIMEOUT = "1h";
/** A rerun within this long adopts the earlier run's pipelines: a rollout stopped on Friday and continued on
 * Monday still never opens a second pipeline for a site. */
const DEFAULT_WINDOW = "7d";
const MAX_CONCURRENCY = 64;

interface RolloutFlags {
  target: RolloutTarget;
  waves: WaveSpec[];
  gates: RolloutGate[];
  checkPaths: string[];
  checkBudget: number;
  maxFailures: FailureBudget;
  pause: number;
  requireApproval: boolean;
  concurrency: number;
  waveTimeout: number;
  healthWait: number;
  windowMs: number;
  dryRun: boolean;
}

/** Every flag checked before the run (exit 2 naming the flag). */
function rolloutFlags(parsed: Parsed): RolloutFlags {
  const wp = flagString(parsed, "to-wp");
  const php = flagString(parsed, "to-php");
  if (!wp && !php) throw new UsageError("give the target: --to-wp X.Y and/or --to-php X.Y");
  for (const [flag, v] of [
    ["to-wp", wp],
    ["to-php", php],
  ] as const) {
    if (v !== undefined && !VERSION.test(v)) throw new UsageError(`--${flag} must be a major.minor version such as 6.8 (got ${JSON.stringify(v)})`);
  }
  const spec = <T>(flag: string, read: () => T): T => {
    try {
      return read();
    } catch (err) {
      if (err instanceof RolloutSpecError) throw new UsageError(`--${flag}: ${err.message}`);
      throw err;
    }
  };
  const waves = spec("waves", () => parseWaves(flagString(parsed, "waves") ?? DEFAULT_WAVES));
  const maxFailures = spec("max-failures", () => parseFailureBudget(flagString(parsed, "max-failures") ?? "0"));
  const gateWords = flagList(parsed, "gate").flatMap((g) =>
    g
      .split(",")
      .map((w) => w.trim())
      .filter(Boolean),
  );
  const badGate = gateWords.find((g) => !(ROLLOUT_GATES as readonly string[]).includes(g));
  if (badGate !== undefined) throw new UsageError(`--gate must name ${ROLLOUT_GATES.join(", ")} (got ${JSON.stringify(badGate)})`);
  const gates = gateWords.length ? [...new Set(gateWords as RolloutGate[])] : [...ROLLOUT_GATES];
  const checkPaths = flagList(parsed, "check-path");
  for (const p of checkPaths) {
    const problem = checkPathProblem(p);
    if (problem) throw new UsageError(`--check-path ${problem} (got ${JSON.stringify(p)})`);
  }
  if (checkPaths.length && !gates.includes("http")) throw new UsageError("--check-path is for the http gate: add http to --gate");
  const zero = (text: string) => /^\s*0+(\.0+)?(ms|s|m|h|d|w)?\s*$/.test(text);
  const pauseText = flagString(parsed, "pause") ?? "0";
  const windowText = flagString(parsed, "window") ?? DEFAULT_WINDOW;
  return {
    target: { wp, php },
    waves,
    gates,
    checkPaths: checkPaths.length ? checkPaths : ["/"],
    checkBudget: parseDuration(flagString(parsed, "check-budget") ?? "5s", "--check-budget"),
    maxFailures,
    pause: zero(pauseText) ? 0 : parseDuration(pauseText, "--pause"),
    requireApproval: flagBool(parsed, "require-approval") === true,
    concurrency: flagInt(parsed, "concurrency", 1, MAX_CONCURRENCY) ?? 8,
    waveTimeout: parseDuration(flagString(parsed, "timeout") ?? DEFAULT_WAVE_TIMEOUT, "--timeout"),
    healthWait: parseDuration(flagString(parsed, "health-wait") ?? "10m", "--health-wait"),
    windowMs: zero(windowText) ? 0 : parseDuration(windowText, "--window"),
    dryRun: flagBool(parsed, "dry-run") === true,
  };
}

export const rolloutLeaf: LeafSpec = {
  name: "rollout",
  summary: "upgrade a fleet in waves, each judged on evidence before the next: a resumable job",
  description:
    "Opens upgrade pipelines wave by wave (--waves: cumulative counts or shares of the sites, in a stable order:\n" +
    "a rerun picks the same canaries), waits for each wave and judges each site: its pipeline succeeded (a\n" +
    "rollback is a failure), a health check after the upgrade is healthy, and GET of each --check-path on the\n" +
    "site's URL answers below 400, without a WordPress fatal-error page, within --check-budget. When a wave's\n" +
    "failures exceed --max-failures the rollout stops: later waves are not touched. A rerun of the same command\n" +
    "continues where it stopped and never opens a second pipeline for a site.\n" +
    "Exit codes: 0 done, 1 done with failures within the budget, 2 usage, 3 authentication, 4 a wave timed out,\n" +
    "5 stopped by a wave's gate, 75 another run holds the lock, 130 interrupted (pipelines carry on).",
  flags: [
    ...SELECTION_FLAGS,
    { name: "to-wp", type: "string", value: "X.Y", description: "target WordPress version" },
    { name: "to-php", type: "string", value: "X.Y", description: "target PHP version" },
    { name: "waves", type: "string", value: "LIST", description: `cumulative wave sizes, counts or shares, the last 100% (default ${DEFAULT_WAVES})` },
    {
      name: "gate",
      type: "string",
      multiple: true,
      value: "LIST",
      description: "what each site is judged on: pipeline, health, http (default all; the pipeline's outcome always counts)",
    },
    {
      name: "check-path",
      type: "string",
      multiple: true,
      value: "PATH",
      description: "a path of each site's URL the http gate asks for (repeatable; default /)",
    },
    { name: "check-budget", type: "string", value: "DURATION", description: "response-time budget of each HTTP check (default 5s)" },
    {
      name: "max-failures",
      type: "string",
      value: "N|P%",
      description: "failed sites a wave may have before the rollout stops: a count, or a share of the wave (default 0)",
    },
    { name: "pause", type: "string", value: "DURATION", description: "wait between a wave that passed and the next (default 0)" },
    { name: "require-approval", type: "boolean", description: "open each pipeline awaiting approval (siteops upgrade approve); its wave waits for it" },
    { name: "dry-run", type: "boolean", description: "print the waves and their sites; open nothing" },
    {
      name: "concurrency",
      short: "c",
      type: "string",
      value: "N",
      description: `sites in flight at a time within a wave, 1 to ${MAX_CONCURRENCY} (default 8)`,
    },
    { name: "timeout", type: "string", value: "DURATION", description: `time for each wave, pipelines and checks (default ${DEFAULT_WAVE_TIMEOUT})` },
    { name: "health-wait", type: "string", value: "DURATION", description: "how long to wait for a health check after an upgrade (default 10m)" },
    {
      name: "window",
      type: "string",
      value: "DURATION",
      description: `a rerun of the same rollout (same account, sites and target) within this long adopts the earlier run's pipelines (default ${DEFAULT_WINDOW}; 0: off)`,
    },
    ...JOB_FLAGS,
  ],
  jsonFields: ROLLOUT_JSON_FIELDS,
  examples: [
    "siteops upgrade rollout --all --to-wp 6.8 --waves 1,10%,100% --dry-run",
    "siteops upgrade rollout --all --to-wp 6.8 --to-php 8.3 --waves 1,10%,100% --check-path / --check-path /shop --max-failures 10% --pause 10m",
  ],
  async run(ctx, parsed) {
    const selection = selectionOf(parsed);
    const flags = rolloutFlags(parsed);
    let sites: Site[] = [];
    /** The job: the sites as resolved (--all as its flags) and the target. Waves, gates, budget and pace are not
     * part of it: a rerun with a larger --max-failures continues the same rollout. */
    const identity = async () => {
      sites = await selectSites(await ctx.client(), selection, ctx.signal);
      const selected = selectedSitesIdentity(parsed, selection.all, sites);
      return { selected, target: { wp: flags.target.wp ?? null, php: flags.target.php ?? null } };
    };
    return runJob(
      ctx,
      parsed,
      "upgrade rollout",
      async (job) => {
        if (flags.dryRun) return dryRun(ctx, sites, flags);
        const state = flags.windowMs > 0 ? openRolloutState(ctx.env, job.name, flags.windowMs, (line) => ctx.stderr.write(`warning: ${line}\n`)) : undefined;
        const progress = createProgress(ctx.stderr, ctx.quiet);
        try {
          const client = await ctx.client();
          const started = Date.now();
          const result = await rolloutUpgrade(client, sites, {
            ...flags,
            adopt: state?.earlier,
            onRequest: state ? (request) => state.record(request) : undefined,
            pollInterval: pollIntervalFrom(ctx.env),
            signal: ctx.signal,
            onProgress: onEvent(ctx, progress),
          });
          const again = `siteops upgrade rollout ${redactArgv(ctx.argv).join(" ")}`.trim();
          printEnd(progress, result, again, Date.now() - started);
          progress.close();
          const records = result.sites.map((r) => rolloutRecord(r, ctx.secrets));
          printRolloutRecords(ctx, records);
          const report = {
            outcome: result.outcome,
            target: flags.target,
            summary: rolloutCounts(records),
            waves: result.waves.map(waveRecord),
            results: records,
            continue: result.outcome === "done" ? null : again,
          };
          return { code: rolloutExitCode(ctx, result), report };
        } finally {
          progress.close();
          state?.close();
        }
      },
      identity,
    );
  },
};

/** The progress lines of a rollout's events. */
function onEvent(ctx: Context, progress: Progress): (event: RolloutEvent) => void {
  const name = (site: Site) => clean(site.name);
  let waves = 0;
  return (event) => {
    switch (event.type) {
      case "wave.paused":
        progress.event(`pausing ${formatDuration(event.ms)} before wave ${event.wave} (--pause)`, "notice");
        break;
      case "wave.started":
        waves = event.waves;
        progress.event(
          `wave ${event.wave}/${event.waves}: ${event.sites.length} site${event.sites.length === 1 ? "" : "s"} (${event.sites.slice(0, 5).map(name).join(", ")}${event.sites.length > 5 ? ", ..." : ""})`,
          "notice",
        );
        break;
      case "site.adopted":
        progress.event(`${name(event.site)}: pipeline ${clean(event.pipeline.id)} of an earlier run adopted (${clean(event.pipeline.status)})`);
        break;
      case "site.pipeline":
        if (event.opened) progress.event(`${name(event.site)}: pipeline ${clean(event.pipeline.id)} opened (${clean(event.pipeline.status)})`);
        else if (event.pipeline.status === "awaiting_approval")
          progress.event(
            `${name(event.site)}: pipeline ${clean(event.pipeline.id)} awaits approval: siteops upgrade approve ${clean(event.pipeline.id)} --site ${clean(event.site.id)}`,
            "notice",
          );
        progress.update(event.site.id, `${name(event.site)}  ${clean(event.pipeline.id)}  ${clean(event.pipeline.status)}`);
        break;
      case "site.finished":
        progress.remove(event.result.site.id);
        if (event.result.outcome === "passed")
          progress.event(
            `${name(event.result.site)}: passed (${event.result.checks
              .map((c) => c.gate)
              .filter((g, i, a) => a.indexOf(g) === i)
              .join(", ")})`,
          );
        break;
      case "wave.finished":
        printWave(progress, event.result, waves);
        break;
      default:
        break;
    }
  };
}

/** --dry-run: the waves and their sites, nothing opened. */
function dryRun(ctx: Context, sites: readonly Site[], flags: RolloutFlags): { code: number; report: Record<string, unknown> } {
  const plan = planWaves(sites, flags.waves, flags.target);
  plan.forEach((wave, i) => {
    ctx.stderr.write(`wave ${i + 1}/${plan.length}: ${wave.length} site${wave.length === 1 ? "" : "s"}\n`);
  });
  const records = plan.flatMap((wave, i) => wave.map((site) => ({ wave: i + 1, site: { id: site.id, name: site.name, url: site.url } })));
  if (!printRecords(ctx, records) && !ctx.quiet) {
    for (const r of records) ctx.stdout.write(`${r.wave}\t${clean(r.site.id)}\t${clean(r.site.name)}\n`);
  }
  return { code: 0, report: { dry_run: true, target: flags.target, waves: plan.map((w, i) => ({ wave: i + 1, sites: w.map((s) => s.id) })) } };
}
