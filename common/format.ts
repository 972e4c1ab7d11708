// How sizes and durations read for people: the CLI's tables and progress lines, the GitHub Action's log and job
// summary and the emulator's console print them alike.

/** 512 B, 1.5 KiB, 20 MiB; "" for an unknown size. */
export function formatBytes(bytes: number | null | undefined): string {
  if (typeof bytes !== "number" || !Number.isFinite(bytes)) return "";
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** 250 ms, 4.2 s, 3 min 5 s, 2 h 10 min. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.round(s - m * 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/y;

/** The milliseconds of a duration as a person writes it on a command line: `90s`, `30m`, `1h30m`, `2d`, `1w` (s, m
 * = minutes, h, d, w, as systemd and Go write them), or `0`; undefined when it is not one. */
export function parseDurationText(text: string): number | undefined {
  const input = text.trim();
  if (/^0+(\.0+)?$/.test(input)) return 0;
  let total = 0;
  let at = 0;
  while (at < input.length) {
    PART.lastIndex = at;
    const m = PART.exec(input);
    if (!m) break;
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
    at = PART.lastIndex;
  }
  return input === "" || at !== input.length ? undefined : Math.round(total);
}

/** A duration as a command line takes it (parseDurationText reads it back): `1h`, `10m`, `5s`, `1h30m`, `250ms`, `0`. */
export function formatDurationText(ms: number): string {
  if (ms === 0) return "0";
  let left = ms;
  let out = "";
  for (const [unit, size] of [
    ["d", UNIT_MS.d!],
    ["h", UNIT_MS.h!],
    ["m", UNIT_MS.m!],
    ["s", UNIT_MS.s!],
    ["ms", 1],
  ] as const) {
    const n = Math.floor(left / size);
    if (n > 0) out += `${n}${unit}`;
    left -= n * size;
  }
  return out;
}
