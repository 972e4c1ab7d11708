// `siteops vulns report`: every open vulnerability record of a selection of sites as a table (one line per advisory,
// its sites folded), JSON (one row per record), Markdown or SARIF for GitHub code scanning, with an exit code for CI
// (--fail-on). Glue only: the options' rules, the report, its rows, its summary line, the SARIF and its warnings are
// the core's (src/operations/vulnerability-*.ts); this file maps the flags to them and their answer to output.

import { writeFileExclusive } from "../../../common/private-file.js";
import { clean, safeJson } from "../../../common/sanitize.js";
import { VERSION } from "../../../common/version.js";
import {
  buildVulnerabilityReport,
  checkDeclarationsDir,
  collectVulnerabilityRecords,
  parseReportSeverities,
  VULNERABILITY_REPORT_ROW_FIELDS,
  VULNERABILITY_SEVERITIES,
  type VulnerabilityAdvisory,
  vulnerabilityAdvisories,
  type VulnerabilityReport,
  vulnerabilityReportMarkdown,
  vulnerabilityReportRows,
  vulnerabilitySarifFile,
  vulnerabilitySummaryLine,
} from "../../../src/fleet.js";
import type { Site } from "../../../src/index.js";
import { flagString, type Parsed } from "../../args.js";
import type { Context } from "../../context.js";
import { EXIT, UsageError } from "../../exit-codes.js";
import { errorLine } from "../../output/format.js";
import { pick } from "../../output/printer.js";
import { severityColor } from "../../output/style.js";
import { paintCell, renderTable, type Column } from "../../output/table.js";
import { ALLOW_EMPTY_FLAG, type CliSelection, SELECTION_FLAGS, selectCheckedFleet, selectionOf } from "../../sites.js";
import type { LeafSpec } from "../../spec.js";
import { isScheduled, REPORT_JOB_FLAGS, runScheduledReport } from "./scheduled.js";

const FORMATS = ["table", "json", "markdown", "sarif"] as const;
type ReportFormat = (typeof FORMATS)[number] | "jsonl";
/** Sites a table line names before it counts the rest ("16: Blog, Shop, Legacy, +13"). */
const SITES_NAMED = 3;

/** What the flags of `vulns report` ask for, checked before any request. */
interface ReportOptions {
  selection: CliSelection;
  format: ReportFormat;
  minSeverity: ReturnType<typeof parseReportSeverities>["minSeverity"];
  failOn: ReturnType<typeof parseReportSeverities>["failOn"];
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
    description:
      "table (one line per advisory, the default), json (as --json: one row per record), markdown (a PR comment or job summary) or sarif (GitHub code scanning)",
  },
  {
    name: "min-severity",
    type: "string",
    value: "LEVEL",
    choices: VULNERABILITY_SEVERITIES,
    ignoreCase: true,
    description: "leave out records below this severity (low, medium, high, critical, in any case; default low)",
  },
  {
    name: "fail-on",
    type: "string",
    value: "LEVEL",
    choices: VULNERABILITY_SEVERITIES,
    ignoreCase: true,
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
  const { minSeverity, failOn, problems } = parseReportSeverities(
    { minSeverity: flagString(parsed, "min-severity"), failOn: flagString(parsed, "fail-on") },
    { "min-severity": "--min-severity", "fail-on": "--fail-on" },
  );
  if (problems.length) throw new UsageError(problems[0]!);
  const out = flagString(parsed, "out");
  if (out === "") throw new UsageError("--out needs a file name");
  const declarations = flagString(parsed, "declarations");
  if (declarations !== undefined && format !== "sarif") throw new UsageError("--declarations goes with --format sarif (it sets the results' locations)");
  const problem = declarations === undefined ? undefined : checkDeclarationsDir(declarations);
  if (problem) throw new UsageError(`--declarations: ${declarations} ${problem}`);
  return { selection, format, minSeverity, failOn, out, declarations };
}

/** Reads the sites' records and builds the report. Refused credentials and an interrupt are thrown; a site whose
 * records cannot be read is in `failures`. */
async function collectReport(ctx: Context, options: ReportOptions, sites: readonly Site[]): Promise<VulnerabilityReport> {
  const collected = await collectVulnerabilityRecords(await ctx.client(), sites, { signal: ctx.signal });
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
  if (!ctx.quiet) ctx.stderr.write(`${vulnerabilitySummaryLine(report)}${options.out !== undefined ? `; written to ${options.out}` : ""}\n`);
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
    case "sarif": {
      const sarif = vulnerabilitySarifFile(report, {
        toolVersion: VERSION,
        ...(options.declarations !== undefined ? { declarations: options.declarations } : {}),
      });
      for (const w of sarif.warnings) if (!ctx.quiet || w.kind === "cut") ctx.stderr.write(`warning: ${clean(w.message)}\n`);
      return sarif.text;
    }
    case "table":
      return tableText(ctx, report, options.out === undefined && ctx.stdout.isTTY);
  }
}

/** One line per advisory (the core's vulnerabilityAdvisories), the open ones worst first, then the dismissed. */
function tableText(ctx: Context, report: VulnerabilityReport, tty: boolean): string {
  const style = ctx.stdout.style;
  const rows = vulnerabilityReportRows(report);
  const lines = [
    ...vulnerabilityAdvisories(rows.filter((r) => !r.suppressed)).map((a) => ({ a, status: "open" })),
    ...vulnerabilityAdvisories(rows.filter((r) => r.suppressed)).map((a) => ({ a, status: "dismissed" })),
  ];
  const sites = ({ sites }: VulnerabilityAdvisory) =>
    `${sites.length}: ${sites
      .slice(0, SITES_NAMED)
      .map((s) => s.site_name)
      .join(", ")}${sites.length > SITES_NAMED ? `, +${sites.length - SITES_NAMED}` : ""}`;
  const columns: Column<(typeof lines)[number]>[] = [
    { header: "SEVERITY", value: ({ a }) => a.severity, color: paintCell((w) => severityColor(style, w)) },
    { header: "CVSS", value: ({ a }) => a.cvss_score, align: "right" },
    { header: "ADVISORY", value: ({ a }) => a.cve ?? a.advisory },
    { header: "SOFTWARE", value: ({ a }) => a.software_slug },
    { header: "FIXED IN", value: ({ a }) => a.fixed_in.join(", ") },
    { header: "SITES", value: ({ a }) => sites(a) },
    { header: "STATUS", value: ({ status }) => status },
    { header: "TITLE", value: ({ a }) => a.title },
  ];
  if (tty && lines.length === 0) return "";
  const out = renderTable(lines, columns, { tty, style, width: tty ? ctx.stdout.columns : undefined });
  return out.length ? `${out.join("\n")}\n` : "";
}

export const report: LeafSpec = {
  name: "report",
  summary: "every open vulnerability record of the sites, one line per advisory, worst first; exit 1 with --fail-on",
  description:
    "Open records at or above --min-severity, one line per advisory (the worst first) with its sites and the version that fixes it; " +
    "dismissed records are listed apart (suppressed in SARIF, with the reason and comment as the justification). --json gives one row " +
    "per record. Exit 1 when a record at or above --fail-on is open, or a site's records could not be read; 6 when no site is selected.",
  flags: [...REPORT_FLAGS, ...REPORT_JOB_FLAGS],
  jsonFields: VULNERABILITY_REPORT_ROW_FIELDS,
  examples: [
    "siteops vulns report --all --fail-on high",
    "siteops vulns report --all --format sarif --declarations infra/ --out siteops.sarif",
    'siteops vulns report --site Blog --format markdown >> "$GITHUB_STEP_SUMMARY"',
  ],
  async run(ctx, parsed) {
    const options = reportOptions(ctx, parsed);
    const steps = {
      collect: (sites: readonly Site[]) => collectReport(ctx, options, sites),
      emit: (built: VulnerabilityReport) => emitReport(ctx, built, options),
    };
    if (isScheduled(parsed, ctx.env)) return runScheduledReport(ctx, parsed, { selection: options.selection, ...steps });
    const fleet = await selectCheckedFleet(await ctx.client(), options.selection, parsed, ctx.signal);
    if (fleet.notice !== undefined && !ctx.quiet) ctx.stderr.write(`${fleet.notice}\n`);
    return steps.emit(await steps.collect(fleet.sites));
  },
};
