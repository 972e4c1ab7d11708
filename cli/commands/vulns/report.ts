// `siteops vulns report`: every open vulnerability record of a selection of sites as a table (one line per advisory,
// its sites folded), JSON (one row per record), Markdown or SARIF for GitHub code scanning, with an exit code for CI
// (--fail-on). Glue only: the options' rules, the report, its rows, its summary line, the SARIF and its warnings are
// the core's (src/operations/vulnerability-*.ts); this file maps the flags to them and their answer to output.

import { writeFileExclusive } from "../../../common/private-file.js";
import { clean } from "../../../common/sanitize.js";
import { VERSION } from "../../../common/version.js";
import {
  ADVISORY_COLUMNS,
  readVulnerabilityReport,
  readVulnerabilityReportOptions,
  VULNERABILITY_REPORT_OPTIONS as OPTIONS,
  VULNERABILITY_REPORT_ROW_FIELDS,
  vulnerabilityAdvisoryLines,
  vulnerabilityFailingLine,
  type VulnerabilityReport,
  vulnerabilityReportPassed,
  vulnerabilityReportText,
  vulnerabilitySummaryLine,
} from "../../../src/fleet.js";
import type { Site } from "../../../src/index.js";
import type { Parsed } from "../../args.js";
import type { Context } from "../../context.js";
import { EXIT, UsageError } from "../../exit-codes.js";
import { cannotWrite } from "../export/out-file.js";
import { flagLabel, flagValue, optionFlags, refuseProblems } from "../../option-flags.js";
import { errorLine } from "../../output/format.js";
import { pick, tableText } from "../../output/printer.js";
import { severityColor } from "../../output/style.js";
import { ALLOW_EMPTY_FLAG, SELECTION_FLAGS, selectCheckedFleet, selectionOf } from "../../sites.js";
import type { LeafSpec } from "../../spec.js";
import { isScheduled, REPORT_JOB_FLAGS, runScheduledReport } from "./scheduled.js";

type ReportFormat = (typeof OPTIONS.format.choices)[number] | "jsonl";

/** The flags' options, read and checked by the core (a UsageError naming the flag), and which output they ask for. */
function reportOptions(ctx: Context, parsed: Parsed) {
  const value = flagValue(parsed);
  const read = readVulnerabilityReportOptions(value, flagLabel, "the current directory");
  refuseProblems(read.problems);
  const given = value(OPTIONS.format) as ReportFormat | undefined;
  if (ctx.format !== "human" && given !== undefined && given !== "json")
    throw new UsageError(`--${ctx.format} prints JSON: give it without --format ${given} (or use --format ${given} alone)`);
  const format: ReportFormat = ctx.format !== "human" ? ctx.format : (given ?? "table");
  const out = value(OPTIONS.out);
  if (out === "") throw new UsageError("--out needs a file name");
  if (read.declarations !== undefined && format !== "sarif") throw new UsageError("--declarations goes with --format sarif (it sets the results' locations)");
  return { ...read, selection: selectionOf(parsed), format, out };
}

type ReportOptions = ReturnType<typeof reportOptions>;

/** Prints or writes the report, says on stderr what failed (the core's words), and returns the exit code: 1 unless
 * the report passed (vulnerabilityReportPassed), else 0. */
function emitReport(ctx: Context, report: VulnerabilityReport, options: ReportOptions): number {
  const text = renderReport(ctx, report, options);
  if (options.out !== undefined) {
    try {
      writeFileExclusive(options.out, text);
    } catch (err) {
      throw cannotWrite(options.out, err);
    }
  } else if (text && !(ctx.quiet && options.format === "table")) ctx.stdout.write(text);
  for (const { site, error } of report.failures) ctx.stderr.write(`error: ${site.name} (${site.id}): ${errorLine(error, ctx.secrets)}\n`);
  if (!ctx.quiet) ctx.stderr.write(`${vulnerabilitySummaryLine(report)}${options.out !== undefined ? `; written to ${options.out}` : ""}\n`);
  const failing = vulnerabilityFailingLine(report, `--fail-on ${report.failOn}`);
  if (failing) ctx.stderr.write(`error: ${failing}\n`);
  return vulnerabilityReportPassed(report) ? EXIT.OK : EXIT.FAILED;
}

/** The report as text: the core's (JSON, Markdown, SARIF with its warnings on stderr), or the advisory table. */
function renderReport(ctx: Context, report: VulnerabilityReport, options: ReportOptions): string {
  if (options.format !== "table") {
    const select = (r: object) => pick(r, ctx.fields);
    const { text, warnings } = vulnerabilityReportText(report, options.format, { toolVersion: VERSION, declarations: options.declarations, select });
    for (const w of warnings) if (!ctx.quiet || w.kind === "cut") ctx.stderr.write(`warning: ${clean(w.message)}\n`);
    return text;
  }
  // One line per advisory, the open ones worst first, then the dismissed; a terminal shows no empty table.
  const tty = options.out === undefined && ctx.stdout.isTTY;
  const lines = vulnerabilityAdvisoryLines(report);
  if (tty && lines.length === 0) return "";
  const style = ctx.stdout.style;
  return tableText(lines, ADVISORY_COLUMNS, { tty, style, width: tty ? ctx.stdout.columns : undefined }, { SEVERITY: (w) => severityColor(style, w) });
}

export const report: LeafSpec = {
  name: "report",
  summary: "every open vulnerability record of the sites, one line per advisory, worst first; exit 1 with --fail-on",
  description:
    "Open records at or above --min-severity, one line per advisory (the worst first) with its sites and the version that fixes it; " +
    "dismissed records are listed apart (suppressed in SARIF, with the reason and comment as the justification). --json gives one row " +
    "per record. Exit 1 when a record at or above --fail-on is open, or a site's records could not be read; 6 when no site is selected.",
  flags: [...SELECTION_FLAGS, ALLOW_EMPTY_FLAG, ...optionFlags(Object.values(OPTIONS)), ...REPORT_JOB_FLAGS],
  jsonFields: VULNERABILITY_REPORT_ROW_FIELDS,
  examples: [
    "siteops vulns report --all --fail-on high",
    "siteops vulns report --all --format sarif --declarations infra/ --out siteops.sarif",
    'siteops vulns report --site Blog --format markdown >> "$GITHUB_STEP_SUMMARY"',
  ],
  async run(ctx, parsed) {
    const options = reportOptions(ctx, parsed);
    const steps = {
      // Refused credentials and an interrupt are thrown; a site whose records cannot be read is in `failures`.
      collect: async (sites: readonly Site[]) =>
        readVulnerabilityReport(await ctx.client(), sites, { minSeverity: options.minSeverity, failOn: options.failOn, signal: ctx.signal }),
      emit: (built: VulnerabilityReport) => emitReport(ctx, built, options),
    };
    if (isScheduled(parsed, ctx.env)) return runScheduledReport(ctx, parsed, { selection: options.selection, ...steps });
    const fleet = await selectCheckedFleet(await ctx.client(), options.selection, parsed, ctx.signal);
    if (fleet.notice !== undefined && !ctx.quiet) ctx.stderr.write(`${fleet.notice}\n`);
    return steps.emit(await steps.collect(fleet.sites));
  },
};
