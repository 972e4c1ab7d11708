// Durations and times given on the command line: `30m`, `1h30m`, `90s`, `30d`, `2w` (s, m = minutes, h, d, w,
// as systemd and Go write them), and for --since/--until also an ISO 8601 time.

import { UsageError } from "./exit-codes.js";

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/y;

/** Milliseconds of a duration such as "30m" or "1h30m". `flag` names the option in the error. */
export function parseDuration(text: string, flag: string): number {
  const input = text.trim();
  let total = 0;
  let at = 0;
  while (at < input.length) {
    PART.lastIndex = at;
    const m = PART.exec(input);
    if (!m) break;
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
    at = PART.lastIndex;
  }
  if (input === "" || at !== input.length) {
    throw new UsageError(`${flag}: ${JSON.stringify(text)} is not a duration (use a number and a unit: 90s, 30m, 12h, 30d, 2w; or 1h30m)`);
  }
  if (total <= 0) throw new UsageError(`${flag}: the duration must be above 0 (got ${JSON.stringify(text)})`);
  return Math.round(total);
}

/** An ISO 8601 time ("2026-11-01", "2026-11-01T12:00:00Z"), or a duration meaning that long before `now`. */
export function parseTime(text: string, flag: string, now = Date.now()): string {
  if (/^\d{4}-\d{2}-\d{2}/.test(text.trim())) {
    const ms = Date.parse(text.trim());
    if (Number.isNaN(ms)) throw new UsageError(`${flag}: ${JSON.stringify(text)} is not a valid ISO 8601 time`);
    return new Date(ms).toISOString();
  }
  try {
    return new Date(now - parseDuration(text, flag)).toISOString();
  } catch {
    throw new UsageError(`${flag}: ${JSON.stringify(text)} is neither an ISO 8601 time (2026-11-01T12:00:00Z) nor a duration before now (24h, 7d)`);
  }
}
