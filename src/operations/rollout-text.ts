// A rollout in words, once for every surface: the progress line of a wave as it runs, the line a wave ends with, and
// the end of a run as a person reads it at 300 sites (why it stopped with the totals, each failure reason once with
// its sites, the sites left untouched). The CLI prints these on stderr, the action in its log, failure line and job
// summary; neither words them itself. Flag and input names are each surface's to add.

import { formatDuration } from "../../common/format.js";
import { formatTarget, mergedWaveNote, type RolloutPlan, type RolloutTarget } from "./rollout-plan.js";
import { failureGroups, type RolloutRow, rolloutRows, rolloutTotals } from "./rollout-rows.js";
import type { RolloutEvent, RolloutResult, WaveResult, WaveVerdict } from "./rollout-types.js";
import type { TextColumn } from "./text-column.js";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** "Client 091, Client 112, ..." : the first five names. */
const some = (sites: readonly { name: string }[]) =>
  `${sites
    .slice(0, 5)
    .map((s) => s.name)
    .join(", ")}${sites.length > 5 ? ", ..." : ""}`;

/** A plan in words (a dry run): any merged wave, each wave with its first sites, the sites in no wave. */
export function planLines(plan: RolloutPlan<{ name: string }>, target: RolloutTarget): string[] {
  return [
    ...plan.merged.map((m) => `note: ${mergedWaveNote(m)}`),
    ...plan.waves.map((w, i) => `wave ${i + 1}/${plan.waves.length}: ${plural(w.length, "site")} (${some(w)})`),
    ...(plan.current.length ? [`${plural(plan.current.length, "site")} already at ${formatTarget(target)} or newer: in no wave (${some(plan.current)})`] : []),
  ];
}

/** A wave's verdict in words. */
export const WAVE_VERDICTS: Readonly<Record<WaveVerdict, string>> = {
  passed: "passed",
  stopped: "STOPPED: failures over the budget",
  timed_out: "timed out",
  interrupted: "interrupted",
  refused: "refused by the service",
  not_started: "not started",
};

/** "wave 2/3: 3 sites, 2 passed, 1 failed (at most 0 allowed): STOPPED: failures over the budget": its denominator,
 * its counts and the budget against them. */
export function waveLine(w: WaveResult, waves: number): string {
  const c = w.counts;
  const found = c.already_upgraded ? ` (${c.already_upgraded} found already at the target)` : "";
  const parts = [
    `${c.passed} passed`,
    `${c.failed} failed (at most ${w.allowed} allowed)`,
    ...(c.timed_out ? [`${c.timed_out} timed out`] : []),
    ...(c.untouched ? [`${c.untouched} not started`] : []),
    ...(c.adopted ? [`${c.adopted} adopted from an earlier run`] : []),
  ];
  return `wave ${w.wave}/${waves}: ${plural(w.size, "site")}${found}, ${parts.join(", ")}: ${WAVE_VERDICTS[w.verdict]}`;
}

/** How much a line matters: `info` is progress a terminal's live lines show instead; the others are printed. */
export type LineLevel = "info" | "notice" | "warn" | "error";

/** The lines an event of the rollout is told by, each with its level; none for an event that says nothing of its own
 * (a site started, its pipeline's state changed: a terminal's live lines show those). */
export function eventLines(event: RolloutEvent): { text: string; level: LineLevel }[] {
  const one = (text: string, level: LineLevel) => [{ text, level }];
  switch (event.type) {
    case "rollout.planned": {
      const sizes = event.waves.map((w) => w.length).join(", ");
      const current = event.current.length ? `, ${event.current.length} already at ${formatTarget(event.target)} or newer` : "";
      const head = `${plural(event.sites, "site")}: ${event.waves.flat().length} to upgrade in ${plural(event.waves.length, "wave")} (${sizes})${current}`;
      return [{ text: head, level: "notice" }, ...event.merged.map((m) => ({ text: `note: ${mergedWaveNote(m)}`, level: "notice" as const }))];
    }
    case "wave.paused":
      return one(`pausing ${formatDuration(event.ms)} before wave ${event.wave}`, "notice");
    case "wave.started":
      return one(
        `wave ${event.wave}/${event.waves}: ${plural(event.sites.length, "site")} (${some(event.sites)}), at most ${event.allowed} may fail`,
        "notice",
      );
    case "site.adopted":
      return one(`${event.site.name}: pipeline ${event.pipeline.id} adopted (${event.pipeline.status}), not opened again`, "info");
    case "site.pipeline":
      if (event.opened) return one(`${event.site.name}: pipeline ${event.pipeline.id} opened (${event.pipeline.status})`, "info");
      return event.pipeline.status === "awaiting_approval" ? one(`${event.site.name}: pipeline ${event.pipeline.id} awaits approval`, "notice") : [];
    case "site.finished": {
      const r = event.result;
      if (r.outcome === "passed") return one(`${r.site.name}: passed (${[...new Set(r.checks.map((c) => c.gate))].join(", ")})`, "info");
      if (!r.failure) return r.outcome === "already_upgraded" ? one(`${r.site.name}: already at the target`, "info") : [];
      return one(`${r.site.name}: ${r.outcome.replace("_", " ")}: ${r.failure.message}`, r.outcome === "failed" ? "error" : "warn");
    }
    case "wave.finished":
      return one(waveLine(event.result, event.waves), event.result.verdict === "passed" ? "notice" : "error");
    default:
      return [];
  }
}

/** A running wave's progress, from the rollout's events: `wave 3/3: 88/270 done, 2 failed, 8 running, 35.0 s`, and
 * whether a log (not a terminal's live line) is due for it: at every 10 % of the wave, or every 30 s. */
export class RolloutProgress {
  #wave = { n: 0, of: 0, members: 0, done: 0, failed: 0, running: 0, started: Date.now() };
  #next = { percent: 10, at: 0 };

  onEvent(event: RolloutEvent): void {
    if (event.type === "wave.started") {
      this.#wave = { n: event.wave, of: event.waves, members: event.sites.length, done: 0, failed: 0, running: 0, started: Date.now() };
      this.#next = { percent: 10, at: Date.now() + 30_000 };
    } else if (event.type === "site.started") this.#wave.running++;
    else if (event.type === "site.finished") {
      this.#wave.running--;
      this.#wave.done = event.counts.sites;
      this.#wave.failed = event.counts.failed;
    }
  }

  line(): string {
    const w = this.#wave;
    return `wave ${w.n}/${w.of}: ${w.done}/${w.members} done${w.failed ? `, ${w.failed} failed` : ""}, ${w.running} running, ${formatDuration(Date.now() - w.started)}`;
  }

  /** A site just ended: whether the log should say the progress now. */
  due(): boolean {
    const w = this.#wave;
    const percent = w.members ? Math.floor((w.done * 100) / w.members) : 100;
    if (percent >= 100 || (percent < this.#next.percent && Date.now() < this.#next.at)) return false;
    this.#next = { percent: Math.floor(percent / 10) * 10 + 10, at: Date.now() + 30_000 };
    return true;
  }
}

/** Why the rollout ended where it did: `done`, or `stopped at wave 2: 1 failed of 3, at most 0 allowed`. */
export function stopLine(result: RolloutResult): string {
  const at = result.waves.find((w) => w.verdict !== "passed" && w.verdict !== "not_started");
  const where = at ? `at wave ${at.wave}` : "before its first wave";
  switch (result.outcome) {
    case "done":
      return "done";
    case "stopped":
      return `stopped ${where}: ${at?.counts.failed} failed of ${at?.size}, at most ${at?.allowed} allowed`;
    case "timed_out":
      return `stopped ${where}: its time ran out before every site was judged (their pipelines carry on)`;
    case "refused":
      return `stopped ${where}: the service refused ${result.refusal?.reason === "target" ? "the target" : `the ${result.refusal?.reason}`}`;
    default:
      return "interrupted (pipelines already opened carry on in the service)";
  }
}

/** The end of a run: the headline (why, then the totals) and how much it matters (`level`: a notice when every site
 * passed, a warning with failures within the budget, else an error), one line per failure reason with its sites (the
 * first five named), and the sites left untouched (null when the rollout is done or its target was refused). */
export function endLines(result: RolloutResult): { headline: string; level: LineLevel; failures: string[]; untouched: string | null } {
  const failures = failureGroups(rolloutRows(result))
    .filter((g) => g.code !== "INTERRUPTED")
    .map((g) => {
      const names = g.rows.slice(0, 5).map((r) => r.site.name);
      const more = g.rows.length > 5 ? `, and ${g.rows.length - 5} more` : "";
      return `${plural(g.rows.length, "site")} ${g.rows[0]!.outcome.replace("_", " ")}: ${g.reason} (${names.join(", ")}${more})`;
    });
  let untouched: string | null = null;
  if (result.outcome !== "done" && result.refusal?.reason !== "target") {
    const left = result.sites.filter((s) => s.outcome === "untouched");
    const waves = [...new Set(left.map((s) => s.wave))];
    untouched = left.length
      ? `left untouched: ${plural(left.length, "site")} (wave${waves.length === 1 ? "" : "s"} ${waves.join(", ")}); nothing was asked of the service for them`
      : "no site was left untouched: every wave ran";
  }
  const level = result.outcome === "done" ? (result.counts.failed ? "warn" : "notice") : "error";
  return { headline: `${stopLine(result)}: ${rolloutTotals(result.counts, result.target)}`, level, failures, untouched };
}

/** The line a run the service refused ends with, or the line a rollout that did not finish fails with; undefined
 * when it is done. The target refused: nothing was opened; the credentials or permission refused: nothing more was
 * (`describe` words that error with the surface's advice). */
export function rolloutFailureLine(result: RolloutResult, describe: (error: unknown) => string): string | undefined {
  const target = formatTarget(result.target);
  const refusal = result.refusal;
  if (refusal?.reason === "target") {
    const { message, status, request_id } = refusal.failure;
    const request = request_id ? `, request ${request_id}` : "";
    return `The rollout to ${target} did not start: ${message} [HTTP ${status}${request}]. Give a version the service offers; no pipeline was opened.`;
  }
  if (refusal) return `The rollout to ${target} stopped: ${describe(refusal.error)} Nothing more was opened.`;
  if (result.outcome === "done") return undefined;
  const { headline, failures } = endLines(result);
  return `The rollout to ${target} ${headline}.${failures.length ? ` ${failures.join("; ")}.` : ""}`;
}

/** How a run ended, as each surface's exit code or step reads it: the service refused the target (a usage error)
 * or the credentials, it was interrupted, a wave stopped it or timed out, it finished with failures within the
 * budget, or every site passed. From the result, never from error text. */
export function rolloutVerdict(result: RolloutResult): "target_refused" | "refused" | "interrupted" | "stopped" | "timed_out" | "failed" | "passed" {
  if (result.refusal) return result.refusal.reason === "target" ? "target_refused" : "refused";
  if (result.outcome === "interrupted" || result.outcome === "stopped" || result.outcome === "timed_out") return result.outcome;
  return result.counts.failed ? "failed" : "passed";
}

/** After the sites left untouched: how to continue the run, `command` being the same command again, `budget` the
 * option that raises the failure budget (`--max-failures`). */
export function continueLines(result: RolloutResult, command: string, budget: string): string[] {
  const hint = result.outcome === "stopped" ? ` (once the failed sites are dealt with, or with a larger ${budget})` : "";
  return [`to continue${hint}, run the same command again; it adopts this run's pipelines and opens none twice:`, `  ${command}`];
}

/** "not listed: 39 sites untouched; 260 sites already at the target, in no wave": the sites a table of the sites
 * asked something of leaves out, counted; undefined when it leaves none out. */
export function notListedLine(rows: readonly { wave: number | null; outcome: string }[]): string | undefined {
  const untouched = rows.filter((r) => r.outcome === "untouched").length;
  const current = rows.filter((r) => r.wave === null).length;
  const apart = [
    ...(untouched ? [`${plural(untouched, "site")} untouched`] : []),
    ...(current ? [`${plural(current, "site")} already at the target, in no wave`] : []),
  ];
  return apart.length ? `not listed: ${apart.join("; ")}` : undefined;
}

/** The columns of the table of the sites a run asked something of: for a program (`named` false) the site's id
 * then its name; for a person its name only, and whether its pipeline was adopted beside its outcome. */
export function rolloutColumns(named: boolean): TextColumn<RolloutRow>[] {
  return [
    { header: "WAVE", value: (r) => r.wave, align: "right" },
    { header: "SITE", value: (r) => (named ? r.site.name : r.site.id) },
    ...(named ? [] : [{ header: "NAME", value: (r: RolloutRow) => r.site.name }]),
    { header: "PIPELINE", value: (r) => r.pipeline?.id ?? "" },
    { header: "RESULT", value: (r) => (named && r.adopted ? `${r.outcome}, adopted` : r.outcome) },
    { header: "WHY", value: (r) => r.error?.message ?? "" },
  ];
}

/** The rows of the sites a run asked something of (in a wave, not left untouched): what its table lists. */
export function askedRows(rows: readonly RolloutRow[]): RolloutRow[] {
  return rows.filter((r) => r.wave !== null && r.outcome !== "untouched");
}
