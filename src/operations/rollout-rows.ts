// A rollout's result as records, once for every surface (on the pattern of vulnerabilityReportRows): the per-site
// row the CLI prints (--json, --report), the GitHub Action puts in its `result` output, and the job's metrics and
// notifications count; the counts, each result's own; the report document around them; the failed sites grouped by
// reason, each reason once, for the summaries a person reads at 300 sites.

import type { GateCheck } from "./rollout-gates.js";
import { formatTarget, mergedWaveNote, type RolloutPlan, type RolloutTarget } from "./rollout-plan.js";
import type {
  RolloutCounts,
  RolloutFailure,
  RolloutOutcome,
  RolloutRefusal,
  RolloutResult,
  SiteRolloutOutcome,
  SiteRolloutResult,
  WaveVerdict,
} from "./rollout-types.js";

/** Sites by outcome, and the pipelines this run opened and those it adopted. */
export function rolloutCounts(results: readonly Pick<SiteRolloutResult, "outcome" | "opened" | "adopted">[]): RolloutCounts {
  const out: RolloutCounts = {
    sites: results.length,
    passed: 0,
    failed: 0,
    timed_out: 0,
    interrupted: 0,
    already_upgraded: 0,
    untouched: 0,
    opened: 0,
    adopted: 0,
  };
  for (const r of results) {
    out[r.outcome]++;
    if (r.opened) out.opened++;
    if (r.adopted) out.adopted++;
  }
  return out;
}

/** One site of a rollout as every surface records it. */
export interface RolloutRow {
  site: { id: string; name: string; url: string };
  /** 1-based; null for a site at the target when the rollout began (in no wave). */
  wave: number | null;
  outcome: SiteRolloutOutcome;
  /** This run opened its pipeline. */
  opened: boolean;
  /** Its pipeline is one an earlier run (or someone else) opened, adopted rather than opened again. */
  adopted: boolean;
  pipeline: { id: string; status: string; error: string | null } | null;
  checks: GateCheck[];
  /** Why it failed, timed out or was interrupted. */
  error: RolloutFailure | null;
  duration_ms: number;
}

/** The fields of a {@link RolloutRow}, for `--json=FIELDS`. */
export const ROLLOUT_ROW_FIELDS = [
  "site",
  "wave",
  "outcome",
  "opened",
  "adopted",
  "pipeline",
  "checks",
  "error",
  "duration_ms",
] as const satisfies readonly (keyof RolloutRow)[];

/** The rows of a result's sites (every site: wave by wave, then those in no wave). */
export function rolloutRows(result: Pick<RolloutResult, "sites">): RolloutRow[] {
  return result.sites.map((r) => ({
    site: { id: r.site.id, name: r.site.name, url: r.site.url },
    wave: r.wave,
    outcome: r.outcome,
    opened: r.opened,
    adopted: r.adopted,
    pipeline: r.pipeline ? { id: r.pipeline.id, status: r.pipeline.status, error: r.pipeline.error ?? null } : null,
    checks: r.checks,
    error: r.failure,
    duration_ms: Math.round(r.durationMs),
  }));
}

/** A plan's sites as records (a dry run): each with its wave, null for those already at the target. */
export function rolloutPlanRows(
  plan: RolloutPlan<{ id: string; name: string; url: string }>,
): { wave: number | null; site: { id: string; name: string; url: string } }[] {
  const site = (s: { id: string; name: string; url: string }) => ({ id: s.id, name: s.name, url: s.url });
  return [
    ...plan.waves.flatMap((members, i) => members.map((s) => ({ wave: i + 1, site: site(s) }))),
    ...plan.current.map((s) => ({ wave: null, site: site(s) })),
  ];
}

/** The document of a dry run (the CLI's --report): the target, each wave's sites, the sites already at the target
 * and any waves merged. */
export function rolloutPlanReport(plan: RolloutPlan<{ id: string }>, target: RolloutTarget) {
  return {
    dry_run: true,
    target,
    waves: plan.waves.map((w, i) => ({ wave: i + 1, sites: w.map((s) => s.id) })),
    current: plan.current.map((s) => s.id),
    merged: plan.merged.map(mergedWaveNote),
  };
}

/** A wave in a report: its verdict, its denominator and the budget against it, its counts. */
export interface RolloutWaveRecord {
  wave: number;
  verdict: WaveVerdict;
  /** The sites the wave asked something of: the budget's denominator. */
  size: number;
  allowed: number;
  counts: RolloutCounts;
}

/** The document of a rollout: the CLI's --report body and JSON, the action's `result` output. */
export interface RolloutReport {
  outcome: RolloutOutcome;
  refusal: { reason: RolloutRefusal["reason"]; error: RolloutFailure } | null;
  target: RolloutTarget;
  summary: RolloutCounts;
  waves: RolloutWaveRecord[];
  /** Waves as written that took no site of their own on this fleet, each said in a sentence. */
  merged: string[];
  results: RolloutRow[];
}

export function rolloutReport(result: RolloutResult): RolloutReport {
  return {
    outcome: result.outcome,
    refusal: result.refusal ? { reason: result.refusal.reason, error: result.refusal.failure } : null,
    target: result.target,
    summary: result.counts,
    waves: result.waves.map((w) => ({ wave: w.wave, verdict: w.verdict, size: w.size, allowed: w.allowed, counts: w.counts })),
    merged: result.merged.map(mergedWaveNote),
    results: rolloutRows(result),
  };
}

/** The sites that did not pass for the same reason. */
export interface FailureGroup {
  reason: string;
  code: string;
  rows: RolloutRow[];
}

/** The rows with an error grouped by its shared reason, the largest group first (then by first appearance): each
 * reason said once, with the sites it concerns. */
export function failureGroups(rows: readonly RolloutRow[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const row of rows) {
    if (!row.error) continue;
    const key = `${row.outcome}\n${row.error.code}\n${row.error.reason}`;
    const group = groups.get(key) ?? { reason: row.error.reason, code: row.error.code, rows: [] };
    group.rows.push(row);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.rows.length - a.rows.length);
}

/** "300 sites: 36 passed, 4 failed, 260 already at WordPress 6.9 or newer; 40 pipelines opened, 0 adopted" (outcomes
 * with no site left out): the line a summary starts with. */
export function rolloutTotals(counts: RolloutCounts, target: RolloutTarget): string {
  const said: [keyof RolloutCounts, string][] = [
    ["passed", "passed"],
    ["failed", "failed"],
    ["timed_out", "timed out"],
    ["interrupted", "interrupted"],
    ["already_upgraded", `already at ${formatTarget(target)} or newer`],
    ["untouched", "untouched"],
  ];
  const parts = said.filter(([k]) => counts[k] > 0).map(([k, words]) => `${counts[k]} ${words}`);
  const pipelines = `${counts.opened} pipeline${counts.opened === 1 ? "" : "s"} opened, ${counts.adopted} adopted`;
  return `${counts.sites} site${counts.sites === 1 ? "" : "s"}${parts.length ? `: ${parts.join(", ")}` : ""}; ${pipelines}`;
}
