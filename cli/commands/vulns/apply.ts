// `siteops vulns apply --policy FILE [--dry-run]`: accepted risks as reviewed code, under the job's lock. Glue only:
// the file is read by common/policy-text.ts (as the action reads 'policy-file': not through a link, a regular
// file, capped; the YAML parser loaded only then) and checked by the core's parseVulnerabilityPolicy; the plan,
// the changes, the scope (every site of the account), what fails the run and the counts are the core's
// applyVulnerabilityPolicy. An acceptance that matches nothing or names no site is an error (exit 1) unless
// --allow-unmatched; an expired one a warning.

import { FileSyntaxError, parseDataText, readPolicyText } from "../../../common/policy-text.js";
import { UserFileError } from "../../../common/user-file.js";
import {
  applyVulnerabilityPolicy,
  POLICY_CHANGE_COLUMNS,
  POLICY_CHANGE_ROW_FIELDS,
  policyChangeRows,
  policyCountsLine,
  policyLines,
  policyVerdict,
  parseVulnerabilityPolicy,
  VULNERABILITY_POLICY_OPTIONS as OPTIONS,
  type VulnerabilityPolicy,
  VulnerabilityPolicyError,
} from "../../../src/fleet.js";
import type { Site } from "../../../src/index.js";
import type { Context } from "../../context.js";
import { EXIT_OF_VERDICT, UsageError } from "../../exit-codes.js";
import { LOCK_FLAGS } from "../../jobs/flags.js";
import { runJob } from "../../jobs/run-job.js";
import { flagValue, optionFlags } from "../../option-flags.js";
import { errorLine } from "../../output/format.js";
import { printRecords, writeTable } from "../../output/printer.js";
import { ALLOW_EMPTY_FLAG } from "../../sites.js";
import type { LeafSpec } from "../../spec.js";

export const apply: LeafSpec = {
  name: "apply",
  summary: "dismiss the records a policy file accepts, reopen those whose acceptance expired",
  description:
    "The policy file (YAML or JSON; schema: docs/schemas/vulnerability-policy.schema.json) lists accepted risks: a CVE, record id or software slug, the sites, a reason, a justification and an expiry. Records it dismisses carry a [siteops-policy] marker in their comment; only those are ever reopened. Every site of the account is read. Exit 1 when a change fails, a site cannot be read, or an acceptance matches no record or names a site that does not exist (unless --allow-unmatched).",
  flags: [...optionFlags(Object.values(OPTIONS)), ALLOW_EMPTY_FLAG, ...LOCK_FLAGS],
  jsonFields: [...POLICY_CHANGE_ROW_FIELDS],
  examples: ["siteops vulns apply --policy .siteops/vulnerabilities.yml --dry-run", "siteops vulns apply --policy .siteops/vulnerabilities.yml"],
  async run(ctx, parsed) {
    const value = flagValue(parsed);
    const file = value(OPTIONS.policy);
    if (file === undefined) throw new UsageError("--policy FILE is required (e.g. .siteops/vulnerabilities.yml)");
    const policy = await readPolicyFile(file);
    const options = { dryRun: value(OPTIONS.dryRun) === "true", allowUnmatched: value(OPTIONS.allowUnmatched) === "true" };
    // Under the job's lock: two applies at once would each send, and each count, the same changes.
    return runJob(ctx, parsed, {
      command: "vulns apply",
      selection: { all: true },
      outbound: false,
      work: async ({ sites }) => ({ code: await applyPolicy(ctx, file, policy, sites, options), report: {} }),
    });
  },
};

/** A policy file, read and checked: a UsageError naming `--policy FILE` for anything wrong with it (exit 2). */
async function readPolicyFile(file: string): Promise<VulnerabilityPolicy> {
  try {
    return parseVulnerabilityPolicy(await parseDataText(file, readPolicyText(file, { ownOnly: true })));
  } catch (err) {
    if (err instanceof UserFileError || err instanceof FileSyntaxError || err instanceof VulnerabilityPolicyError)
      throw new UsageError(`--policy ${file}: ${err.message}`);
    throw err;
  }
}

/** The core's apply over every site of the account, its changes as a table (or --json), its lines on stderr (the
 * core's words), and the exit code of its verdict: 3 refused, 1 failed, else 0. */
async function applyPolicy(
  ctx: Context,
  file: string,
  policy: VulnerabilityPolicy,
  sites: readonly Site[],
  options: { dryRun: boolean; allowUnmatched: boolean },
): Promise<number> {
  const result = await applyVulnerabilityPolicy(await ctx.client(), policy, sites, { ...options, scope: "account", signal: ctx.signal }).catch(
    (err: unknown) => {
      // A `sites:` name several sites share: refused before any change, as the file's other problems.
      throw err instanceof VulnerabilityPolicyError ? new UsageError(`--policy ${file}: ${err.message}`) : err;
    },
  );
  const describe = (err: unknown) => errorLine(err, ctx.secrets);
  const rows = policyChangeRows(result, options.dryRun, describe);
  if (!printRecords(ctx, rows) && !ctx.quiet) writeTable(ctx, rows, POLICY_CHANGE_COLUMNS, { ACTION: (w) => paint(ctx, w) });
  const names = { file, allowUnmatched: "give --allow-unmatched" };
  const style = ctx.stderr.style;
  for (const line of policyLines(result, { ...options, names, describe, changes: false }))
    ctx.stderr.write(`${line.level === "error" ? style.red("error:") : style.yellow("warning:")} ${line.text}\n`);
  if (!ctx.quiet) ctx.stderr.write(`${policyCountsLine(result, { dryRun: options.dryRun, sites: sites.length })}\n`);
  return EXIT_OF_VERDICT[policyVerdict(result)];
}

/** A change's action in colour: reopened yellow, failed red, the others green. */
function paint(ctx: Context, word: string): string {
  const style = ctx.stdout.style;
  return word.endsWith("reopened") || word.endsWith("reopen") ? style.yellow(word) : word === "failed" ? style.red(word) : style.green(word);
}
