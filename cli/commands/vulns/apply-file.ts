// Reading `siteops vulns apply --policy FILE`: YAML (`.yml`, `.yaml`, and anything else) or JSON (`.json`),
// parsed by the `yaml` package (bundled, as the action's toolkit is) and checked by the core's
// parseVulnerabilityPolicy; every problem is one usage line naming the file and the place (exit 2).

import { readFileSync } from "node:fs";
import { parse, YAMLParseError } from "yaml";
import { parseVulnerabilityPolicy, type VulnerabilityPolicy, VulnerabilityPolicyError } from "../../../src/fleet.js";
import { UsageError } from "../../exit-codes.js";

/** A policy file, read and checked: a UsageError naming `--policy FILE` for anything wrong with it. */
export function readPolicyFile(file: string): VulnerabilityPolicy {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`--policy ${file}: cannot read it (${code === "ENOENT" ? "no such file" : (code ?? (err as Error).message)})`);
  }
  let doc: unknown;
  try {
    // JSON is YAML 1.2; .json files are still read as JSON, whose errors name the offset.
    doc = /\.json$/i.test(file) ? JSON.parse(text) : parse(text, { uniqueKeys: true, prettyErrors: true });
  } catch (err) {
    const where = err instanceof YAMLParseError && err.linePos ? ` at line ${err.linePos[0].line}` : "";
    const message = (err as Error).message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
    throw new UsageError(`--policy ${file}: not valid ${/\.json$/i.test(file) ? "JSON" : "YAML"}${where}: ${message}`);
  }
  try {
    return parseVulnerabilityPolicy(doc);
  } catch (err) {
    if (err instanceof VulnerabilityPolicyError) throw new UsageError(`--policy ${file}: ${err.message}`);
    throw err;
  }
}
