// 'policy-file' read as `siteops vulns apply --policy` reads it: JSON for `.json`, YAML otherwise (JSON is YAML
// too; common/policy-text.ts), checked by the core's parseVulnerabilityPolicy. The YAML parser is loaded only
// when a YAML policy is given: loaded with the rest it would add to every step's start-up.

import { FileSyntaxError, parseDataText } from "../../common/policy-text.js";
import { parseVulnerabilityPolicy, VulnerabilityPolicyError, type VulnerabilityPolicy } from "../../src/fleet.js";
import { InputError } from "./inputs.js";
import { quote } from "./input-values.js";

/** The policy, or an InputError naming 'policy-file' and the place (`accept[1].reason: ...`). */
export async function parsePolicy({ file, text }: { file: string; text: string }): Promise<VulnerabilityPolicy> {
  const name = `'policy-file' ${quote(file)}`;
  let doc: unknown;
  try {
    doc = await parseDataText(file, text);
  } catch (err) {
    if (err instanceof FileSyntaxError) throw new InputError([`${name} is ${err.message}`]);
    throw err;
  }
  try {
    return parseVulnerabilityPolicy(doc);
  } catch (err) {
    if (err instanceof VulnerabilityPolicyError) throw new InputError([`${name}: ${err.message}`]);
    throw err;
  }
}
