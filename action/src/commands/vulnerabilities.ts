// `command: vulnerabilities`: the open vulnerability records of the selected sites (one site, a list, all, one shard),
// as the core reports them (src/fleet.ts: collected, ranked worst first, grouped by software, SARIF for GitHub code
// scanning). Writes the SARIF file, the counts by severity and the records as outputs, the report as the job
// summary, and fails the step when a record at or above 'fail-on' is open or a site's records could not be read.

import { writeFileExclusive } from "../../../common/private-file.js";
import { clean, safeJson } from "../../../common/sanitize.js";
import { VERSION } from "../../../common/version.js";
import {
  applyVulnerabilityPolicy,
  buildVulnerabilityReport,
  collectVulnerabilityRecords,
  findSiteDeclarations,
  formatShard,
  reportEntries,
  vulnerabilityReportRows,
  vulnerabilitySarif,
  type VulnerabilityPolicy,
  VulnerabilityPolicyError,
  type VulnerabilityReport,
} from "../../../src/fleet.js";
import type { Site, SiteOps } from "../../../src/index.js";
import { errorLine } from "../format.js";
import { InputError, type VulnerabilitiesInputs } from "../inputs.js";
import { quote } from "../input-values.js";
import { log } from "../log.js";
import { parsePolicy } from "../policy-file.js";
import { vulnerabilitiesSummary } from "../summary.js";
import { noSitesReason, selectedSites } from "./fleet-sites.js";
import type { CommandContext, CommandOutcome } from "./outcome.js";

/** Sites named in a warning or failure line; the summary has all of them. */
const LISTED = 5;
const SEVERITIES = ["critical", "high", "medium", "low", "unknown"] as const;

export async function vulnerabilitiesCommand(
  client: SiteOps,
  inputs: VulnerabilitiesInputs,
  { run, secrets, signal }: CommandContext,
): Promise<CommandOutcome> {
  // Before any request, as the other inputs' problems.
  const policy = inputs.policy ? await parsePolicy(inputs.policy) : undefined;
  const selected = await selectedSites(client, inputs, signal);
  const { sites, fleetSize, shard, shardName } = selected;
  if (sites.length === 0) log.warning(`${noSitesReason(selected)} There is nothing to report.`);
  else log.info(`Vulnerability records of ${sites.length} site${sites.length === 1 ? "" : "s"}${shard ? ` (${shardName} of ${fleetSize})` : ""}`);
  const policyFailure = policy ? await applyPolicy(client, policy, inputs, sites, secrets, signal) : undefined;
  const collected = await collectVulnerabilityRecords(client, sites, { concurrency: inputs.concurrency, signal });
  const report = buildVulnerabilityReport(collected, { minSeverity: inputs.minSeverity, failOn: inputs.failOn });

  for (const { site, error } of report.failures) {
    log.error(`${site.name}: ${errorLine(error, secrets)}`, { title: `Vulnerability records of ${site.name} not read` });
  }
  const sarifProblem = writeSarif(report, inputs);
  const open = reportEntries(report.open);
  const counted = SEVERITIES.filter((s) => report.counts[s] > 0).map((s) => `${report.counts[s]} ${s}`);
  const dismissed = reportEntries(report.suppressed).length;
  log.info(
    `${open.length} open record${open.length === 1 ? "" : "s"}${counted.length ? ` (${counted.join(", ")})` : ""}` +
      `${dismissed ? `, ${dismissed} dismissed` : ""}; SARIF in ${inputs.sarifFile}`,
  );
  vulnerabilitiesSummary(report, run, shard);

  const status = report.failing > 0 || report.failures.length > 0 || sarifProblem || policyFailure ? "failed" : "passed";
  let failure: string | undefined;
  if (sarifProblem) failure = sarifProblem;
  else if (policyFailure) failure = policyFailure;
  else if (report.failing > 0) {
    const worst = open[0]!;
    const advisory = worst.record.cve ?? worst.record.title;
    failure =
      `${report.failing} open vulnerability record${report.failing === 1 ? "" : "s"} at or above ${report.failOn} ('fail-on'); the worst: ` +
      `${clean(String(advisory))} (${worst.severity}) in ${clean(worst.record.software?.slug ?? "")} ${clean(worst.record.software?.installed_version ?? "")} on ${clean(worst.site.name)}.`;
  } else if (report.failures.length > 0) {
    const named = report.failures.slice(0, LISTED).map((f) => clean(f.site.name));
    const more = report.failures.length > LISTED ? ` and ${report.failures.length - LISTED} more` : "";
    failure = `The vulnerability records of ${report.failures.length} of ${sites.length} sites could not be read: ${named.join(", ")}${more}. ${errorLine(report.failures[0]!.error, secrets)}`;
  }
  return { outputs: outputs(report, inputs, status, secrets), failure };
}

/** Applies 'policy-file' (the core's applyVulnerabilityPolicy): a line per change, a warning per acceptance a
 * reviewer should look at (unmatched, expired, naming an unknown site); the failure line when an update failed. */
async function applyPolicy(
  client: SiteOps,
  policy: VulnerabilityPolicy,
  inputs: VulnerabilitiesInputs,
  sites: readonly Site[],
  secrets: readonly string[],
  signal: AbortSignal,
): Promise<string | undefined> {
  const applied = await applyVulnerabilityPolicy(client, policy, sites, { concurrency: inputs.concurrency, signal }).catch((err: unknown) => {
    // A `sites:` name several sites share: refused before any change, naming the input as its other problems.
    throw err instanceof VulnerabilityPolicyError ? new InputError([`'policy-file' ${quote(inputs.policy!.file)}: ${err.message}`]) : err;
  });
  for (const w of applied.warnings) log.warning(`'policy-file': ${clean(w.message)}`);
  const failed = applied.results.filter((r) => r.error !== undefined);
  for (const r of applied.results) {
    const what = `${clean(r.site.name)}: ${clean(String(r.record.cve ?? r.record.title))} in ${clean(r.record.software?.slug ?? "")}`;
    const by = r.acceptance ? ` (accept[${r.acceptance.index}])` : "";
    if (r.error !== undefined)
      log.error(`${what}: could not ${r.action}: ${errorLine(r.error, secrets)}`, { title: `Policy not applied to ${clean(r.site.name)}` });
    else log.info(`${what} ${r.action === "dismiss" ? "dismissed" : r.action === "reopen" ? "reopened" : "updated"}${by}`);
  }
  log.info(
    `Policy ${inputs.policy!.file}: ${applied.results.length - failed.length} change${applied.results.length === 1 ? "" : "s"}, ${applied.unchanged} already as it says`,
  );
  if (failed.length === 0) return undefined;
  return `${failed.length} change${failed.length === 1 ? "" : "s"} of 'policy-file' could not be sent: ${errorLine(failed[0]!.error, secrets)}`;
}

/** Writes the SARIF (replaced whole, as every file the action writes); the failure line when it cannot. Warns
 * about what code scanning's limits cut and about sites declared nowhere under 'declarations'. */
function writeSarif(report: VulnerabilityReport, inputs: VulnerabilitiesInputs): string | undefined {
  const found = inputs.declarations === undefined ? undefined : findSiteDeclarations(inputs.declarations, report.sites);
  if (found) {
    const missing = report.sites.filter((s) => !found.has(s.id));
    if (missing.length) {
      const names = missing.slice(0, LISTED).map((s) => `${clean(s.name)} (${s.id})`);
      log.warning(
        `No declaration under 'declarations' for ${missing.length} site${missing.length === 1 ? "" : "s"}: ${names.join(", ")}` +
          `${missing.length > LISTED ? ", ..." : ""}; their results point at siteops/sites/<site id>.`,
      );
    }
  }
  const sarif = vulnerabilitySarif(report, { toolVersion: VERSION, ...(found ? { declarations: found } : {}) });
  if (sarif.cut) {
    const limit = sarif.cut === "results" ? "25,000 results a run" : "10 MB a file";
    log.warning(
      `GitHub code scanning takes at most ${limit}: the SARIF holds the ${sarif.kept} most severe of ${sarif.total} results; the result output lists them all.`,
    );
  }
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
