// The job summary: one table per run of the action, written to GITHUB_STEP_SUMMARY. Cells are HTML, so
// everything that came from the service is escaped, and its control characters shown as escapes (a newline
// in a name must not end the HTML block and turn the rest of the cell into Markdown).

import * as core from "@actions/core";
import { formatBytes, formatDuration } from "../../common/format.js";
import { type Site, type Snapshot, type UpgradePipeline } from "../../src/index.js";
import { formatShard, vulnerabilityReportMarkdown, type Shard, type VulnerabilityReport, type WaveResult } from "../../src/fleet.js";
import { clean } from "../../common/sanitize.js";
import type { RunInfo } from "./run-info.js";

export interface SnapshotRow {
  site: Site;
  snapshot: Snapshot | undefined;
  error: string | undefined;
  durationMs: number;
  /** The snapshot an earlier attempt of this workflow run requested, adopted rather than taken again. */
  adopted: boolean;
}

type Row = Parameters<typeof core.summary.addTable>[0][number];

function escapeHtml(text: string): string {
  return clean(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A table cell: @actions/core writes an empty one as an unclosed `<td>`, so an empty cell holds a space. */
const cell = (html: string): string => html || "&nbsp;";

function siteCell(site: Site): string {
  const url = /^https?:\/\//.test(site.url) ? site.url : undefined;
  const name = escapeHtml(site.name);
  return url ? `<a href="${escapeHtml(url)}">${name}</a>` : name;
}

const code = (text: string | null | undefined): string => (text ? `<code>${escapeHtml(text)}</code>` : "");

const header = (...names: string[]): Row => names.map((data) => ({ data, header: true }));

export function snapshotSummary(rows: SnapshotRow[], run: RunInfo, headline: string, shard?: Shard): void {
  core.summary.addHeading(`Site Operations: snapshots${shard ? ` (shard ${formatShard(shard)})` : ""}`, 3).addRaw(`<p>${escapeHtml(headline)}</p>`, true);
  if (rows.length > 0) {
    core.summary.addTable([
      header("Site", "Snapshot", "Status", "Size", "Duration", "Details"),
      ...rows.map(
        (r): Row =>
          [
            siteCell(r.site),
            code(r.snapshot?.id),
            escapeHtml(r.error ? (r.snapshot?.status === "failed" ? "failed" : "error") : (r.snapshot?.status ?? "")),
            escapeHtml(formatBytes(r.snapshot?.size_bytes)),
            escapeHtml(formatDuration(r.durationMs)),
            escapeHtml(r.error ?? (r.adopted ? `Adopted from an earlier attempt. ${r.snapshot?.description ?? ""}` : (r.snapshot?.description ?? ""))),
          ].map(cell),
      ),
    ]);
  }
  footer(run);
}

export function pipelineSummary(title: string, site: Site, pipeline: UpgradePipeline | undefined, durationMs: number, run: RunInfo, note?: string): void {
  core.summary.addHeading(`Site Operations: ${escapeHtml(title)}`, 3);
  if (note) core.summary.addRaw(`<p>${escapeHtml(note)}</p>`, true);
  if (pipeline) {
    const versions = [
      pipeline.to_wp_version && pipeline.to_wp_version !== pipeline.from_wp_version ? `WordPress ${pipeline.from_wp_version} → ${pipeline.to_wp_version}` : "",
      pipeline.to_php_version && pipeline.to_php_version !== pipeline.from_php_version ? `PHP ${pipeline.from_php_version} → ${pipeline.to_php_version}` : "",
    ].filter(Boolean);
    const steps = (pipeline.steps ?? []).map((s) => `${s.name}: ${s.status}`).join(", ");
    core.summary.addTable([
      header("Site", "Pipeline", "Status", "Upgrade", "Steps", "Snapshot", "Duration"),
      [
        siteCell(site),
        code(pipeline.id),
        escapeHtml(pipeline.status) + (pipeline.error ? `<br>${escapeHtml(pipeline.error)}` : ""),
        escapeHtml(versions.join(", ")),
        escapeHtml(steps),
        code(pipeline.snapshot_id),
        escapeHtml(formatDuration(durationMs)),
      ].map(cell),
    ]);
  }
  footer(run);
}

/** One table per wave: its verdict and budget, then each site's outcome, pipeline, the gates' verdicts, duration. */
export function rolloutSummary(target: string, waves: readonly WaveResult[], run: RunInfo, total = waves.length): void {
  core.summary.addHeading(`Site Operations: rollout to ${escapeHtml(target)}`, 3);
  if (waves.length === 0) core.summary.addRaw("<p>No site to upgrade.</p>", true);
  for (const w of waves) {
    core.summary.addRaw(`<h4>Wave ${w.wave} of ${total}: ${escapeHtml(w.verdict.replace("_", " "))} (${w.failed} failed, ${w.allowed} allowed)</h4>`, true);
    if (w.verdict === "not_started") continue;
    core.summary.addTable([
      header("Site", "Outcome", "Pipeline", "Checks", "Duration"),
      ...w.sites.map(
        (r): Row =>
          [
            siteCell(r.site),
            escapeHtml(r.outcome.replace("_", " ")) + (r.adopted ? " (adopted)" : "") + (r.reason ? `<br>${escapeHtml(r.reason)}` : ""),
            r.pipeline ? `${code(r.pipeline.id)} ${escapeHtml(r.pipeline.status)}` : "",
            r.checks.map((c) => `${c.ok ? "✅" : "❌"} ${escapeHtml(c.detail)}`).join("<br>"),
            escapeHtml(formatDuration(r.durationMs)),
          ].map(cell),
      ),
    ]);
  }
  footer(run);
}

/** A rollout's plan ('dry-run'): each wave and its sites. */
export function rolloutPlanSummary(target: string, waves: readonly { wave: number; sites: readonly Site[] }[], total: number, run: RunInfo): void {
  core.summary.addHeading(`Site Operations: rollout to ${escapeHtml(target)} (dry run: nothing opened)`, 3);
  core.summary.addTable([header("Wave", "Sites"), ...waves.map((w): Row => [`${w.wave} of ${total}`, w.sites.map(siteCell).join(", ")].map(cell))]);
  footer(run);
}

/** The core's Markdown of the report (service text escaped there): its counts, then a table per software, the
 * worst first, each record with its advisory linked, then the dismissed records. */
export function vulnerabilitiesSummary(report: VulnerabilityReport, run: RunInfo, shard?: Shard): void {
  const title = `Site Operations vulnerability report${shard ? ` (shard ${formatShard(shard)})` : ""}`;
  core.summary.addRaw(vulnerabilityReportMarkdown(report, { title }), true);
  footer(run);
}

function footer(run: RunInfo): void {
  if (run.runUrl) core.summary.addRaw(`<p>Run: <a href="${escapeHtml(run.runUrl)}">${escapeHtml(run.runUrl)}</a></p>`, true);
}

/** Writes what was added; a run outside GitHub (no GITHUB_STEP_SUMMARY) has nowhere to write it. The summary
 * is a report of the work, not the work: failing to write it is a warning. */
export async function writeSummary(): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) {
    core.summary.emptyBuffer();
    return;
  }
  try {
    await core.summary.write();
  } catch (err) {
    core.summary.emptyBuffer();
    core.warning(`The job summary could not be written: ${(err as Error).message}`);
  }
}
