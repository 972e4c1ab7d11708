// What a finished run amounts to, read once from its JSON report: the one source of metrics, pings and messages.
// Sites by outcome, snapshots created (apart from those adopted from an earlier run) and pruned, bytes uploaded, the failed sites with their first errors (from
// the document --report writes). The metrics file, the /fail ping's body and the Slack message all format these
// facts; none of them computes its own.

import { formatBytes } from "../../../common/format.js";
import { type RolloutRow, rolloutCounts, SITE_ROLLOUT_OUTCOMES } from "../../../src/fleet.js";
import { EXIT } from "../../exit-codes.js";

// The parts of the reports' records read here (cli/commands/snapshots/create-records.ts, prune-records.ts),
// declared apart so that the job's machinery does not import the command files built on it.
interface ErrorPart {
  message: string;
  code: string;
}
interface SiteRef {
  id: string;
  name: string;
}
interface CreateRecord {
  site: SiteRef;
  outcome: string;
  adopted: boolean;
  snapshot: { source: string; size_bytes: number | null } | null;
  error: ErrorPart | null;
}
interface VulnsSiteRecord {
  site: SiteRef;
  outcome: string;
  error: ErrorPart | null;
}
interface VulnsSummary {
  open: Record<string, number>;
  new: number;
}
interface PruneRecord {
  site: SiteRef;
  snapshots: { action: string }[];
  error: ErrorPart | null;
}

/** The report as runJob builds it: the header, the exit code, and the command's body (results, summary). */
export interface JobReport {
  command: string;
  started_at: string;
  finished_at: string;
  duration_ms: number;
  exit_code: number;
  results?: unknown;
  error?: ErrorPart;
  [key: string]: unknown;
}

interface Failure {
  site: { id: string; name: string } | null;
  message: string;
}

export interface RunFacts {
  /** "snapshot create", "snapshot prune", "upgrade rollout" or "vulns report". */
  command: string;
  startedAt: number;
  finishedAt: number;
  durationMs: number;
  exitCode: number;
  /** Sites by outcome, every outcome of the command present (0 when none). */
  sites: Record<string, number>;
  /** Snapshots this run created (`snapshot create` only); not those it adopted. */
  created?: number;
  /** Snapshots an earlier run of the job created that this run adopted instead of creating (`snapshot create`
   * only; --window). */
  adopted?: number;
  /** Bytes of data this run uploaded (`snapshot create` only). */
  uploadedBytes?: number;
  /** Snapshots this run deleted (`snapshot prune` only; 0 in a dry run). */
  pruned?: number;
  /** Open records at or above the report's --min-severity by severity, and how many of them this run saw first
   * (`vulns report` only). */
  vulnerabilities?: VulnsSummary;
  /** The failed sites (in report order), or the run's own error when it failed before any site. */
  failures: Failure[];
  /** The visual gate's index report, a path (`upgrade rollout --gate visual` only). */
  visualReport?: string;
}

const CREATE_OUTCOMES = ["completed", "requested", "failed", "timed_out", "interrupted", "not_started", "skipped"] as const;
const PRUNE_OUTCOMES = ["pruned", "failed", "interrupted"] as const;
const VULNS_OUTCOMES = ["read", "failed"] as const;

/** What each exit code means, for the ping body and the message ("exit 4: timed out"). */
const EXIT_MEANING: Record<number, string> = {
  [EXIT.OK]: "all done",
  [EXIT.FAILED]: "some failed",
  [EXIT.USAGE]: "usage or configuration error",
  [EXIT.AUTH]: "credentials refused or missing",
  [EXIT.TIMEOUT]: "timed out",
  [EXIT.STOPPED]: "stopped by a wave's gate",
  [EXIT.EMPTY]: "no site selected",
  [EXIT.INTERRUPTED]: "interrupted",
};

export function runFacts(report: JobReport): RunFacts {
  const command = report.command.replace(/^siteops /, "");
  const startedAt = Date.parse(report.started_at);
  const finishedAt = Date.parse(report.finished_at);
  const facts: RunFacts = { command, startedAt, finishedAt, durationMs: report.duration_ms, exitCode: report.exit_code, sites: {}, failures: [] };
  const results = Array.isArray(report.results) ? report.results : [];
  if (command === "snapshot prune") {
    const records = results as PruneRecord[];
    for (const outcome of PRUNE_OUTCOMES) facts.sites[outcome] = 0;
    facts.pruned = 0;
    for (const r of records) {
      facts.sites[r.error === null ? "pruned" : r.error.code === "INTERRUPTED" ? "interrupted" : "failed"]!++;
      facts.pruned += r.snapshots.filter((s) => s.action === "deleted").length;
      if (r.error) facts.failures.push({ site: { id: r.site.id, name: r.site.name }, message: r.error.message });
    }
  } else if (command === "vulns report") {
    for (const outcome of VULNS_OUTCOMES) facts.sites[outcome] = 0;
    for (const r of results as VulnsSiteRecord[]) {
      facts.sites[r.outcome] = (facts.sites[r.outcome] ?? 0) + 1;
      if (r.error) facts.failures.push({ site: { id: r.site.id, name: r.site.name }, message: r.error.message });
    }
    const summary = report.vulnerabilities as VulnsSummary | undefined;
    if (summary) facts.vulnerabilities = { open: { ...summary.open }, new: summary.new };
  } else if (command === "upgrade rollout") {
    // The core's records and counts (rolloutRows: the command put them in the report as they are); a stopped
    // rollout's failures are its failed sites with why (the gate's verdict or the pipeline's error).
    const rows = results as RolloutRow[];
    const counts = rolloutCounts(rows);
    for (const outcome of SITE_ROLLOUT_OUTCOMES) facts.sites[outcome] = counts[outcome];
    for (const r of rows) if (r.error) facts.failures.push({ site: { id: r.site.id, name: r.site.name }, message: r.error.message });
    const visual = report.visual as { report?: unknown } | undefined;
    if (typeof visual?.report === "string") facts.visualReport = visual.report;
  } else {
    const records = results as CreateRecord[];
    for (const outcome of CREATE_OUTCOMES) facts.sites[outcome] = 0;
    facts.created = 0;
    facts.adopted = 0;
    facts.uploadedBytes = 0;
    for (const r of records) {
      facts.sites[r.outcome] = (facts.sites[r.outcome] ?? 0) + 1;
      if (r.adopted) facts.adopted++;
      else if (r.snapshot) {
        facts.created++;
        if (r.snapshot.source === "upload" && r.snapshot.size_bytes) facts.uploadedBytes += r.snapshot.size_bytes;
      }
      if (r.error) facts.failures.push({ site: { id: r.site.id, name: r.site.name }, message: r.error.message });
    }
  }
  if (report.error) facts.failures.unshift({ site: null, message: report.error.message });
  return facts;
}

/** "exit 1 (some failed)". */
export function exitLine(code: number): string {
  const meaning = EXIT_MEANING[code];
  return meaning ? `exit ${code} (${meaning})` : `exit ${code}`;
}

/** "3 sites: 2 completed, 1 failed" (outcomes with no site left out), then what the run did besides (workLine):
 * "; 1 snapshot created, 1 adopted from an earlier run". */
export function sitesLine(facts: RunFacts): string {
  const total = Object.values(facts.sites).reduce((a, b) => a + b, 0);
  const work = total > 0 ? workLine(facts) : "";
  const parts = Object.entries(facts.sites)
    .filter(([, n]) => n > 0)
    .map(([outcome, n]) => `${n} ${outcome.replace(/_/g, " ")}`);
  return `${total} site${total === 1 ? "" : "s"}${parts.length ? `: ${parts.join(", ")}` : ""}${work ? `; ${work}` : ""}`;
}

/** What the run did besides the sites' outcomes, in words: "0 snapshots created, 300 adopted from an earlier run",
 * "12 snapshots deleted" (empty when the command counts nothing more). The ping and the Slack message both say it:
 * a rerun that adopted every snapshot is not a night that took them. */
function workLine(facts: RunFacts): string {
  const plural = (n: number) => (n === 1 ? "" : "s");
  return [
    facts.created !== undefined ? `${facts.created} snapshot${plural(facts.created)} created` : "",
    facts.adopted ? `${facts.adopted} adopted from an earlier run` : "",
    facts.uploadedBytes ? `${formatBytes(facts.uploadedBytes)} uploaded` : "",
    facts.pruned !== undefined ? `${facts.pruned} snapshot${plural(facts.pruned)} deleted` : "",
  ]
    .filter(Boolean)
    .join(", ");
}

/** Joins `lines` (newline-ended) up to `maxBytes` of UTF-8 and `maxLines` lines; the lines left off become one
 * "... and N more" line. */
export function capLines(lines: readonly string[], maxBytes: number, more: (n: number) => string, maxLines = Number.POSITIVE_INFINITY): string {
  let out = "";
  let bytes = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = `${lines[i]}\n`;
    const size = Buffer.byteLength(line);
    const tail = i + 1 < lines.length ? Buffer.byteLength(`${more(lines.length - i - 1)}\n`) : 0;
    if (i >= maxLines || bytes + size + tail > maxBytes) return `${out}${more(lines.length - i)}\n`;
    out += line;
    bytes += size;
  }
  return out;
}
