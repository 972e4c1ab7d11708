// Durations and times given on the command line: `30m`, `1h30m`, `90s`, `30d`, `2w` (s, m = minutes, h, d, w,
// as systemd and Go write them), and for --since/--until also an ISO 8601 time.

import { parseDurationText } from "../common/format.js";
import { UsageError } from "./exit-codes.js";

/** Milliseconds of a duration such as "30m" or "1h30m" (common/format.ts reads it). `flag` names the option in the
 * error. */
export function parseDuration(text: string, flag: string): number {
  const total = parseDurationText(text);
  if (total === undefined) {
    throw new UsageError(`${flag}: ${JSON.stringify(text)} is not a duration (use a number and a unit: 90s, 30m, 12h, 30d, 2w; or 1h30m)`);
  }
  if (total <= 0) throw new UsageError(`${flag}: the duration must be above 0 (got ${JSON.stringify(text)})`);
  return total;
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
