// The job summary: one table per run of the action, written to GITHUB_STEP_SUMMARY. Cells are HTML, so
// everything that came from the service is escaped, and its control characters shown as escapes (a newline
// in a name must not end the HTML block and turn the rest of the cell into Markdown).

import * as core from "@actions/core";
import { formatBytes, formatDuration } from "../../common/format.js";
import { type Site, type Snapshot, type UpgradePipeline } from "../../src/index.js";
import {
  failureGroups,
  formatShard,
  formatTarget,
  rolloutRows,
  rolloutTotals,
  visualGateLine,
  vulnerabilityReportMarkdown,
  waveLine,
  type RolloutResult,
  type RolloutRow,
  type Shard,
  type VisualGateReport,
  type VulnerabilityReport,
} from "../../src/fleet.js";
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

function siteCell(site: Pick<Site, "name" | "url">): string {
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

/** A rollout's summary, read at 300 sites: the totals line first; each wave's verdict against its budget; the sites
 * that did not pass, grouped by reason (each said once), before those that passed, which are folded with the sites
 * already at the target; the count of sites left untouched and how to continue; with the visual gate, its failing
 * pages and where its report is. `undefined`: no site selected. */
export function rolloutSummary(result: RolloutResult | undefined, run: RunInfo, visual?: VisualGateReport): void {
  if (!result) {
    core.summary.addHeading("Site Operations: rollout", 3).addRaw("<p>No site to upgrade.</p>", true);
    footer(run);
    return;
  }
  const target = formatTarget(result.target);
  const rows = rolloutRows(result);
  core.summary.addHeading(`Site Operations: rollout to ${escapeHtml(target)}`, 3);
  const verdict = { done: "Done", stopped: "Stopped", timed_out: "Timed out", interrupted: "Interrupted", refused: "Refused by the service" }[result.outcome];
  core.summary.addRaw(`<p><b>${verdict}</b>: ${escapeHtml(rolloutTotals(result.counts, result.target))}.</p>`, true);
  if (result.refusal) core.summary.addRaw(`<p>${escapeHtml(result.refusal.failure.message)}</p>`, true);
  const waves = result.waves.map((w) => escapeHtml(waveLine(w, result.planned)));
  if (waves.length) core.summary.addRaw(`<p>${waves.join("<br>")}</p>`, true);
  for (const group of failureGroups(rows)) {
    const outcome = group.rows[0]!.outcome.replace("_", " ");
    core.summary.addRaw(`<h4>${group.rows.length} ${outcome}: ${escapeHtml(group.reason)}</h4>`, true);
    core.summary.addTable([header("Site", "Wave", "Pipeline"), ...group.rows.map((r) => rolloutRow(r))]);
  }
  const passed = rows.filter((r) => r.outcome === "passed");
  if (passed.length)
    folded(`${passed.length} passed`, [
      header("Site", "Wave", "Pipeline", "Checks"),
      ...passed.map((r) => rolloutRow(r, r.checks.map((c) => c.detail).join("; "))),
    ]);
  const current = rows.filter((r) => r.outcome === "already_upgraded");
  if (current.length)
    core.summary.addRaw(
      `<details><summary>${current.length} already at ${escapeHtml(target)} or newer</summary><p>${current.map((r) => siteCell(r.site)).join(", ")}</p></details>`,
      true,
    );
  const untouched = rows.filter((r) => r.outcome === "untouched");
  if (untouched.length) {
    const inWaves = [...new Set(untouched.map((r) => r.wave))].join(", ");
    core.summary.addRaw(
      `<p>${untouched.length} untouched (wave${inWaves.includes(",") ? "s" : ""} ${inWaves}): nothing was asked of the service for them.</p>`,
      true,
    );
  }
  if (result.outcome !== "done" && result.refusal?.reason !== "target") {
    const rerun = run.runId !== undefined ? ` (<code>gh run rerun ${run.runId} --failed</code>)` : "";
    const when = result.outcome === "stopped" ? "once the failed sites are dealt with, " : "";
    core.summary.addRaw(
      `<p>To continue, ${when}re-run the failed jobs of this workflow run${rerun}: the re-run adopts this run's pipelines and opens none twice.</p>`,
      true,
    );
  }
  if (visual?.report) visualSection(visual, run);
  footer(run);
}

/** The visual gate: each page that changed beyond the threshold or could not be compared, and where the images and
 * reports are (the workflow's artifact: the run's page lists it). */
function visualSection(visual: VisualGateReport, run: RunInfo): void {
  core.summary.addRaw(`<h4>Visual gate: ${visualGateLine(visual)}</h4>`, true);
  if (visual.failing.length)
    core.summary.addTable([
      header("Site", "Path", "Viewport", "Changed"),
      ...visual.failing.map((f): Row => [escapeHtml(f.site.name), code(f.path), escapeHtml(f.viewport), escapeHtml(f.detail)].map(cell)),
    ]);
  const artifacts = run.runUrl
    ? ` (uploaded with the run's artifacts: <a href="${escapeHtml(run.runUrl.replace(/\/attempts\/\d+$/, ""))}#artifacts">this run's artifacts</a>)`
    : "";
  core.summary.addRaw(`<p>Before, after and diff images and the HTML report: ${code(visual.report)} in ${code(visual.dir)}${artifacts}.</p>`, true);
}

/** A site of a rollout: its wave, its pipeline and (passed sites) what the gates found. */
function rolloutRow(r: RolloutRow, ...details: string[]): Row {
  const pipeline = r.pipeline ? `${code(r.pipeline.id)} ${escapeHtml(r.pipeline.status)}` : "";
  return [siteCell(r.site), String(r.wave ?? ""), pipeline, ...details.map(escapeHtml)].map(cell);
}

/** A table folded under a line that says what it holds. */
function folded(title: string, rows: Row[]): void {
  core.summary.addRaw(`<details><summary>${escapeHtml(title)}</summary>`, true);
  core.summary.addTable(rows);
  core.summary.addRaw("</details>", true);
}

/** A rollout's plan ('dry-run'): each wave and its sites, and the sites already at the target. */
export function rolloutPlanSummary(
  target: string,
  waves: readonly { wave: number; sites: readonly Site[] }[],
  plan: { waves: readonly unknown[]; current: readonly Site[] },
  run: RunInfo,
): void {
  core.summary.addHeading(`Site Operations: rollout to ${escapeHtml(target)} (dry run: nothing opened)`, 3);
  core.summary.addTable([header("Wave", "Sites"), ...waves.map((w): Row => [`${w.wave} of ${plan.waves.length}`, w.sites.map(siteCell).join(", ")].map(cell))]);
  if (plan.current.length)
    core.summary.addRaw(
      `<details><summary>${plan.current.length} already at ${escapeHtml(target)} or newer: in no wave</summary><p>${plan.current.map(siteCell).join(", ")}</p></details>`,
      true,
    );
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
