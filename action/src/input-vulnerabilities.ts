// The inputs of `command: vulnerabilities`, each problem one line naming the input: the severities ('fail-on',
// 'min-severity') and 'declarations', the core's declared options read by its readVulnerabilityReportOptions as the
// CLI reads its flags; where the SARIF goes ('sarif-file') and the accepted risks ('policy-file', read as `siteops vulns
// apply --policy` reads it through common/policy-text.ts and parsed by the core's parseVulnerabilityPolicy when the
// command starts, the YAML parser loaded only then; 'allow-unmatched').

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { FileSyntaxError, parseDataText, readPolicyText } from "../../common/policy-text.js";
import { UserFileError } from "../../common/user-file.js";
import {
  parseVulnerabilityPolicy,
  readVulnerabilityReportOptions,
  VULNERABILITY_POLICY_OPTIONS,
  type VulnerabilityPolicy,
  VulnerabilityPolicyError,
} from "../../src/fleet.js";
import type { VulnerabilitySeverity } from "../../src/index.js";
import { parseBoolean, quote } from "./input-values.js";

/** The SARIF's file name when 'sarif-file' is not given, in the job's temporary directory (RUNNER_TEMP); run
 * outside a runner (`npx @github/local-action`), in a new private temporary directory: never in the checkout. */
const DEFAULT_SARIF_NAME = "siteops-vulnerabilities.sarif";

export interface VulnerabilityOptions {
  /** An open record at or above it fails the step; null: none does. */
  failOn: VulnerabilitySeverity | null;
  /** Records below it are left out of the report, the outputs and the SARIF. */
  minSeverity: VulnerabilitySeverity;
  /** Where the SARIF is written (the `sarif-file` output). */
  sarifFile: string;
  /** A directory of the workspace whose .tf and CDK .ts files declare the sites: each SARIF result points at the
   * line that declares its site. */
  declarations: string | undefined;
  /** 'policy-file' and its text: the accepted risks applied before the report (parsePolicy). */
  policy: { file: string; text: string } | undefined;
  /** 'allow-unmatched': an acceptance that matches nothing is a warning, not the step's failure. */
  allowUnmatched: boolean;
}

export function parseVulnerabilityInputs(get: (name: string) => string | undefined, env: NodeJS.ProcessEnv, problems: string[]): VulnerabilityOptions {
  const input = (o: { input?: string }) => get(o.input!);
  const read = readVulnerabilityReportOptions(input, (o) => `'${o.input}'`, "the workspace");
  problems.push(...read.problems);
  const sarifFile = get("sarif-file") ?? path.join(env.RUNNER_TEMP || mkdtempSync(path.join(tmpdir(), "siteops-")), DEFAULT_SARIF_NAME);
  const policyFile = input(VULNERABILITY_POLICY_OPTIONS.policy);
  const policy = policyFile === undefined ? undefined : readPolicyInput(policyFile, problems);
  const allowUnmatched = parseBoolean("allow-unmatched", input(VULNERABILITY_POLICY_OPTIONS.allowUnmatched), false, problems);
  return { failOn: read.failOn, minSeverity: read.minSeverity, sarifFile, declarations: read.declarations, policy, allowUnmatched };
}

/** Read as the CLI reads `--policy` (common/policy-text.ts), without the owner check: a container job's root
 * reads the runner user's workspace. */
function readPolicyInput(file: string, problems: string[]): { file: string; text: string } | undefined {
  try {
    return { file, text: readPolicyText(file) };
  } catch (err) {
    if (!(err instanceof UserFileError)) throw err;
    problems.push(`'policy-file' ${quote(file)}: ${err.message === "no such file" ? "no such file; relative paths start at the workspace" : err.message}`);
    return undefined;
  }
}

/** The policy, or the problem naming 'policy-file' and the place (`accept[1].reason must be one of ...`). */
export async function parsePolicy({ file, text }: { file: string; text: string }): Promise<VulnerabilityPolicy | { problem: string }> {
  const name = `'policy-file' ${quote(file)}`;
  try {
    return parseVulnerabilityPolicy(await parseDataText(file, text));
  } catch (err) {
    if (err instanceof FileSyntaxError) return { problem: `${name} is ${err.message}` };
    if (err instanceof VulnerabilityPolicyError) return { problem: `${name}: ${err.message}` };
    throw err;
  }
}
