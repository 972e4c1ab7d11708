// The action's input values one by one (URL, version, boolean, number, file, quoting): each check appends a
// one-line problem naming the input and returns a fallback, so inputs.ts can report every problem at once.

import { baseUrlOf, baseUrlProblem, type FoundSetting } from "../../common/settings.js";
import { statSync } from "node:fs";
import { readShardFile, ShardFileError, type ShardSites } from "../../src/fleet.js";

const VERSION = /^\d+\.\d+$/;

export function parseBaseUrl(found: FoundSetting | undefined, problems: string[]): string | undefined {
  if (!found) {
    problems.push("'base-url' is required (or set SITEOPS_BASE_URL)");
    return undefined;
  }
  const problem = baseUrlProblem(found);
  if (problem) problems.push(problem);
  return problem ? undefined : baseUrlOf(found.value);
}

export function parseVersion(name: string, value: string | undefined, problems: string[]): string | undefined {
  if (value === undefined) return undefined;
  if (!VERSION.test(value)) problems.push(`'${name}' must be a major.minor version such as 6.5 (got ${quote(value)})`);
  return value;
}

// The same spellings @actions/core getBooleanInput accepts (YAML 1.2 core schema).
const TRUE = new Set(["true", "True", "TRUE"]);
const FALSE = new Set(["false", "False", "FALSE"]);

export function parseBoolean(name: string, value: string | undefined, fallback: boolean, problems: string[]): boolean {
  if (value === undefined) return fallback;
  if (TRUE.has(value)) return true;
  if (FALSE.has(value)) return false;
  problems.push(`'${name}' must be true or false (got ${quote(value)})`);
  return fallback;
}

export function parseNumber(
  name: string,
  value: string | undefined,
  fallback: number | undefined,
  problems: string[],
  rule: { min: number; max: number; exclusiveMin?: boolean; integer?: boolean; what: string; env?: boolean },
): number | undefined {
  if (value === undefined) return fallback;
  const n = /^[+]?(\d+\.?\d*|\.\d+)$/.test(value) ? Number(value) : NaN;
  const ok = Number.isFinite(n) && (rule.exclusiveMin ? n > rule.min : n >= rule.min) && n <= rule.max && (!rule.integer || Number.isInteger(n));
  if (!ok) {
    problems.push(`${rule.env ? name : `'${name}'`} must be ${rule.what} (got ${quote(value)})`);
    return fallback;
  }
  return n;
}

export function checkFile(file: string, problems: string[]): void {
  try {
    if (!statSync(file).isFile()) problems.push(`'upload-file' ${quote(file)} is not a file`);
  } catch {
    problems.push(`'upload-file' ${quote(file)} does not exist (relative paths start at the workspace)`);
  }
}

/** The shard file of `sites-file` (written by `siteops sites matrix --out`), read and checked by the core. */
export function parseSitesFile(file: string, problems: string[]): ShardSites | undefined {
  try {
    return readShardFile(file);
  } catch (err) {
    if (!(err instanceof ShardFileError)) throw err;
    problems.push(
      `'sites-file' ${err.message}${err.field === undefined && /no such file/.test(err.message) ? " (relative paths start at the workspace)" : ""}`,
    );
    return undefined;
  }
}

export function quote(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
}
