// The outcome of `snapshot create` per site: its JSON form (--json, --report), its exit code, and how the
// run's result is printed (a table on a terminal, tab-separated lines when piped, a closing log line).

import type { Snapshot } from "../../../src/index.js";
import type { Context } from "../../context.js";
import { EXIT, worstExitCode } from "../../exit-codes.js";
import type { ErrorInfo } from "../../jobs/report.js";
import { formatBytes, formatDuration } from "../../output/format.js";
import { printRecords } from "../../output/printer.js";
import type { Progress } from "../../output/progress.js";
import { clean } from "../../../common/sanitize.js";
import { statusColor } from "../../output/style.js";
import { renderTable, type Column } from "../../output/table.js";

export type Outcome = "completed" | "requested" | "failed" | "timed_out" | "interrupted" | "not_started" | "skipped";

export interface SnapshotRecord {
  site: { id: string; name: string; url: string };
  outcome: Outcome;
  /** The snapshot is the one an earlier run of the same job requested (--window): waited for, or already done. */
  adopted: boolean;
  /** The snapshot as last seen (null when none was created). */
  snapshot: Snapshot | null;
  error: ErrorInfo | null;
  duration_ms: number;
}

/** On a terminal, more sites than this print only the failures; the report and --json have them all. */
const TABLE_ROWS = 50;

/** Sites by outcome; the snapshots this run created (requested itself), and the ones it adopted from an earlier
 * run of the job instead of creating them: a rerun that finds the night done reports 0 created, N adopted. */
export function counts(records: readonly SnapshotRecord[]): Record<Outcome | "total" | "created" | "adopted", number> {
  const out = {
    total: records.length,
    completed: 0,
    requested: 0,
    failed: 0,
    timed_out: 0,
    interrupted: 0,
    not_started: 0,
    skipped: 0,
    created: 0,
    adopted: 0,
  };
  for (const r of records) {
    out[r.outcome]++;
    if (r.adopted) out.adopted++;
    else if (r.snapshot) out.created++;
  }
  return out;
}

function recordCode(record: SnapshotRecord): number {
  switch (record.outcome) {
    case "completed":
    case "requested":
      return EXIT.OK;
    case "timed_out":
      return EXIT.TIMEOUT;
    case "interrupted":
    case "not_started":
      return EXIT.INTERRUPTED;
    case "skipped":
      return EXIT.AUTH;
    case "failed":
      return record.error?.code === "AUTHENTICATION_FAILED" || record.error?.code === "PERMISSION_DENIED" ? EXIT.AUTH : EXIT.FAILED;
  }
}

export function runExitCode(ctx: Context, records: readonly SnapshotRecord[]): number {
  return ctx.signal.aborted ? EXIT.INTERRUPTED : worstExitCode(records.map(recordCode));
}

/** The closing log line, then the result on stdout. */
export function printSnapshotRecords(ctx: Context, progress: Progress, records: readonly SnapshotRecord[], elapsedMs: number, wait: boolean): void {
  const c = counts(records);
  if (ctx.signal.aborted) {
    const running = records.filter((r) => r.outcome === "interrupted" && r.snapshot).map((r) => clean(r.snapshot!.id));
    progress.event(
      `interrupted: ${c.completed + c.requested} finished, ${running.length} requested and still running in the service` +
        `${running.length ? ` (${running.slice(0, 10).join(", ")}${running.length > 10 ? ", ..." : ""})` : ""}, ${c.not_started} not started`,
      "error",
    );
  } else if (records.length > 0) {
    // Timed out apart from failed: the exit code (4, not 1) says which, and so does this line.
    const bad = c.failed + c.skipped;
    const tail = `${bad ? `, ${bad} failed` : ""}${c.timed_out ? `, ${c.timed_out} timed out` : ""}`;
    const adopted = c.adopted ? ` (${c.created} created, ${c.adopted} adopted from an earlier run)` : "";
    const line = `done: ${c.completed + c.requested} of ${records.length} snapshot${records.length === 1 ? "" : "s"} ${wait ? "completed" : "requested"}${adopted}${tail}, in ${formatDuration(elapsedMs)}`;
    progress.event(line, bad + c.timed_out ? "warn" : "notice");
  }
  if (printRecords(ctx, records)) return;
  if (ctx.quiet || records.length === 0) return;
  const style = ctx.stdout.style;
  const columns: Column<SnapshotRecord>[] = [
    { header: "SITE", value: (r) => (ctx.stdout.isTTY ? r.site.name : r.site.id) },
    ...(ctx.stdout.isTTY ? [] : [{ header: "NAME", value: (r: SnapshotRecord) => r.site.name }]),
    { header: "SNAPSHOT", value: (r) => r.snapshot?.id ?? "" },
    {
      header: "RESULT",
      value: (r) => r.outcome,
      display: (r) => (r.adopted ? `${r.outcome}, adopted` : r.outcome),
      color: (text) => text.replace(/[a-z_]+/, (w) => statusColor(style, w === "timed_out" || w === "skipped" ? "failed" : w)),
    },
    { header: "SIZE", value: (r) => r.snapshot?.size_bytes, display: (r) => formatBytes(r.snapshot?.size_bytes), align: "right" },
    { header: "TIME", value: (r) => r.duration_ms, display: (r) => (r.duration_ms ? formatDuration(r.duration_ms) : ""), align: "right" },
    { header: "ERROR", value: (r) => r.error?.message ?? "" },
  ];
  const shown = ctx.stdout.isTTY && records.length > TABLE_ROWS ? records.filter((r) => recordCode(r) !== EXIT.OK) : records;
  const lines = shown.length ? renderTable(shown, columns, { tty: ctx.stdout.isTTY, style, width: ctx.stdout.columns }) : [];
  if (shown !== records)
    lines.push(
      `${shown.length ? "" : "no failures; "}${records.length} sites: ${c.completed} completed${c.requested ? `, ${c.requested} requested` : ""}${shown.length ? `, ${shown.length} listed above` : ""} (--report FILE or --json lists every site)`,
    );
  if (lines.length) ctx.stdout.write(`${lines.join("\n")}\n`);
}
