// 'policy-file' read as `siteops vulns apply --policy` reads it: JSON for `.json`, YAML otherwise (JSON is YAML
// too), checked by the core's parseVulnerabilityPolicy. The YAML parser is loaded only here, when a policy is
// given: loaded with the rest it would add to every step's start-up.

import { parseVulnerabilityPolicy, VulnerabilityPolicyError, type VulnerabilityPolicy } from "../../src/fleet.js";
import { InputError } from "./inputs.js";
import { quote } from "./input-values.js";

/** The policy, or an InputError naming 'policy-file' and the place (`accept[1].reason: ...`). */
export async function parsePolicy({ file, text }: { file: string; text: string }): Promise<VulnerabilityPolicy> {
  const name = `'policy-file' ${quote(file)}`;
  const json = /\.json$/i.test(file);
  let doc: unknown;
  try {
    if (json) doc = JSON.parse(text);
    else {
      const { parse } = await import("yaml");
      doc = parse(text, { uniqueKeys: true, prettyErrors: true });
    }
  } catch (err) {
    const line = (err as { linePos?: [{ line: number }] }).linePos?.[0].line;
    const message = (err as Error).message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
    throw new InputError([`${name} is not valid ${json ? "JSON" : "YAML"}${line ? ` at line ${line}` : ""}: ${message}`]);
  }
  try {
    return parseVulnerabilityPolicy(doc);
  } catch (err) {
    if (err instanceof VulnerabilityPolicyError) throw new InputError([`${name}: ${err.message}`]);
    throw err;
  }
}
