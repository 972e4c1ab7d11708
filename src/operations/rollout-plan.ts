// A rollout's plan: which sites it concerns (those that need the upgrade; the others are listed apart), the order
// that decides which go first, its waves (`1,10%,100%`) and the failure budget of a wave (`2` or `10%`). Pure: the
// same sites and target always give the same plan, whatever order the service lists them in, so a rerun picks the
// same canaries. What "the same" means once some sites have been upgraded: see planRollout.

import { compareVersions } from "../equivalence.js";
import { SiteOpsError } from "../errors.js";
import type { Site } from "../resources/sites.js";
import { hash32 } from "../shards.js";

/** The versions a rollout upgrades to; at least one of them. */
export interface RolloutTarget {
  /** WordPress, major.minor. */
  wp?: string | undefined;
  /** PHP, major.minor. */
  php?: string | undefined;
}

/** One wave as written: the first `count` sites of the order, or the first `percent` % of them, cumulative. */
export type WaveSpec = { count: number; percent?: undefined } | { percent: number; count?: undefined };

/** At most this many failed sites in a wave (`count`), or at most `percent` % of the wave's sites. */
export type FailureBudget = { count: number; percent?: undefined } | { percent: number; count?: undefined };

/** A wave list or failure budget that cannot be read. `code` is stable. */
export class RolloutSpecError extends SiteOpsError {
  override readonly code: string = "INVALID_ROLLOUT";
}

/** More waves than this is a typo, not a plan. */
export const MAX_WAVES = 20;
/** The waves unless a rollout says otherwise: a canary, a tenth, the rest. */
export const DEFAULT_WAVES = "1,10%,100%";

function amount(text: string, what: string): WaveSpec {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(text);
  if (!m) throw new RolloutSpecError(`${what} ${JSON.stringify(text)} is not a number of sites (10) or a percentage (10%)`);
  const value = Number(m[1]);
  if (m[2]) {
    if (value <= 0 || value > 100) throw new RolloutSpecError(`${what} ${JSON.stringify(text)}: a percentage above 0 and at most 100`);
    return { percent: value };
  }
  if (!Number.isInteger(value) || value < 1) throw new RolloutSpecError(`${what} ${JSON.stringify(text)}: a whole number of sites, at least 1`);
  return { count: value };
}

/** `10` or `10%`. */
export function formatWave(w: WaveSpec): string {
  return w.count !== undefined ? String(w.count) : `${w.percent}%`;
}

/**
 * Reads `1,10%,100%`: each wave the cumulative number or share of the sites upgraded by its end, the last `100%`
 * (a rollout that completes has reached every site). A wave must cover more than the waves before it; where that
 * holds on no fleet (`50%,10%,100%`, `5,2,100%`) the list is refused here. Where it depends on the number of sites
 * (`20,5%,100%`: 5% of 300 is 15, not above 20; of 1,000 it is 50) the plan merges a wave that takes no site of its
 * own into the one before it and says so ({@link RolloutPlan.merged}): one rule, applied as soon as it can be.
 */
export function parseWaves(text: string): WaveSpec[] {
  const parts = text.split(",");
  if (parts.length > MAX_WAVES) throw new RolloutSpecError(`at most ${MAX_WAVES} waves (got ${parts.length})`);
  const waves = parts.map((part, i) => amount(part, `wave ${i + 1}`));
  for (let i = 1; i < waves.length; i++) {
    const b = waves[i]!;
    for (let j = i - 1; j >= 0; j--) {
      const a = waves[j]!;
      const covered = a.count !== undefined ? b.count !== undefined && b.count <= a.count : b.percent !== undefined && b.percent <= a.percent;
      if (covered)
        throw new RolloutSpecError(`wave ${i + 1} (${formatWave(b)}) must cover more sites than wave ${j + 1} (${formatWave(a)}): waves are cumulative`);
    }
  }
  if (waves.at(-1)!.percent !== 100)
    throw new RolloutSpecError(`the last wave must be 100% (got ${formatWave(waves.at(-1)!)}), so that the rollout reaches every site`);
  return waves;
}

/** Reads a failure budget: `0`, `2` (sites) or `10%` (of each wave's sites). */
export function parseFailureBudget(text: string): FailureBudget {
  if (/^\s*0+\s*%?\s*$/.test(text)) return { count: 0 };
  const value = amount(text, "failure budget");
  return value.count !== undefined ? { count: value.count } : { percent: value.percent };
}

/**
 * The failures a wave of `size` sites may have and still let the next wave start: `count`, or the share rounded
 * down (10% of 10 sites: 1; of 9: 0). `size` is the wave's denominator, named once: the sites the wave asks
 * something of (its members, less those found at the target when asked). It only shrinks as the wave runs, so a
 * wave found over its budget stays over it.
 */
export function allowedFailures(budget: FailureBudget, size: number): number {
  return budget.count !== undefined ? budget.count : Math.floor((budget.percent * size) / 100 + 1e-9);
}

/** The target as one string, part of each site's place in the order: `wp=6.8;php=8.3`. */
export function targetKey(target: RolloutTarget): string {
  return `wp=${target.wp ?? ""};php=${target.php ?? ""}`;
}

/** "WordPress 6.8 and PHP 8.3". */
export function formatTarget(target: RolloutTarget): string {
  return [target.wp ? `WordPress ${target.wp}` : "", target.php ? `PHP ${target.php}` : ""].filter(Boolean).join(" and ");
}

/** Whether the site runs the target or newer: each version the target names, at it or above (a version that is not
 * dotted numbers is neither). Such a site needs no pipeline: the service refuses a downgrade. */
export function reachesTarget(site: Pick<Site, "wp_version" | "php_version">, target: RolloutTarget): boolean {
  const at = (have: unknown, want: string | undefined) => want === undefined || (typeof have === "string" && (compareVersions(have, want) ?? -1) >= 0);
  return at(site.wp_version, target.wp) && at(site.php_version, target.php);
}

/** The sites in rollout order: by a hash of the site's id and the target (ties by id), so the order is the same
 * for every run of the same rollout and differs from one target to the next (the same site is not always first). */
export function rolloutOrder<S extends { id: string }>(sites: readonly S[], target: RolloutTarget): S[] {
  const key = targetKey(target);
  const unique = [...new Map(sites.map((s) => [s.id, s])).values()];
  const ranked = unique.map((site) => ({ site, rank: hash32(`${site.id}\n${key}`) }));
  ranked.sort((a, b) => a.rank - b.rank || (a.site.id < b.site.id ? -1 : a.site.id > b.site.id ? 1 : 0));
  return ranked.map((r) => r.site);
}

/** A wave as written that took no site of its own on this fleet. */
export interface MergedWave {
  /** Its place in the list as written (1-based). */
  wave: number;
  spec: WaveSpec;
  /** The wave as written whose sites already covered it. */
  into: number;
  intoSpec: WaveSpec;
  /** The sites the waves are shares of. */
  of: number;
}

/** "wave 2 (5%) takes no site beyond wave 1 (20) of these 300 sites: merged into it". */
export function mergedWaveNote(m: MergedWave): string {
  return `wave ${m.wave} (${formatWave(m.spec)}) takes no site beyond wave ${m.into} (${formatWave(m.intoSpec)}) of these ${m.of} site${m.of === 1 ? "" : "s"}: merged into it`;
}

function cumulative(w: WaveSpec, of: number): number {
  return Math.min(of, w.count !== undefined ? w.count : Math.max(1, Math.ceil((w.percent * of) / 100 - 1e-9)));
}

/** The waves' sites over sites that all need the upgrade: wave i holds the sites of the order up to its cumulative
 * size (a share rounded up, at least one site), less the earlier waves'; a wave left with none is merged. */
function wavesOf<S extends { id: string }>(sites: readonly S[], waves: readonly WaveSpec[], target: RolloutTarget): { waves: S[][]; merged: MergedWave[] } {
  const order = rolloutOrder(sites, target);
  const planned: S[][] = [];
  const merged: MergedWave[] = [];
  let done = 0;
  let last = -1;
  if (order.length === 0) return { waves: planned, merged };
  waves.forEach((w, i) => {
    const upTo = cumulative(w, order.length);
    if (upTo > done) {
      planned.push(order.slice(done, upTo));
      done = upTo;
      last = i;
    } else merged.push({ wave: i + 1, spec: w, into: last + 1, intoSpec: waves[last]!, of: order.length });
  });
  return { waves: planned, merged };
}

/** The waves of sites that all need the upgrade (a test's or a script's fleet): {@link planRollout}'s waves. */
export function planWaves<S extends { id: string }>(sites: readonly S[], waves: readonly WaveSpec[], target: RolloutTarget): S[][] {
  return wavesOf(sites, waves, target).waves;
}

/** What a rollout will do with its sites. */
export interface RolloutPlan<S> {
  /** The sites of each wave, in order; every one needs the upgrade (or an earlier run asked for it). */
  waves: S[][];
  /** At the target or newer already: in no wave, nothing asked of the service for them. */
  current: S[];
  /** Waves as written that took no site of their own: said, not silent. */
  merged: MergedWave[];
}

/**
 * The plan: the sites that need the upgrade in waves over their hash order, the others apart. Wave sizes, shares
 * and so the canaries are those of the sites that need the upgrade: a site at the target is never a canary and
 * never counts in a wave.
 *
 * Stable means: the same sites as the rollout first saw them give the same waves. A site this rollout upgraded is
 * at the target on a rerun; `earlier` (the sites an earlier run of the same rollout asked a pipeline for: the CLI's
 * state) keeps it in its wave, so the rerun's canaries and waves are the first run's, and it is judged again on its
 * pipeline. Without such records (a fresh listing after the records' window), a rerun plans over the sites still
 * below the target, in the same order: its first sites are the first of those. A listing taken before the rollout
 * (the action's `sites-file`) gives the same plan to every job and every re-run.
 */
export function planRollout<S extends Pick<Site, "id" | "wp_version" | "php_version">>(
  sites: readonly S[],
  waves: readonly WaveSpec[],
  target: RolloutTarget,
  options: { earlier?: ReadonlySet<string> } = {},
): RolloutPlan<S> {
  const unique = [...new Map(sites.map((s) => [s.id, s])).values()];
  const concerned = (s: S) => !reachesTarget(s, target) || options.earlier?.has(s.id) === true;
  const pool = unique.filter(concerned);
  const current = rolloutOrder(
    unique.filter((s) => !concerned(s)),
    target,
  );
  return { ...wavesOf(pool, waves, target), current };
}
