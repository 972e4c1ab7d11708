// The metrics file (--metrics-file FILE): a run's Prometheus metrics for node_exporter's textfile collector.
// The text exposition format, one file per job, `job_name` label. Written whole: a temporary file beside it (a
// dot name the collector skips), created exclusively, then renamed over FILE, so the collector never reads half
// a file and a link planted at FILE is replaced, never written through. The last success time is carried over
// from the previous file when this run failed, so "no success for 26 h" can be alerted on from the file alone.

import { existsSync, lstatSync, readFileSync } from "node:fs";
import path from "node:path";
import { writeFileExclusive } from "../../../common/private-file.js";
import { UsageError } from "../../exit-codes.js";
import type { RunFacts } from "./run-facts.js";

const PREFIX = "siteops_job";
const LAST_SUCCESS = `${PREFIX}_last_success_timestamp_seconds`;

/** Checks before the run that FILE can be written: a .prom file (the collector reads no other) in an
 * existing directory, not a directory or a symbolic link. Returns its absolute path. */
export function checkMetricsPath(file: string): string {
  const absolute = path.resolve(file);
  const dir = path.dirname(absolute);
  if (!absolute.endsWith(".prom")) throw new UsageError(`--metrics-file ${file}: must end in .prom (node_exporter's textfile collector reads only *.prom)`);
  if (!existsSync(dir) || !lstatSync(dir).isDirectory()) throw new UsageError(`--metrics-file ${file}: the directory ${dir} does not exist`);
  if (existsSync(absolute) || isLink(absolute)) {
    const info = lstatSync(absolute);
    if (info.isSymbolicLink()) throw new UsageError(`--metrics-file ${file}: is a symbolic link (siteops replaces only a regular file)`);
    if (!info.isFile()) throw new UsageError(`--metrics-file ${file}: is not a regular file`);
  }
  return absolute;
}

function isLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/** A label value as the exposition format quotes it. */
function quote(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
}

/** Seconds since the epoch, to the millisecond. */
function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** The last success time (seconds) the previous file recorded for this job, if any. */
function previousSuccess(file: string, job: string): number | undefined {
  let text: string;
  try {
    if (!lstatSync(file).isFile()) return undefined;
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const head = `${LAST_SUCCESS}{job_name=${quote(job)}} `;
  for (const line of text.split("\n")) {
    if (!line.startsWith(head)) continue;
    const value = Number(line.slice(head.length).trim());
    return Number.isFinite(value) && value > 0 ? value : undefined;
  }
  return undefined;
}

/** The metrics of one run, in the text exposition format. `lastSuccess` is in seconds (0: never). */
function renderMetrics(job: string, facts: RunFacts, lastSuccess: number): string {
  const label = `job_name=${quote(job)}`;
  const out: string[] = [];
  const gauge = (name: string, help: string, samples: [labels: string, value: string | number][]) => {
    out.push(`# HELP ${PREFIX}_${name} ${help}`, `# TYPE ${PREFIX}_${name} gauge`);
    for (const [labels, value] of samples) out.push(`${PREFIX}_${name}{${labels}} ${value}`);
  };
  gauge("start_timestamp_seconds", "When the job's last run started (Unix time).", [[label, seconds(facts.startedAt)]]);
  gauge("end_timestamp_seconds", "When the job's last run ended (Unix time).", [[label, seconds(facts.finishedAt)]]);
  gauge("last_success_timestamp_seconds", "When a run of the job last ended with exit code 0 (Unix time; 0: never).", [[label, lastSuccess.toFixed(3)]]);
  gauge("duration_seconds", "How long the job's last run took.", [[label, seconds(facts.durationMs)]]);
  gauge("success", "1 when the job's last run ended with exit code 0, else 0.", [[label, facts.exitCode === 0 ? 1 : 0]]);
  gauge("exit_code", "The exit code of the job's last run (1 some failed, 3 credentials, 4 timed out, 5 a rollout stopped at a gate, 130 interrupted).", [
    [label, facts.exitCode],
  ]);
  gauge(
    "sites",
    "Sites of the job's last run, by outcome.",
    Object.entries(facts.sites).map(([outcome, n]) => [`${label},outcome=${quote(outcome)}`, n]),
  );
  if (facts.created !== undefined) gauge("snapshots_created", "Snapshots the job's last run created (not those it adopted).", [[label, facts.created]]);
  if (facts.adopted !== undefined)
    gauge("snapshots_adopted", "Snapshots of an earlier run of the job that its last run adopted instead of creating (--window).", [[label, facts.adopted]]);
  if (facts.uploadedBytes !== undefined) gauge("uploaded_bytes", "Bytes of snapshot data the job's last run uploaded.", [[label, facts.uploadedBytes]]);
  if (facts.pruned !== undefined) gauge("snapshots_pruned", "Snapshots the job's last run deleted.", [[label, facts.pruned]]);
  if (facts.vulnerabilities) {
    // Not siteops_job_*: the fleet's state as the last run read it, not the run's.
    const v = facts.vulnerabilities;
    out.push(
      "# HELP siteops_vulnerabilities_open Open vulnerability records of the job's sites at its last run, by severity.",
      "# TYPE siteops_vulnerabilities_open gauge",
      ...Object.entries(v.open).map(([severity, n]) => `siteops_vulnerabilities_open{${label},severity=${quote(severity)}} ${n}`),
      "# HELP siteops_vulnerabilities_new Open vulnerability records the job's last run saw for the first time.",
      "# TYPE siteops_vulnerabilities_new gauge",
      `siteops_vulnerabilities_new{${label}} ${v.new}`,
    );
  }
  return `${out.join("\n")}\n`;
}

/** Writes the run's metrics to `file` (checked by checkMetricsPath), readable by the collector (0644). */
export function writeMetrics(file: string, job: string, facts: RunFacts): void {
  const lastSuccess = facts.exitCode === 0 ? facts.finishedAt / 1000 : (previousSuccess(file, job) ?? 0);
  writeFileExclusive(file, renderMetrics(job, facts, lastSuccess), { mode: 0o644 });
}
