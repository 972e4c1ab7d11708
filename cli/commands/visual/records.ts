// What `siteops visual capture|compare` print: a record per page (--json, --jsonl), or a table of them and where
// the baseline or the report is.

import path from "node:path";
import type { BaselineManifest, VisualRun } from "../../../visual/index.js";
import { formatShare } from "../../../src/fleet.js";
import type { Context } from "../../context.js";
import { printRecords } from "../../output/printer.js";
import { statusColor } from "../../output/style.js";
import { paintCell, renderTable, type Column } from "../../output/table.js";
import { clean } from "../../../common/sanitize.js";

interface SiteRef {
  id: string;
  name: string;
  url: string;
}

export interface CaptureRecord {
  site: SiteRef;
  path: string;
  viewport: string;
  /** The picture (under --out), null when it could not be taken. */
  file: string | null;
  width: number | null;
  height: number | null;
  /** The page's HTTP status. */
  status: number | null;
  error: string | null;
}

export const CAPTURE_JSON_FIELDS = ["site", "path", "viewport", "file", "width", "height", "status", "error"] satisfies (keyof CaptureRecord)[];

export function captureRecords(manifest: BaselineManifest, dir: string): CaptureRecord[] {
  return manifest.sites.flatMap((s) =>
    s.pages.map((p) => ({
      site: { id: s.id, name: s.name, url: s.url },
      path: p.path,
      viewport: p.viewport,
      file: p.file ? path.join(dir, p.file) : null,
      width: p.size?.[0] ?? null,
      height: p.size?.[1] ?? null,
      status: p.status,
      error: p.error,
    })),
  );
}

export interface CompareRecord {
  site: SiteRef;
  path: string;
  viewport: string;
  /** passed, failed (changed beyond the threshold) or error (not compared). */
  verdict: string;
  /** The share of changed pixels, in percent. */
  changed: number | null;
  detail: string;
  before: string | null;
  after: string | null;
  diff: string | null;
  /** The site's HTML report. */
  report: string;
}

export const COMPARE_JSON_FIELDS = [
  "site",
  "path",
  "viewport",
  "verdict",
  "changed",
  "detail",
  "before",
  "after",
  "diff",
  "report",
] satisfies (keyof CompareRecord)[];

export function compareRecords(run: VisualRun, dir: string): CompareRecord[] {
  const under = (file: string | undefined) => (file ? path.join(dir, file) : null);
  return run.sites.flatMap((s) =>
    s.pages.map((p) => ({
      site: s.site,
      path: p.path,
      viewport: p.viewport,
      verdict: p.verdict,
      changed: p.changed,
      detail: p.detail,
      before: under(p.files.before),
      after: under(p.files.after),
      diff: under(p.files.diff),
      report: path.join(dir, s.report),
    })),
  );
}

const siteColumn = <T extends { site: SiteRef }>(): Column<T> => ({ header: "SITE", value: (r) => r.site.name });

export function printCaptured(ctx: Context, records: readonly CaptureRecord[], dir: string): void {
  if (printRecords(ctx, records)) return;
  if (!ctx.quiet) {
    const columns: Column<CaptureRecord>[] = [
      siteColumn(),
      { header: "PATH", value: (r) => r.path },
      { header: "VIEWPORT", value: (r) => r.viewport },
      { header: "SIZE", value: (r) => (r.width === null ? "" : `${r.width}x${r.height}`) },
      { header: "STATUS", value: (r) => r.status ?? "" },
      { header: "FILE", value: (r) => r.file ?? r.error },
    ];
    const lines = renderTable(records, columns, { tty: ctx.stdout.isTTY, style: ctx.stdout.style, width: ctx.stdout.columns });
    if (lines.length) ctx.stdout.write(`${lines.join("\n")}\n`);
  }
  const taken = records.filter((r) => r.file !== null).length;
  const sites = new Set(records.map((r) => r.site.id)).size;
  ctx.stderr.write(
    `baseline: ${taken} of ${records.length} pages of ${sites} site${sites === 1 ? "" : "s"} in ${clean(dir)}; compare later with: siteops visual compare --baseline ${clean(dir)}\n`,
  );
}

export function printCompared(ctx: Context, records: readonly CompareRecord[], run: VisualRun, dir: string): void {
  if (!printRecords(ctx, records) && !ctx.quiet) {
    const style = ctx.stdout.style;
    const columns: Column<CompareRecord>[] = [
      siteColumn(),
      { header: "PATH", value: (r) => r.path },
      { header: "VIEWPORT", value: (r) => r.viewport },
      { header: "CHANGED", value: (r) => (r.changed === null ? "" : formatShare(r.changed)), align: "right" },
      { header: "VERDICT", value: (r) => r.verdict, color: paintCell((w) => statusColor(style, w === "passed" ? "passed" : "failed")) },
    ];
    const lines = renderTable(records, columns, { tty: ctx.stdout.isTTY, style, width: ctx.stdout.columns });
    if (lines.length) ctx.stdout.write(`${lines.join("\n")}\n`);
  }
  const failed = run.sites.filter((s) => !s.ok).length;
  const summary = failed
    ? `${failed} of ${run.sites.length} sites changed beyond ${formatShare(run.settings.threshold)} or could not be compared`
    : `${run.sites.length} site${run.sites.length === 1 ? "" : "s"} within ${formatShare(run.settings.threshold)}`;
  ctx.stderr.write(`${summary}; report: ${clean(path.join(dir, "report.html"))}\n`);
}
