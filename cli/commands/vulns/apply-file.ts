// Reading `siteops vulns apply --policy FILE`: YAML (`.yml`, `.yaml`, and anything else) or JSON (`.json`),
// parsed by the `yaml` package (bundled, as the action's toolkit is; imported when a YAML file is read, so that
// `siteops vulns list` does not evaluate it) and checked by the core's parseVulnerabilityPolicy; every problem is
// one usage line naming the file and the place (exit 2).

import { readFileSync } from "node:fs";
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
  const json = /\.json$/i.test(file);
  const yaml = json ? undefined : await import("yaml");
  try {
    // JSON is YAML 1.2; .json files are still read as JSON, whose errors name the offset.
    doc = yaml ? yaml.parse(text, { uniqueKeys: true, prettyErrors: true }) : JSON.parse(text);
  } catch (err) {
    const where = yaml && err instanceof yaml.YAMLParseError && err.linePos ? ` at line ${err.linePos[0].line}` : "";
    const message = (err as Error).message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
    throw new UsageError(`--policy ${file}: not valid ${json ? "JSON" : "YAML"}${where}: ${message}`);
  }
  try {
    return parseVulnerabilityPolicy(doc);
  } catch (err) {
    if (err instanceof VulnerabilityPolicyError) throw new UsageError(`--policy ${file}: ${err.message}`);
    throw err;
  }
}
