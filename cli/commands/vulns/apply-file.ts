// Reading `siteops vulns apply --policy FILE`: read and parsed by common/policy-text.ts as the action reads
// 'policy-file' (not through a link, a regular file of this user or root that others cannot write, capped; YAML
// for `.yml`, `.yaml` and anything else, JSON for `.json`) (the `yaml` package, bundled, imported when a YAML file is read, so that
// `siteops vulns list` does not evaluate it) and checked by the core's parseVulnerabilityPolicy; every problem is
// one usage line naming the file and the place (exit 2).

import { FileSyntaxError, parseDataText, readPolicyText } from "../../../common/policy-text.js";
import { UserFileError } from "../../../common/user-file.js";
import { parseVulnerabilityPolicy, type VulnerabilityPolicy, VulnerabilityPolicyError } from "../../../src/fleet.js";
import { UsageError } from "../../exit-codes.js";

/** A policy file, read and checked: a UsageError naming `--policy FILE` for anything wrong with it. */
export async function readPolicyFile(file: string): Promise<VulnerabilityPolicy> {
  let text: string;
  try {
    text = readPolicyText(file, { ownOnly: true });
  } catch (err) {
    if (err instanceof UserFileError) throw new UsageError(`--policy ${file}: ${err.message}`);
    throw err;
  }
  let doc: unknown;
  try {
    doc = await parseDataText(file, text);
  } catch (err) {
    if (err instanceof FileSyntaxError) throw new UsageError(`--policy ${file}: ${err.message}`);
    throw err;
  }
  try {
    return parseVulnerabilityPolicy(doc);
  } catch (err) {
    if (err instanceof VulnerabilityPolicyError) throw new UsageError(`--policy ${file}: ${err.message}`);
    throw err;
  }
}
