// Splitting a fleet into N stable shards for fan-out (GitHub Actions matrix jobs, parallel cron jobs): a
// site's shard derives from its id alone, so it stays in its shard as sites are added or removed, and ids
// spread evenly because the hash mixes every character. Pure and dependency-free: the CLI (`--shard 3/16`,
// `siteops sites matrix`) and the GitHub Action use the same function, so both split a fleet the same way.

import { SiteOpsError } from "./errors.js";

/** GitHub Actions runs at most this many jobs per matrix; more shards than this cannot be one matrix. */
export const MAX_MATRIX_JOBS = 256;

/** One shard of a split: `index` is 1-based, as written in "3/16". */
export interface Shard {
  index: number;
  count: number;
}

/** A shard spec that is not "I/N" with 1 <= I <= N <= MAX_MATRIX_JOBS. `code` is stable. */
export class ShardSpecError extends SiteOpsError {
  override readonly code: string = "INVALID_SHARD";
}

/** 32-bit FNV-1a of the UTF-16 code units, then MurmurHash3's finaliser so that ids differing only in their
 * last characters still land far apart. Shards and a rollout's wave order (operations/rollout-plan.ts) use it. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The 1-based shard of `siteId` among `count` shards. */
export function shardOf(siteId: string, count: number): number {
  checkCount(count, "shard count");
  // Multiply-shift instead of modulo: uses the high bits, and every shard gets an equal slice of the range.
  return Math.floor((hash32(siteId) * count) / 2 ** 32) + 1;
}

/** True when `siteId` belongs to `shard`. */
export function inShard(siteId: string, shard: Shard): boolean {
  return shardOf(siteId, shard.count) === shard.index;
}

/** Parses "3/16" (shard 3 of 16). Throws ShardSpecError naming what is wrong. */
export function parseShard(spec: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(spec);
  if (!match) throw new ShardSpecError(`shard must be INDEX/COUNT, e.g. 3/16 (got ${JSON.stringify(spec)})`);
  const index = Number(match[1]);
  const count = Number(match[2]);
  checkCount(count, `shard ${JSON.stringify(spec)}: the count`);
  if (index < 1 || index > count) throw new ShardSpecError(`shard ${JSON.stringify(spec)}: the index must be from 1 to ${count}`);
  return { index, count };
}

/** "3/16" */
export function formatShard(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

/** The GitHub Actions matrix for `count` shards: `{"include":[{"shard":"1/16"},...]}`. */
export function shardMatrix(count: number): { include: { shard: string }[] } {
  checkCount(count, "shard count");
  return { include: Array.from({ length: count }, (_, i) => ({ shard: formatShard({ index: i + 1, count }) })) };
}

function checkCount(count: number, what: string): void {
  if (!Number.isInteger(count) || count < 1) throw new ShardSpecError(`${what} must be a whole number from 1 to ${MAX_MATRIX_JOBS}`);
  if (count > MAX_MATRIX_JOBS) {
    throw new ShardSpecError(
      `${what} is ${count}, above GitHub Actions' limit of ${MAX_MATRIX_JOBS} jobs per matrix: use at most ${MAX_MATRIX_JOBS} shards (each job can take more sites)`,
    );
  }
}
