// `command: vulnerabilities`: the open vulnerability records of the selected sites (one site, a list, all, one shard),
// after 'policy-file' is applied to them. Glue only: the policy (its scope: every site of the account with `site:
// all` and no shard, else the step's sites; what fails it; its counts), the report, its rows, its summary line, the
// SARIF and its warnings are the core's (src/operations/vulnerability-*.ts). Writes the SARIF file, the counts by
// severity and the records as outputs, the report as the job summary, and fails the step when a record at or above
// 'fail-on' is open, a site's records could not be read, or the policy failed.

import { writeFileExclusive } from "../../../common/private-file.js";
import { clean, safeJson } from "../../../common/sanitize.js";
import { VERSION } from "../../../common/version.js";
import {
  applyVulnerabilityPolicy,
  buildVulnerabilityReport,
  collectVulnerabilityRecords,
  formatShard,
  reportEntries,
  type VulnerabilityPolicy,
  type VulnerabilityReport,
  vulnerabilityReportRows,
  vulnerabilitySarifFile,
  vulnerabilitySummaryLine,
} from "../../../src/fleet.js";
import type { Site, SiteOps } from "../../../src/index.js";
import { errorLine } from "../format.js";
import { parsePolicy } from "../input-vulnerabilities.js";
import { InputError, type VulnerabilitiesInputs } from "../inputs.js";
import { log } from "../log.js";
import { vulnerabilitiesSummary } from "../summary.js";
import { selectedSites } from "./fleet-sites.js";
import type { CommandContext, CommandOutcome } from "./outcome.js";

/** Sites named in a failure line; the summary has all of them. */
const LISTED = 5;

export async function vulnerabilitiesCommand(
  client: SiteOps,
  inputs: VulnerabilitiesInputs,
  { run, secrets, signal }: CommandContext,
): Promise<CommandOutcome> {
  // Before any request, as the other inputs' problems.
  const policy = inputs.policy ? await parsePolicy(inputs.policy) : undefined;
  if (policy && "problem" in policy) throw new InputError([policy.problem]);
  const selected = await selectedSites(client, inputs, signal);
  const { sites, fleetSize, shard, shardName } = selected;
  if (selected.notice !== undefined) log.notice(selected.notice);
  else log.info(`Vulnerability records of ${sites.length} site${sites.length === 1 ? "" : "s"}${shard ? ` (${shardName} of ${fleetSize})` : ""}`);
  const policyFailure = policy ? await applyPolicy(client, policy, inputs, sites, secrets, signal) : undefined;
  const collected = await collectVulnerabilityRecords(client, sites, { concurrency: inputs.concurrency, signal });
  const report = buildVulnerabilityReport(collected, { minSeverity: inputs.minSeverity, failOn: inputs.failOn });

  for (const { site, error } of report.failures) {
    log.error(`${site.name}: ${errorLine(error, secrets)}`, { title: `Vulnerability records of ${site.name} not read` });
  }
  const sarifProblem = writeSarif(report, inputs);
  log.info(`${vulnerabilitySummaryLine(report)}; SARIF in ${inputs.sarifFile}`);
  vulnerabilitiesSummary(report, run, shard);

  const open = reportEntries(report.open);
  let failure: string | undefined = sarifProblem ?? policyFailure;
  if (failure === undefined && report.failing > 0) {
    const worst = open[0]!;
    const advisory = worst.record.cve ?? worst.record.title;
    failure =
      `${report.failing} open vulnerability record${report.failing === 1 ? "" : "s"} at or above ${report.failOn} ('fail-on'); the worst: ` +
      `${clean(String(advisory))} (${worst.severity}) in ${clean(worst.record.software?.slug ?? "")} ${clean(worst.record.software?.installed_version ?? "")} on ${clean(worst.site.name)}.`;
  } else if (failure === undefined && report.failures.length > 0) {
    const named = report.failures.slice(0, LISTED).map((f) => clean(f.site.name));
    const more = report.failures.length > LISTED ? ` and ${report.failures.length - LISTED} more` : "";
    failure = `The vulnerability records of ${report.failures.length} of ${sites.length} sites could not be read: ${named.join(", ")}${more}. ${errorLine(report.failures[0]!.error, secrets)}`;
  }
  return { outputs: outputs(report, inputs, failure === undefined ? "passed" : "failed", secrets), failure };
}

/** Applies 'policy-file' to the step's sites (the core's applyVulnerabilityPolicy): a line per change, a warning or
 * error per acceptance a reviewer should look at; the failure line when the policy failed. */
async function applyPolicy(
  client: SiteOps,
  policy: VulnerabilityPolicy,
  inputs: VulnerabilitiesInputs,
  sites: readonly Site[],
  secrets: readonly string[],
  signal: AbortSignal,
): Promise<string | undefined> {
  // The whole account only with `site: all` and no shard: a shard's or a list's policy judges its own sites only.
  const scope = inputs.sites.all && !inputs.shard && !inputs.fromFile ? "account" : "selection";
  const applied = await applyVulnerabilityPolicy(client, policy, sites, {
    concurrency: inputs.concurrency,
    scope,
    allowUnmatched: inputs.allowUnmatched,
    signal,
  });
  for (const w of applied.warnings) (w.level === "error" ? log.error : log.warning)(`'policy-file': ${clean(w.message)}`);
  for (const r of applied.results) {
    const what = `${clean(r.site.name)}: ${clean(String(r.record.cve ?? r.record.title))} in ${clean(r.record.software?.slug ?? "")}`;
    const by = r.acceptance ? ` (accept[${r.acceptance.index}])` : "";
    if (r.error !== undefined)
      log.error(`${what}: could not ${r.action}: ${errorLine(r.error, secrets)}`, { title: `Policy not applied to ${clean(r.site.name)}` });
    else log.info(`${what} ${r.action === "dismiss" ? "dismissed" : r.action === "reopen" ? "reopened" : "updated"}${by}`);
  }
  const { counts } = applied;
  log.info(
    `Policy ${inputs.policy!.file}: dismissed ${counts.dismiss}, updated ${counts.update}, reopened ${counts.reopen}, ${counts.unchanged} already as it says${counts.failed ? `; ${counts.failed} failed` : ""}`,
  );
  if (!applied.failed) return undefined;
  if (counts.failed) {
    const first = applied.results.find((r) => r.error !== undefined)!;
    return `${counts.failed} change${counts.failed === 1 ? "" : "s"} of 'policy-file' could not be sent: ${errorLine(first.error, secrets)}`;
  }
  const { unmatched } = applied;
  if (unmatched)
    return `${unmatched} entr${unmatched === 1 ? "y" : "ies"} of 'policy-file' match${unmatched === 1 ? "es" : ""} nothing: fix the file, or set 'allow-unmatched: true'.`;
  return undefined; // unreadable sites: the report says so and fails the step
}

/** Writes the SARIF (replaced whole, as every file the action writes) with the core's warnings; the failure line
 * when it cannot. */
function writeSarif(report: VulnerabilityReport, inputs: VulnerabilitiesInputs): string | undefined {
  const sarif = vulnerabilitySarifFile(report, { toolVersion: VERSION, ...(inputs.declarations !== undefined ? { declarations: inputs.declarations } : {}) });
  for (const w of sarif.warnings) log.warning(`${w.message.charAt(0).toUpperCase()}${w.message.slice(1)}.`);
  try {
    writeFileExclusive(inputs.sarifFile, sarif.text);
    return undefined;
  } catch (err) {
    return `'sarif-file' ${JSON.stringify(inputs.sarifFile)} could not be written: ${(err as Error).message}`;
  }
}

function outputs(report: VulnerabilityReport, inputs: VulnerabilitiesInputs, status: string, secrets: readonly string[]): Record<string, string> {
  return {
    counts: safeJson(report.counts),
    "sarif-file": inputs.sarifFile,
    status,
    result: safeJson({
      command: "vulnerabilities",
      status,
      ...(inputs.shard ? { shard: formatShard(inputs.shard) } : {}),
      min_severity: report.minSeverity,
      fail_on: report.failOn,
      counts: report.counts,
      failing: report.failing,
      sites: report.sites.length,
      sarif_file: inputs.sarifFile,
      records: vulnerabilityReportRows(report),
      failures: report.failures.map(({ site, error }) => ({ site: { id: site.id, name: site.name, url: site.url }, error: errorLine(error, secrets) })),
    }),
  };
}
