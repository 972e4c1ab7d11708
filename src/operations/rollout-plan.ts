// A rollout's plan: its waves (`1,10%,100%`), the order that decides which sites go first, and the failure
// budget of a wave (`2` or `10%`). Pure: the same sites and target always give the same waves, so a rerun picks
// the same canaries, and a site's place does not depend on the order the service lists the sites in.

import { SiteOpsError } from "../errors.js";
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

/** Reads `1,10%,100%`: each wave the cumulative number or share of the sites upgraded by its end. The waves must
 * grow, and the last must be `100%`, so that a rollout that completes has upgraded every site selected. */
export function parseWaves(text: string): WaveSpec[] {
  const parts = text.split(",");
  if (parts.length > MAX_WAVES) throw new RolloutSpecError(`at most ${MAX_WAVES} waves (got ${parts.length})`);
  const waves = parts.map((part, i) => amount(part, `wave ${i + 1}`));
  for (let i = 1; i < waves.length; i++) {
    const [a, b] = [waves[i - 1]!, waves[i]!];
    const shrinks =
      a.count !== undefined && b.count !== undefined ? b.count <= a.count : a.percent !== undefined && b.percent !== undefined && b.percent <= a.percent;
    if (shrinks) throw new RolloutSpecError(`wave ${i + 1} (${format(b)}) must cover more sites than wave ${i} (${format(a)}): waves are cumulative`);
  }
  if (waves.at(-1)!.percent !== 100)
    throw new RolloutSpecError(`the last wave must be 100% (got ${format(waves.at(-1)!)}), so that the rollout reaches every site`);
  return waves;
}

/** Reads `--max-failures`: `0`, `2` (sites) or `10%` (of each wave's sites). */
export function parseFailureBudget(text: string): FailureBudget {
  if (/^\s*0+\s*%?\s*$/.test(text)) return { count: 0 };
  const value = amount(text, "failure budget");
  return value.count !== undefined ? { count: value.count } : { percent: value.percent };
}

function format(w: WaveSpec): string {
  return w.count !== undefined ? String(w.count) : `${w.percent}%`;
}

/** The failures a wave of `size` sites may have and still let the next wave start: `count`, or the share
 * rounded down (10% of 10 sites: 1; of 9: 0). */
export function allowedFailures(budget: FailureBudget, size: number): number {
  return budget.count !== undefined ? budget.count : Math.floor((budget.percent * size) / 100 + 1e-9);
}

/** The target as one string, part of each site's place in the order: `wp=6.8;php=8.3`. */
export function targetKey(target: RolloutTarget): string {
  return `wp=${target.wp ?? ""};php=${target.php ?? ""}`;
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

/** The waves' sites: wave i holds the sites of the order up to its cumulative size (a percentage rounded up, at
 * least one site), less the earlier waves'. A wave left with no site (1% of 20 after a wave of 1) is dropped. */
export function planWaves<S extends { id: string }>(sites: readonly S[], waves: readonly WaveSpec[], target: RolloutTarget): S[][] {
  const order = rolloutOrder(sites, target);
  const planned: S[][] = [];
  let done = 0;
  for (const w of waves) {
    const upTo = Math.min(order.length, w.count !== undefined ? w.count : Math.max(1, Math.ceil((w.percent * order.length) / 100 - 1e-9)));
    if (upTo > done) planned.push(order.slice(done, upTo));
    done = Math.max(done, upTo);
  }
  return planned;
}
