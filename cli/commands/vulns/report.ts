// `siteops vulns report`: every open vulnerability record of a selection of sites, worst first and grouped by
// software, as a table, JSON, Markdown or SARIF for GitHub code scanning, with an exit code for CI (--fail-on).
// The report itself (collection, order, SARIF, the declarations scan) is the core's (src/fleet.ts); this file reads
// the flags, prints and decides the exit code. In steps (options, collect, emit) that a job wrapper can call.

import { writeFileExclusive } from "../../../common/private-file.js";
import {
  buildVulnerabilityReport,
  collectVulnerabilityRecords,
  reportEntries,
  VULNERABILITY_REPORT_ROW_FIELDS,
  VULNERABILITY_SEVERITIES,
  vulnerabilityReportMarkdown,
  vulnerabilityReportRows,
  type VulnerabilityReport,
  type VulnerabilityReportRow,
} from "../../../src/fleet.js";
import type { Site, VulnerabilitySeverity } from "../../../src/index.js";
import { safeJson } from "../../../common/sanitize.js";
import { flagString, type Parsed } from "../../args.js";
import type { Context } from "../../context.js";
import { EXIT, UsageError } from "../../exit-codes.js";
import { errorLine } from "../../output/format.js";
import { pick } from "../../output/printer.js";
import { paintCell, renderTable, type Column } from "../../output/table.js";
import { ALLOW_EMPTY_FLAG, SELECTION_FLAGS, selectCheckedFleet, selectionOf, type CliSelection } from "../../sites.js";
import type { LeafSpec } from "../../spec.js";
import { declarationsDir, sarifText } from "./report-sarif.js";
import { isScheduled, REPORT_JOB_FLAGS, runScheduledReport } from "./scheduled.js";

const FORMATS = ["table", "json", "markdown", "sarif"] as const;
type ReportFormat = (typeof FORMATS)[number] | "jsonl";

/** What the flags of `vulns report` ask for, checked before any request. */
interface ReportOptions {
  selection: CliSelection;
  format: ReportFormat;
  minSeverity: VulnerabilitySeverity;
  failOn: VulnerabilitySeverity | null;
  /** --out FILE; undefined: stdout. */
  out: string | undefined;
  /** --declarations DIR (SARIF locations). */
  declarations: string | undefined;
}

const REPORT_FLAGS = [
  ...SELECTION_FLAGS,
  ALLOW_EMPTY_FLAG,
  {
    name: "format",
    type: "string",
    value: "FORMAT",
    choices: FORMATS,
    description: "table (default), json (as --json), markdown (a PR comment or job summary) or sarif (GitHub code scanning)",
  },
  {
    name: "min-severity",
    type: "string",
    value: "LEVEL",
    choices: VULNERABILITY_SEVERITIES,
    description: "leave out records below this severity (low, medium, high, critical; default low)",
  },
  {
    name: "fail-on",
    type: "string",
    value: "LEVEL",
    choices: VULNERABILITY_SEVERITIES,
    description: "exit 1 when a record at or above this severity is open (dismissed records do not count)",
  },
  { name: "out", type: "string", value: "FILE", description: "write the report to FILE (replaced whole, 0600) instead of stdout" },
  {
    name: "declarations",
    type: "string",
    value: "DIR",
    description: "with --format sarif: point each result at the line of the .tf or CDK .ts file under DIR that declares its site (by URL or id)",
  },
] as const satisfies LeafSpec["flags"];

/** The flags' options; a UsageError naming the flag for anything wrong. */
function reportOptions(ctx: Context, parsed: Parsed): ReportOptions {
  const selection = selectionOf(parsed);
  const given = flagString(parsed, "format") as (typeof FORMATS)[number] | undefined;
  if (ctx.format !== "human" && given !== undefined && given !== "json")
    throw new UsageError(`--${ctx.format} prints JSON: give it without --format ${given} (or use --format ${given} alone)`);
  const format: ReportFormat = ctx.format !== "human" ? ctx.format : (given ?? "table");
  const minSeverity = (flagString(parsed, "min-severity") as VulnerabilitySeverity | undefined) ?? "low";
  const failOn = (flagString(parsed, "fail-on") as VulnerabilitySeverity | undefined) ?? null;
  if (failOn && VULNERABILITY_SEVERITIES.indexOf(failOn) < VULNERABILITY_SEVERITIES.indexOf(minSeverity))
    throw new UsageError(`--fail-on ${failOn} is below --min-severity ${minSeverity}: the report would fail on records it leaves out`);
  const out = flagString(parsed, "out");
  if (out === "") throw new UsageError("--out needs a file name");
  const declarations = flagString(parsed, "declarations");
  if (declarations !== undefined && format !== "sarif") throw new UsageError("--declarations goes with --format sarif (it sets the results' locations)");
  if (declarations !== undefined) declarationsDir(declarations);
  return { selection, format, minSeverity, failOn, out, declarations };
}

/** Reads the selected sites' records and builds the report. Refused credentials and an interrupt are thrown;
 * a site whose records cannot be read is in `failures`. */
async function collectReport(ctx: Context, options: ReportOptions, sites: readonly Site[]): Promise<VulnerabilityReport> {
  const client = await ctx.client();
  const collected = await collectVulnerabilityRecords(client, sites, { signal: ctx.signal });
  return buildVulnerabilityReport(collected, { minSeverity: options.minSeverity, failOn: options.failOn });
}

/** Prints or writes the report, says on stderr what failed, and returns the exit code: 1 when a site could not be
 * read or a record at or above --fail-on is open, else 0. */
function emitReport(ctx: Context, report: VulnerabilityReport, options: ReportOptions): number {
  const text = renderReport(ctx, report, options);
  if (options.out !== undefined) {
    try {
      writeFileExclusive(options.out, text);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new UsageError(`--out: cannot write ${options.out} (${code === "EACCES" || code === "EPERM" ? "permission denied" : (code ?? String(err))})`);
    }
  } else if (text && !(ctx.quiet && options.format === "table")) ctx.stdout.write(text);
  for (const { site, error } of report.failures) ctx.stderr.write(`error: ${site.name} (${site.id}): ${errorLine(error, ctx.secrets)}\n`);
  if (!ctx.quiet) ctx.stderr.write(`${summary(report)}${options.out !== undefined ? `; written to ${options.out}` : ""}\n`);
  if (report.failing > 0)
    ctx.stderr.write(`error: ${report.failing} open record${report.failing === 1 ? "" : "s"} at or above ${report.failOn} (--fail-on ${report.failOn})\n`);
  return report.failures.length || report.failing > 0 ? EXIT.FAILED : EXIT.OK;
}

function renderReport(ctx: Context, report: VulnerabilityReport, options: ReportOptions): string {
  switch (options.format) {
    case "json":
      return `${safeJson(
        vulnerabilityReportRows(report).map((r) => pick(r, ctx.fields)),
        2,
      )}\n`;
    case "jsonl":
      return vulnerabilityReportRows(report)
        .map((r) => `${safeJson(pick(r, ctx.fields))}\n`)
        .join("");
    case "markdown":
      return vulnerabilityReportMarkdown(report);
    case "sarif":
      return sarifText(ctx, report, options.declarations);
    case "table":
      return tableText(ctx, report, options.out === undefined && ctx.stdout.isTTY);
  }
}

function tableText(ctx: Context, report: VulnerabilityReport, tty: boolean): string {
  const style = ctx.stdout.style;
  const severity = (w: string) => (w === "critical" || w === "high" ? style.red(w) : w === "medium" ? style.yellow(w) : w);
  const columns: Column<VulnerabilityReportRow>[] = [
    { header: "SOFTWARE", value: (r) => `${r.software_slug} ${r.installed_version}` },
    { header: "SEVERITY", value: (r) => r.severity, color: paintCell(severity) },
    { header: "CVSS", value: (r) => r.cvss_score, align: "right" },
    { header: "FIXED IN", value: (r) => r.fixed_in },
    { header: "SITE", value: (r) => r.site_name },
    { header: "ADVISORY", value: (r) => r.cve ?? r.advisory },
    { header: "STATUS", value: (r) => (r.suppressed ? `dismissed (${r.dismissed_reason ?? "no reason"})` : r.status) },
    { header: "TITLE", value: (r) => r.title },
  ];
  const rows = vulnerabilityReportRows(report);
  if (tty && rows.length === 0) return "";
  const lines = renderTable(rows, columns, { tty, style, width: tty ? ctx.stdout.columns : undefined });
  return lines.length ? `${lines.join("\n")}\n` : "";
}

/** "12 open records on 3 of 5 sites (2 critical, 4 high, 6 medium); 1 dismissed" */
function summary(report: VulnerabilityReport): string {
  const open = reportEntries(report.open);
  const affected = new Set(open.map((e) => e.site.id)).size;
  const counts = (["critical", "high", "medium", "low", "unknown"] as const).filter((s) => report.counts[s] > 0).map((s) => `${report.counts[s]} ${s}`);
  const dismissed = reportEntries(report.suppressed).length;
  const scope = report.minSeverity === "low" ? "" : ` at or above ${report.minSeverity}`;
  return (
    `${open.length} open vulnerability record${open.length === 1 ? "" : "s"}${scope} on ${affected} of ${report.sites.length} site${report.sites.length === 1 ? "" : "s"}` +
    (counts.length ? ` (${counts.join(", ")})` : "") +
    (dismissed ? `; ${dismissed} dismissed` : "") +
    (report.failures.length ? `; ${report.failures.length} site${report.failures.length === 1 ? "" : "s"} not read` : "")
  );
}

export const report: LeafSpec = {
  name: "report",
  summary: "every open vulnerability record of the sites, worst first by software; exit 1 with --fail-on",
  description:
    "Open records at or above --min-severity, grouped by software (the worst first) with the version that fixes each; dismissed records " +
    "are listed apart (suppressed in SARIF, with the reason and comment as the justification). Exit 1 when a record at or above --fail-on " +
    "is open, or a site's records could not be read.",
  flags: [...REPORT_FLAGS, ...REPORT_JOB_FLAGS],
  jsonFields: VULNERABILITY_REPORT_ROW_FIELDS,
  examples: [
    "siteops vulns report --all --fail-on high",
    "siteops vulns report --all --format sarif --declarations infra/ --out siteops.sarif",
    'siteops vulns report --site Blog --format markdown >> "$GITHUB_STEP_SUMMARY"',
  ],
  async run(ctx, parsed) {
    const options = reportOptions(ctx, parsed);
    if (isScheduled(parsed, ctx.env))
      return runScheduledReport(ctx, parsed, {
        selection: options.selection,
        collect: (sites) => collectReport(ctx, options, sites),
        emit: (built) => emitReport(ctx, built, options),
      });
    const fleet = await selectCheckedFleet(await ctx.client(), options.selection, parsed, ctx.signal);
    if (fleet.notice !== undefined && !ctx.quiet) ctx.stderr.write(`${fleet.notice}\n`);
    return emitReport(ctx, await collectReport(ctx, options, fleet.sites), options);
  },
};
