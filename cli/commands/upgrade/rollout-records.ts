// The outcome of `upgrade rollout` per site and per wave: its JSON form (--json, --report), its exit code, and how
// it is printed: a line per wave as it ends (with its failed sites and why), then what is left and the command
// that continues, then the sites on stdout.

import type { GateCheck, RolloutResult, SiteRolloutResult, WaveResult } from "../../../src/fleet.js";
import { AuthenticationError, PermissionDeniedError } from "../../../src/index.js";
import type { Context } from "../../context.js";
import { EXIT } from "../../exit-codes.js";
import { errorInfo, type ErrorInfo } from "../../jobs/report.js";
import { formatDuration } from "../../output/format.js";
import { printRecords } from "../../output/printer.js";
import type { Progress } from "../../output/progress.js";
import { clean } from "../../../common/sanitize.js";
import { statusColor } from "../../output/style.js";
import { renderTable, type Column } from "../../output/table.js";

export interface RolloutRecord {
  site: { id: string; name: string; url: string };
  wave: number;
  outcome: SiteRolloutResult["outcome"];
  /** Its pipeline is one an earlier run (or someone else) opened, adopted rather than opened again. */
  adopted: boolean;
  pipeline: { id: string; status: string; error: string | null } | null;
  checks: GateCheck[];
  /** Why it failed, timed out or was interrupted. */
  error: ErrorInfo | null;
  duration_ms: number;
}

export const ROLLOUT_JSON_FIELDS = ["site", "wave", "outcome", "adopted", "pipeline", "checks", "error", "duration_ms"] satisfies (keyof RolloutRecord)[];

export function rolloutRecord(r: SiteRolloutResult, secrets: readonly string[]): RolloutRecord {
  let error: ErrorInfo | null = null;
  if (r.reason !== null) {
    const code =
      r.outcome === "timed_out" ? "WAIT_TIMEOUT" : r.outcome === "interrupted" ? "INTERRUPTED" : r.checks.some((c) => !c.ok) ? "GATE_FAILED" : "FAILED";
    error = r.error !== null && r.outcome === "failed" && !r.checks.some((c) => !c.ok) ? errorInfo(r.error, secrets) : { message: clean(r.reason), code };
  }
  const p = r.pipeline;
  return {
    site: { id: r.site.id, name: r.site.name, url: r.site.url },
    wave: r.wave,
    outcome: r.outcome,
    adopted: r.adopted,
    pipeline: p ? { id: p.id, status: p.status, error: p.error ?? null } : null,
    checks: r.checks,
    error,
    duration_ms: r.durationMs,
  };
}

/** Sites by outcome; pipelines this run opened, and those it adopted. */
export function rolloutCounts(records: readonly RolloutRecord[]) {
  const out = { total: records.length, passed: 0, failed: 0, timed_out: 0, interrupted: 0, already_upgraded: 0, untouched: 0, opened: 0, adopted: 0 };
  for (const r of records) {
    out[r.outcome]++;
    if (r.adopted) out.adopted++;
    else if (r.pipeline) out.opened++;
  }
  return out;
}

/** The wave as the report keeps it. */
export function waveRecord(w: WaveResult) {
  return { wave: w.wave, verdict: w.verdict, sites: w.sites.length, failed: w.failed, allowed: w.allowed };
}

/** 0 done and every site passed; 1 done with failures within the budget; 5 stopped by a gate; 4 a wave timed
 * out; 130 interrupted; 3 when credentials were refused on the way. */
export function rolloutExitCode(ctx: Context, result: RolloutResult): number {
  if (ctx.signal.aborted || result.outcome === "interrupted") return EXIT.INTERRUPTED;
  if (result.sites.some((s) => s.error instanceof AuthenticationError || s.error instanceof PermissionDeniedError)) return EXIT.AUTH;
  if (result.outcome === "stopped") return EXIT.STOPPED;
  if (result.outcome === "timed_out") return EXIT.TIMEOUT;
  return result.sites.some((s) => s.outcome === "failed") ? EXIT.FAILED : EXIT.OK;
}

/** The line a wave ends with, and one per site that did not pass. */
export function printWave(progress: Progress, w: WaveResult, waves: number): void {
  const passed = w.sites.filter((s) => s.outcome === "passed").length;
  const already = w.sites.filter((s) => s.outcome === "already_upgraded").length;
  const untouchedHere = w.sites.filter((s) => s.outcome === "untouched").length;
  const adopted = w.sites.filter((s) => s.adopted).length;
  const timedOut = w.sites.filter((s) => s.outcome === "timed_out").length;
  const verdict = {
    passed: "passed",
    stopped: "STOPPED: failures over the budget",
    timed_out: "timed out",
    interrupted: "interrupted",
    not_started: "not started",
  }[w.verdict];
  const parts = [
    `${passed} passed`,
    `${w.failed} failed (at most ${w.allowed} allowed)`,
    ...(timedOut ? [`${timedOut} timed out`] : []),
    ...(already ? [`${already} already at the target`] : []),
    ...(w.verdict === "stopped" && untouchedHere ? [`${untouchedHere} not started`] : []),
    ...(adopted ? [`${adopted} adopted from an earlier run`] : []),
  ];
  const line = `wave ${w.wave}/${waves}: ${w.sites.length} site${w.sites.length === 1 ? "" : "s"}, ${parts.join(", ")}: ${verdict}`;
  progress.event(line, w.verdict === "passed" ? "notice" : "error");
  for (const s of w.sites) {
    if (s.outcome === "passed" || s.reason === null) continue;
    progress.event(
      `  ${clean(s.site.name)} (${clean(s.site.id)}): ${s.outcome.replace("_", " ")}: ${clean(s.reason)}`,
      s.outcome === "failed" ? "error" : "warn",
    );
  }
}

/** What is left after the run, and the command that continues it. */
export function printEnd(progress: Progress, result: RolloutResult, again: string, elapsedMs: number): void {
  const left = result.sites.filter((s) => s.outcome === "untouched");
  const waves = [...new Set(left.map((s) => s.wave))];
  const done = result.sites.filter((s) => s.outcome === "passed").length;
  const already = result.sites.filter((s) => s.outcome === "already_upgraded").length;
  const failed = result.sites.filter((s) => s.outcome === "failed").length;
  if (result.outcome === "done") {
    const tail = `${already ? `, ${already} already at the target` : ""}${failed ? `, ${failed} failed within the budget` : ""}`;
    progress.event(
      `done: ${done} of ${result.sites.length} sites upgraded and passed their gates${tail}, in ${formatDuration(elapsedMs)}`,
      failed ? "warn" : "notice",
    );
    return;
  }
  const why = {
    stopped: `stopped at wave ${result.waves.find((w) => w.verdict === "stopped")?.wave}: its failures exceeded --max-failures`,
    timed_out: `stopped at wave ${result.waves.find((w) => w.verdict === "timed_out")?.wave}: --timeout ran out before every site was judged (their pipelines carry on)`,
    interrupted: "interrupted (pipelines already opened carry on in the service)",
  }[result.outcome];
  progress.event(`${why}; ${done} passed, ${failed} failed, in ${formatDuration(elapsedMs)}`, "error");
  progress.event(
    left.length
      ? `left untouched: ${left.length} site${left.length === 1 ? "" : "s"} (wave${waves.length === 1 ? "" : "s"} ${waves.join(", ")}); nothing was asked of the service for them`
      : "left: no site untouched",
    "error",
  );
  const hint = result.outcome === "stopped" ? " (once the failed sites are dealt with, or with a larger --max-failures)" : "";
  progress.event(`to continue${hint}, run the same command again; it adopts this run's pipelines and opens none twice: ${again}`, "error");
}

/** The sites on stdout: --json/--jsonl records, or a table (terminal) / tab-separated lines (piped). */
export function printRolloutRecords(ctx: Context, records: readonly RolloutRecord[]): void {
  if (printRecords(ctx, records) || ctx.quiet || records.length === 0) return;
  const style = ctx.stdout.style;
  const columns: Column<RolloutRecord>[] = [
    { header: "WAVE", value: (r) => r.wave, align: "right" },
    { header: "SITE", value: (r) => (ctx.stdout.isTTY ? r.site.name : r.site.id) },
    ...(ctx.stdout.isTTY ? [] : [{ header: "NAME", value: (r: RolloutRecord) => r.site.name }]),
    { header: "PIPELINE", value: (r) => r.pipeline?.id ?? "" },
    {
      header: "RESULT",
      value: (r) => r.outcome,
      display: (r) => (r.adopted ? `${r.outcome}, adopted` : r.outcome),
      color: (text) => text.replace(/[a-z_]+/, (w) => statusColor(style, w)),
    },
    { header: "WHY", value: (r) => r.error?.message ?? "" },
  ];
  ctx.stdout.write(`${renderTable(records, columns, { tty: ctx.stdout.isTTY, style, width: ctx.stdout.columns }).join("\n")}\n`);
}
