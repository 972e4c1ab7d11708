// The outcome of `snapshot prune` per site and how it is printed: per site, every snapshot with what happens
// to it and why (restic's forget output), as tables on a terminal, tab-separated lines when piped, or JSON.

import type { Snapshot } from "../../../src/index.js";
import type { Context } from "../../context.js";
import type { ErrorInfo } from "../../jobs/report.js";
import { formatBytes, formatDuration, formatLocalTime } from "../../output/format.js";
import { printRecords } from "../../output/printer.js";
import type { Progress } from "../../output/progress.js";
import { clean } from "../../../common/sanitize.js";
import { statusColor } from "../../output/style.js";
import { paintCell, renderTable, type Column } from "../../output/table.js";

/** keep; delete (dry run); deleted; refused (the service kept it, 422); not_deleted (an error stopped the site). */
type PruneAction = "keep" | "delete" | "deleted" | "refused" | "not_deleted";

export interface PruneRecord {
  site: { id: string; name: string; url: string };
  dry_run: boolean;
  snapshots: { snapshot: Snapshot; action: PruneAction; reasons: string[]; error: ErrorInfo | null }[];
  error: ErrorInfo | null;
}

type Row = PruneRecord["snapshots"][number] & { site: PruneRecord["site"] };

export function printPruneRecords(ctx: Context, progress: Progress, records: readonly PruneRecord[], elapsedMs: number): void {
  const all = records.flatMap((r) => r.snapshots);
  const gone = all.filter((s) => s.action === "deleted" || s.action === "delete").length;
  const failed = records.filter((r) => r.error).length;
  if (records.length > 0 && !ctx.signal.aborted) {
    const verb = records[0]!.dry_run ? "would delete" : "deleted";
    progress.event(
      `done: ${verb} ${gone} of ${all.length} snapshots of ${records.length} site${records.length === 1 ? "" : "s"}${failed ? `, ${failed} site${failed === 1 ? "" : "s"} failed` : ""}, in ${formatDuration(elapsedMs)}`,
      failed ? "warn" : "notice",
    );
  }
  if (printRecords(ctx, records)) return;
  if (ctx.quiet) return;
  const tty = ctx.stdout.isTTY;
  const style = ctx.stdout.style;
  const paint = (action: string) =>
    action === "keep" ? style.green(action) : action === "refused" || action === "not_deleted" ? style.yellow(action) : style.red(action);
  const columns: Column<Row>[] = [
    ...(tty ? [] : [{ header: "SITE", value: (r: Row) => r.site.id }]),
    { header: "ACTION", value: (r) => r.action, color: paintCell(paint) },
    { header: "SNAPSHOT", value: (r) => r.snapshot.id },
    { header: "CREATED", value: (r) => r.snapshot.created_at, display: (r) => formatLocalTime(r.snapshot.created_at) },
    { header: "STATUS", value: (r) => r.snapshot.status, color: paintCell((w) => statusColor(style, w)) },
    { header: "SIZE", value: (r) => r.snapshot.size_bytes, display: (r) => formatBytes(r.snapshot.size_bytes), align: "right" },
    { header: "REASONS", value: (r) => r.reasons.join(", ") },
  ];
  const out: string[] = [];
  for (const record of records) {
    const rows = record.snapshots.map((s) => ({ ...s, site: record.site }));
    if (tty) {
      const keep = rows.filter((r) => r.action === "keep" || r.action === "refused").length;
      const title = `${style.bold(clean(record.site.name))} (${record.site.id}): ${rows.length} snapshot${rows.length === 1 ? "" : "s"}, keep ${keep}, ${record.dry_run ? "would delete" : "delete"} ${rows.length - keep}${record.dry_run ? " (dry run)" : ""}`;
      out.push(title);
      if (rows.length) out.push(...renderTable(rows, columns, { tty, style, width: ctx.stdout.columns }).map((l) => `  ${l}`));
      if (record.error) out.push(`  ${style.red("error:")} ${clean(record.error.message)}`);
      out.push("");
    } else {
      out.push(...renderTable(rows, columns, { tty, style, width: undefined }));
    }
  }
  if (out.length) ctx.stdout.write(`${out.join("\n").replace(/\n+$/, "")}\n`);
}
