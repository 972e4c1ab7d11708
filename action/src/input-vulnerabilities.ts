// The inputs of `command: vulnerabilities`: the severities ('fail-on', 'min-severity'), where the SARIF goes
// ('sarif-file', 'declarations') and the accepted risks ('policy-file': read here, parsed by policy-file.ts when
// the command starts), each problem one line naming the input.

import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { isVulnerabilitySeverity, VULNERABILITY_SEVERITIES } from "../../src/fleet.js";
import type { VulnerabilitySeverity } from "../../src/index.js";
import { readPolicyText as readPolicyFile } from "../../common/policy-text.js";
import { UserFileError } from "../../common/user-file.js";
import { quote } from "./input-values.js";

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
  /** 'policy-file' and its text: the accepted risks applied before the report (policy-file.ts). */
  policy: { file: string; text: string } | undefined;
}

export function parseVulnerabilityInputs(get: (name: string) => string | undefined, env: NodeJS.ProcessEnv, problems: string[]): VulnerabilityOptions {
  const failOn = severity("fail-on", get("fail-on"), problems);
  const minSeverity = severity("min-severity", get("min-severity"), problems) ?? "low";
  if (failOn && VULNERABILITY_SEVERITIES.indexOf(failOn) < VULNERABILITY_SEVERITIES.indexOf(minSeverity)) {
    problems.push(`'fail-on' ${failOn} is below 'min-severity' ${minSeverity}: the step would fail on records the report leaves out`);
  }
  const sarifFile = get("sarif-file") ?? path.join(env.RUNNER_TEMP || mkdtempSync(path.join(tmpdir(), "siteops-")), DEFAULT_SARIF_NAME);
  const declarations = get("declarations");
  if (declarations !== undefined) checkDeclarations(declarations, problems);
  const policyFile = get("policy-file");
  const policy = policyFile === undefined ? undefined : readPolicyText(policyFile, problems);
  return { failOn, minSeverity, sarifFile, declarations, policy };
}

function severity(name: string, value: string | undefined, problems: string[]): VulnerabilitySeverity | null {
  if (value === undefined) return null;
  const level = value.toLowerCase();
  if (isVulnerabilitySeverity(level)) return level;
  problems.push(`'${name}' must be one of ${VULNERABILITY_SEVERITIES.join(", ")} (got ${quote(value)})`);
  return null;
}

/** A directory inside the workspace: SARIF paths are relative to the repository's root, as code scanning reads them. */
function checkDeclarations(dir: string, problems: string[]): void {
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    problems.push(`'declarations' ${quote(dir)} is not a directory (relative paths start at the workspace)`);
    return;
  }
  const relative = path.relative(process.cwd(), path.resolve(dir));
  if (relative.startsWith("..") || path.isAbsolute(relative)) {
    problems.push(`'declarations' ${quote(dir)} is outside the workspace: SARIF paths are relative to the repository's root`);
  }
}

/** Read as the CLI reads `--policy` (common/policy-text.ts), without the owner check: a container job's root
 * reads the runner user's workspace. */
function readPolicyText(file: string, problems: string[]): { file: string; text: string } | undefined {
  try {
    return { file, text: readPolicyFile(file) };
  } catch (err) {
    if (!(err instanceof UserFileError)) throw err;
    problems.push(`'policy-file' ${quote(file)}: ${err.message === "no such file" ? "no such file; relative paths start at the workspace" : err.message}`);
    return undefined;
  }
}
