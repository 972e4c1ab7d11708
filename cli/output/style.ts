// Colours, when the stream is a terminal and nobody said no: off with NO_COLOR (no-color.org), --no-color,
// TERM=dumb or when piped; FORCE_COLOR=1 (or any value but 0) turns them on anyway.

export interface Style {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

const ON: Style = {
  enabled: true,
  bold: wrap(1, 22),
  dim: wrap(2, 22),
  red: wrap(31, 39),
  green: wrap(32, 39),
  yellow: wrap(33, 39),
  cyan: wrap(36, 39),
};

const same = (text: string) => text;
const OFF: Style = { enabled: false, bold: same, dim: same, red: same, green: same, yellow: same, cyan: same };

export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv, noColorFlag: boolean): boolean {
  if (noColorFlag) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "") return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.TERM === "dumb") return false;
  return stream.isTTY === true;
}

export function styleFor(enabled: boolean): Style {
  return enabled ? ON : OFF;
}

/** Colour of a status word: green for done, red for failed, yellow for waiting/running. */
export function statusColor(style: Style, status: string): string {
  if (/^(completed|succeeded|healthy|passed|enabled|fixed)$/.test(status)) return style.green(status);
  if (/^(failed|rolled_back|down|critical|disabled)$/.test(status)) return style.red(status);
  if (/^(requested|in_progress|pending|running|applying|awaiting_approval|degraded|maintenance|open|high)$/.test(status)) return style.yellow(status);
  return status;
}

/** A vulnerability's severity: critical and high red, medium yellow. */
export function severityColor(style: Style, severity: string): string {
  return severity === "critical" || severity === "high" ? style.red(severity) : severity === "medium" ? style.yellow(severity) : severity;
}

/** Visible width of a string with colour codes (the only escapes this module writes). */
export function visibleLength(text: string): number {
  return text.replace(/\u001b\[\d+m/g, "").length;
}
