// Pipeline outcomes for chosen sites, set through the control API (POST /__emulator/pipeline-outcomes): how an
// upgrade pipeline of a site ends, and what the health check at its end reports, whatever the catalogue says.
// What a rollout's tests need on demand (a canary that rolls back, a site that upgrades but is unhealthy after).
//
// A rule names its sites by `site_id`, or by `url`: a glob on the site's stored URL (`*` within a segment,
// `**` across, `?` one character, as fault paths: glob.ts). The first rule that matches a pipeline when it
// starts (its first step, `pending -> running`) decides it, at most `count` pipelines (unlimited when absent):
//
//   outcome "fail"      the pipeline fails at `at_step` "snapshot" or "preflight" (default) and ends `failed`:
//                       nothing was applied, as when the emulator's own preflight finds the site down
//   outcome "roll_back" it fails at `at_step` "apply" or "verify" (default) and one step later is `rolled_back`,
//                       as a real verify failure; the site keeps its versions
//   outcome "succeed"   it succeeds even when the catalogue (catalogue/upgrades.ts) says the upgrade breaks
//   outcome "hang"      it stops at `at_step` (any step; default "preflight"), that step `running`, and never ends:
//                       a pipeline nobody watches to its end (a wave's timeout, a run killed meanwhile)
//   health              (with "succeed" or "roll_back") the status of the health check the pipeline runs at
//                       its end ("passed", "warning", "failed"); it sticks to the site, as a status forced
//                       through POST /__emulator/health_checks does, until the next forced one
//
// Rules and the decisions bound to started pipelines live in memory: DELETE, reset and a restart forget both
// (a pipeline already started then runs on as the emulator's own). At most MAX_OUTCOME_RULES rules.
import type { HealthStatus } from "../../wire/health-checks.js";
import type { StepName } from "../../wire/upgrade-pipelines.js";
import { HttpError } from "../errors.js";
import { compileGlob, globMatches, type CompiledGlob } from "./glob.js";

type PipelineOutcome = "fail" | "roll_back" | "succeed" | "hang";

export interface PipelineOutcomeRule {
  /** The site's id; exactly one of `site_id` and `url`. */
  site_id?: string;
  /** A glob on the site's URL as stored. */
  url?: string;
  outcome: PipelineOutcome;
  /** The step that fails: "snapshot" | "preflight" for "fail", "apply" | "verify" for "roll_back"; any for "hang". */
  at_step?: StepName;
  /** The status of the health check at the pipeline's end ("succeed", "roll_back"). */
  health?: HealthStatus;
  /** How many pipelines the rule decides; unlimited when absent. */
  count?: number;
}

/** What a started pipeline was given: its outcome, the failing step (fail, roll_back) and the health to report. */
export interface PipelineDecision {
  outcome: PipelineOutcome;
  atStep: StepName | null;
  health: HealthStatus | null;
}

interface ActiveRule extends PipelineOutcomeRule {
  glob: CompiledGlob | null;
  remaining: number;
  hits: number;
}

const MAX_OUTCOME_RULES = 100;

const STEPS: Record<PipelineOutcome, readonly StepName[]> = {
  fail: ["snapshot", "preflight"],
  roll_back: ["apply", "verify"],
  succeed: [],
  hang: ["snapshot", "preflight", "apply", "verify"],
};
const DEFAULT_STEP: Record<PipelineOutcome, StepName | null> = { fail: "preflight", roll_back: "verify", succeed: null, hang: "preflight" };

/** Why a rule is refused (the 422's message), or null. */
function refusal(rule: PipelineOutcomeRule, i: number): string | null {
  const at = `rules[${i}]`;
  if ((rule.site_id === undefined) === (rule.url === undefined)) return `${at}: give exactly one of site_id and url`;
  if (rule.at_step !== undefined && !STEPS[rule.outcome].includes(rule.at_step)) {
    return rule.outcome === "succeed"
      ? `${at}: at_step applies to "fail", "roll_back" and "hang" only`
      : `${at}: "${rule.outcome}" fails at ${STEPS[rule.outcome].join(" or ")}, not at ${rule.at_step} (a failure at apply or verify rolls back: "roll_back"; before it nothing is applied: "fail")`;
  }
  if (rule.health !== undefined && (rule.outcome === "fail" || rule.outcome === "hang"))
    return `${at}: health applies to "succeed" and "roll_back" (a pipeline that fails before applying, or never ends, runs no check)`;
  return null;
}

export class PipelineOutcomes {
  #rules: ActiveRule[] = [];
  readonly #decided = new Map<string, PipelineDecision>();

  /** Adds rules after those in place; 422 (nothing added) for a bad rule or past MAX_OUTCOME_RULES. */
  add(rules: PipelineOutcomeRule[]): void {
    const bad = rules.map(refusal).find((r) => r !== null);
    if (bad) throw new HttpError(422, bad);
    if (this.#rules.length + rules.length > MAX_OUTCOME_RULES) {
      throw new HttpError(422, `At most ${MAX_OUTCOME_RULES} pipeline outcome rules can be in place; clear them first`);
    }
    const active = rules.map((r) => ({ ...r, glob: r.url === undefined ? null : compileGlob(r.url), remaining: r.count ?? Infinity, hits: 0 }));
    this.#rules = [...this.#rules, ...active];
  }

  clear(): void {
    this.#rules = [];
    this.#decided.clear();
  }

  list(): (PipelineOutcomeRule & { hits: number; remaining: number | null })[] {
    return this.#rules.map(({ glob: _glob, remaining, ...r }) => ({ ...r, remaining: Number.isFinite(remaining) ? remaining : null }));
  }

  /** Binds the first matching rule (if any) to a pipeline that starts now. */
  start(pipelineId: string, site: { id: string; url: string }): void {
    if (this.#rules.length === 0) return;
    const rule = this.#rules.find((r) => r.remaining > 0 && (r.glob ? globMatches(r.glob, site.url) : r.site_id === site.id));
    if (!rule) return;
    rule.remaining--;
    rule.hits++;
    this.#decided.set(pipelineId, { outcome: rule.outcome, atStep: rule.at_step ?? DEFAULT_STEP[rule.outcome], health: rule.health ?? null });
  }

  /** The decision bound to a pipeline when it started, if a rule matched it. */
  decision(pipelineId: string): PipelineDecision | undefined {
    return this.#decided.get(pipelineId);
  }

  /** The pipeline has ended: its decision is no longer needed. */
  finish(pipelineId: string): void {
    this.#decided.delete(pipelineId);
  }
}
