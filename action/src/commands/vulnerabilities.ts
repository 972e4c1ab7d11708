// `command: vulnerabilities`: the open vulnerability records of the selected sites (one site, a list, all, one shard),
// after 'policy-file' is applied to them. Glue only: the policy (its scope: every site of the account with `site:
// all` and no shard, else the step's sites; what fails it; its counts), the report, its rows, its summary line, the
// SARIF and its warnings are the core's (src/operations/vulnerability-*.ts). Writes the SARIF file, the counts by
// severity and the records as outputs, the report as the job summary, and fails the step when a record at or above
// 'fail-on' is open, a site's records could not be read, or the policy failed.

import { writeFileExclusive } from "../../../common/private-file.js";
import { safeJson } from "../../../common/sanitize.js";
import { VERSION } from "../../../common/version.js";
import {
  applyVulnerabilityPolicy,
  formatShard,
  policyCountsLine,
  policyFailureLine,
  policyLines,
  readVulnerabilityReport,
  type VulnerabilityPolicy,
  type VulnerabilityReport,
  vulnerabilityFailingLine,
  vulnerabilityReportRecord,
  vulnerabilitySarifFile,
  vulnerabilitySummaryLine,
  vulnerabilityUnreadLine,
} from "../../../src/fleet.js";
import type { Site, SiteOps } from "../../../src/index.js";
import { errorLine } from "../format.js";
import { parsePolicy } from "../input-vulnerabilities.js";
import { InputError, type VulnerabilitiesInputs } from "../inputs.js";
import { log } from "../log.js";
import { vulnerabilitiesSummary } from "../summary.js";
import { selectedSites } from "./fleet-sites.js";
import type { CommandContext, CommandOutcome } from "./outcome.js";

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
  const describe = (err: unknown) => errorLine(err, secrets);
  const policyFailure = policy ? await applyPolicy(client, policy, inputs, sites, describe, signal) : undefined;
  const report = await readVulnerabilityReport(client, sites, {
    concurrency: inputs.concurrency,
    minSeverity: inputs.minSeverity,
    failOn: inputs.failOn,
    signal,
  });

  for (const { site, error } of report.failures) log.error(`${site.name}: ${describe(error)}`, { title: `Vulnerability records of ${site.name} not read` });
  const sarifProblem = writeSarif(report, inputs);
  log.info(`${vulnerabilitySummaryLine(report)}; SARIF in ${inputs.sarifFile}`);
  vulnerabilitiesSummary(report, run, shard);
  const failure = sarifProblem ?? policyFailure ?? vulnerabilityFailingLine(report, "'fail-on'") ?? vulnerabilityUnreadLine(report, describe);
  const status = failure === undefined ? "passed" : "failed";
  const result = { command: "vulnerabilities", status, ...(inputs.shard ? { shard: formatShard(inputs.shard) } : {}) };
  const record = { ...result, ...vulnerabilityReportRecord(report, describe), sarif_file: inputs.sarifFile };
  return { outputs: { counts: safeJson(report.counts), "sarif-file": inputs.sarifFile, status, result: safeJson(record) }, failure };
}

/** Applies 'policy-file' to the step's sites (the core's applyVulnerabilityPolicy), logs the core's lines (a line
 * per change, a warning or error per acceptance a reviewer should look at) and gives the line the step fails with. */
async function applyPolicy(
  client: SiteOps,
  policy: VulnerabilityPolicy,
  inputs: VulnerabilitiesInputs,
  sites: readonly Site[],
  describe: (err: unknown) => string,
  signal: AbortSignal,
): Promise<string | undefined> {
  // The whole account only with `site: all` and no shard: a shard's or a list's policy judges its own sites only.
  const scope = inputs.sites.all && !inputs.shard && !inputs.fromFile ? "account" : "selection";
  const { concurrency, allowUnmatched } = inputs;
  const applied = await applyVulnerabilityPolicy(client, policy, sites, { concurrency, scope, allowUnmatched, signal });
  const names = { file: "'policy-file'", allowUnmatched: "set 'allow-unmatched: true'" };
  for (const line of policyLines(applied, { dryRun: false, names, describe, changes: true }))
    if (line.level === "info") log.info(line.text);
    else (line.level === "error" ? log.error : log.warning)(`'policy-file': ${line.text}`);
  log.info(`Policy ${inputs.policy!.file}: ${policyCountsLine(applied, { dryRun: false, sites: sites.length })}`);
  return policyFailureLine(applied, names, describe);
}

/** Writes the SARIF (replaced whole, as every file the action writes) with the core's warnings; the failure line
 * when it cannot. */
function writeSarif(report: VulnerabilityReport, inputs: VulnerabilitiesInputs): string | undefined {
  const sarif = vulnerabilitySarifFile(report, { toolVersion: VERSION, declarations: inputs.declarations });
  for (const w of sarif.warnings) log.warning(`${w.message.charAt(0).toUpperCase()}${w.message.slice(1)}.`);
  try {
    writeFileExclusive(inputs.sarifFile, sarif.text);
    return undefined;
  } catch (err) {
    return `'sarif-file' ${JSON.stringify(inputs.sarifFile)} could not be written: ${(err as Error).message}`;
  }
}
