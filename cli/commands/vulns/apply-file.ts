// Reading `siteops vulns apply --policy FILE`: YAML (`.yml`, `.yaml`, and anything else) or JSON (`.json`),
// parsed by common/policy-text.ts (the `yaml` package, bundled, imported when a YAML file is read, so that
// `siteops vulns list` does not evaluate it) and checked by the core's parseVulnerabilityPolicy; every problem is
// one usage line naming the file and the place (exit 2).

import { readFileSync } from "node:fs";
import { FileSyntaxError, parseDataText } from "../../../common/policy-text.js";
import { parseVulnerabilityPolicy, type VulnerabilityPolicy, VulnerabilityPolicyError } from "../../../src/fleet.js";
import { UsageError } from "../../exit-codes.js";

/** A policy file, read and checked: a UsageError naming `--policy FILE` for anything wrong with it. */
export async function readPolicyFile(file: string): Promise<VulnerabilityPolicy> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`--policy ${file}: cannot read it (${code === "ENOENT" ? "no such file" : (code ?? (err as Error).message)})`);
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
