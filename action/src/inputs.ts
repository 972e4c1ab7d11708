// The action's inputs, read once and checked into one typed object. Every problem found is reported at once,
// in one line naming the input, before anything talks to the service.

import { apiTokenProblem, firstSetting } from "../../common/settings.js";
import { ALL_SITES, parseFleetSelection, splitSites, type FleetSelection } from "./input-selection.js";
import { checkFile, parseBaseUrl, parseBoolean, parseNumber, parseVersion, quote } from "./input-values.js";
import { parseRolloutInputs, ROLLOUT_INPUTS, type RolloutInputOptions } from "./input-rollout.js";
import { parseVulnerabilityInputs, type VulnerabilityOptions } from "./input-vulnerabilities.js";

const COMMANDS = ["snapshot", "upgrade", "approve", "vulnerabilities", "rollout"] as const;
type Command = (typeof COMMANDS)[number];

/** Snapshots run on this many sites at a time unless `concurrency` says otherwise. */
const DEFAULT_CONCURRENCY = 4;
const MAX_CONCURRENCY = 64;
/** How long `wait` waits unless `timeout-minutes` says otherwise (a rollout's wave: the core's default). */
const DEFAULT_TIMEOUT_MINUTES = 30;

interface CommonInputs {
  apiToken: string;
  /** Where the token came from (`'api-token'` or `SITEOPS_API_TOKEN`), named when the service refuses it. */
  apiTokenSource: string;
  baseUrl: string;
  wait: boolean;
  /** From `timeout-minutes`. */
  timeoutMs: number;
  /** Env SITEOPS_POLL_INTERVAL_MS; the core's default (2 s) when absent. */
  pollIntervalMs: number | undefined;
  /** From `result-file`: the `result` output is also written there (a fleet's result can be larger than an
   * environment variable may hold, 128 KiB on Linux, so a later step reads the file instead). */
  resultFile: string | undefined;
}

export interface SnapshotInputs extends CommonInputs, FleetSelection {
  command: "snapshot";
  /** Absent: the action writes one naming the GitHub run. */
  description: string | undefined;
  uploadFile: string | undefined;
  concurrency: number;
}

export interface VulnerabilitiesInputs extends CommonInputs, FleetSelection, VulnerabilityOptions {
  command: "vulnerabilities";
  /** Sites whose records are read at a time. */
  concurrency: number;
}

export interface UpgradeInputs extends CommonInputs {
  command: "upgrade";
  site: string;
  wpVersion: string | undefined;
  phpVersion: string | undefined;
  requireApproval: boolean;
}

export interface ApproveInputs extends CommonInputs {
  command: "approve";
  site: string;
  pipelineId: string;
  /** Absent: the action writes one naming who approved in which run. */
  comment: string | undefined;
}

export interface RolloutInputs extends CommonInputs, FleetSelection, RolloutInputOptions {
  command: "rollout";
}

export type ActionInputs = SnapshotInputs | UpgradeInputs | ApproveInputs | VulnerabilitiesInputs | RolloutInputs;

/** One or more inputs are missing or malformed. The message names each of them and never echoes a token. */
export class InputError extends Error {
  readonly code = "INVALID_INPUT";
  readonly problems: string[];
  /** Inputs given to a command that ignores them: still worth saying when the run fails. */
  readonly warnings: string[];
  constructor(problems: string[], warnings: string[] = []) {
    super(`Invalid input: ${problems.join("; ")}.`);
    this.name = "InputError";
    this.problems = problems;
    this.warnings = warnings;
  }
}

export interface InputSource {
  /** The raw value of an input, "" when not set (as @actions/core getInput returns it, trimmed). */
  get(name: string): string;
  /** Registers a secret with the runner before anything could print it. */
  mask(secret: string): void;
  env: NodeJS.ProcessEnv;
}

/** Inputs that only some commands read; given to another command they are ignored with a warning. The rollout's
 * are those of the core's declaration (input-rollout.ts), but `timeout-minutes`, which every command reads. */
const USED_BY: Record<string, readonly Command[]> = withRollout({
  description: ["snapshot"],
  "upload-file": ["snapshot"],
  concurrency: ["snapshot", "vulnerabilities"],
  shard: ["snapshot", "vulnerabilities", "rollout"],
  "sites-file": ["snapshot", "vulnerabilities", "rollout"],
  "fail-on": ["vulnerabilities"],
  "min-severity": ["vulnerabilities"],
  "sarif-file": ["vulnerabilities"],
  declarations: ["vulnerabilities"],
  "policy-file": ["vulnerabilities"],
  "wp-version": ["upgrade"],
  "php-version": ["upgrade"],
  "require-approval": ["upgrade"],
  wave: ["rollout"],
  "pipeline-id": ["approve"],
  comment: ["approve"],
});

function withRollout(table: Record<string, readonly Command[]>): Record<string, readonly Command[]> {
  for (const input of ROLLOUT_INPUTS) if (input !== "timeout-minutes") table[input] = [...(table[input] ?? []), "rollout"];
  return table;
}

const ID = /^[A-Za-z0-9_-]+$/;

export function parseInputs(source: InputSource): { inputs: ActionInputs; warnings: string[] } {
  const problems: string[] = [];
  const warnings: string[] = [];
  const get = (name: string): string | undefined => source.get(name).trim() || undefined;

  // The token first, so it is masked before any other line is printed.
  const token = firstSetting([
    { value: source.get("api-token"), name: "'api-token'" },
    { value: source.env.SITEOPS_API_TOKEN, name: "SITEOPS_API_TOKEN" },
  ]);
  const apiToken = token?.value ?? "";
  if (apiToken) source.mask(apiToken);
  else problems.push("'api-token' is required (or set SITEOPS_API_TOKEN)");
  const tokenProblem = token && apiTokenProblem(token);
  if (tokenProblem) problems.push(tokenProblem);

  const rawCommand = get("command");
  let command: Command | undefined;
  if (!rawCommand) problems.push(`'command' is required: one of ${COMMANDS.join(", ")}`);
  else if ((COMMANDS as readonly string[]).includes(rawCommand.toLowerCase())) command = rawCommand.toLowerCase() as Command;
  else problems.push(`'command' must be one of ${COMMANDS.join(", ")} (got ${quote(rawCommand)})`);

  const baseUrl = parseBaseUrl(
    firstSetting([
      { value: source.get("base-url"), name: "'base-url'" },
      { value: source.env.SITEOPS_BASE_URL, name: "SITEOPS_BASE_URL" },
    ]),
    problems,
  );
  const wait = parseBoolean("wait", get("wait"), true, problems);
  // A rollout reads its wave's timeout with its other options (input-rollout.ts), with the core's default.
  const timeoutMinutes =
    command === "rollout"
      ? DEFAULT_TIMEOUT_MINUTES
      : parseNumber("timeout-minutes", get("timeout-minutes"), DEFAULT_TIMEOUT_MINUTES, problems, {
          min: 0,
          exclusiveMin: true,
          max: 24 * 60,
          what: "a number of minutes above 0 and at most 1440",
        });
  const pollIntervalMs = parseNumber("SITEOPS_POLL_INTERVAL_MS", source.env.SITEOPS_POLL_INTERVAL_MS?.trim() || undefined, undefined, problems, {
    min: 1,
    max: 600_000,
    integer: true,
    what: "a whole number of milliseconds from 1 to 600000",
    env: true,
  });

  const siteRaw = source.get("site").trim();
  const resultFile = get("result-file");
  const common = {
    apiToken,
    apiTokenSource: token?.name ?? "'api-token'",
    baseUrl: baseUrl ?? "",
    wait,
    timeoutMs: Math.round((timeoutMinutes ?? 0) * 60_000),
    pollIntervalMs,
    resultFile,
  };

  if (command) {
    for (const [name, commands] of Object.entries(USED_BY)) {
      if (!commands.includes(command) && get(name) !== undefined) {
        warnings.push(`Input '${name}' is ignored by the ${command} command (it is read by ${commands.join(", ")}).`);
      }
    }
  }

  let inputs: ActionInputs | undefined;
  const concurrency = (fallback = DEFAULT_CONCURRENCY): number =>
    parseNumber("concurrency", get("concurrency"), fallback, problems, {
      min: 1,
      max: MAX_CONCURRENCY,
      integer: true,
      what: `a whole number from 1 to ${MAX_CONCURRENCY}`,
    }) ?? fallback;

  if (command === "snapshot") {
    const selection = parseFleetSelection(get, problems);
    const uploadFile = get("upload-file");
    if (uploadFile !== undefined) checkFile(uploadFile, problems);
    if (uploadFile !== undefined && selection.fromFile) problems.push("'upload-file' needs exactly one site, not 'sites-file'");
    else if (uploadFile !== undefined && siteRaw && (selection.sites.all || selection.sites.refs.length !== 1)) {
      problems.push("'upload-file' needs exactly one site: the same data cannot be the snapshot of several sites");
    }
    const description = get("description");
    if (description !== undefined && description.length > 1000) problems.push("'description' must be at most 1000 characters");
    inputs = { command, ...common, ...selection, description, uploadFile, concurrency: concurrency() };
  } else if (command === "rollout") {
    // Its timeout (each wave's), concurrency and approval, with the core's defaults: read with its other options.
    inputs = { command, ...common, ...parseFleetSelection(get, problems), ...parseRolloutInputs(get, problems) };
  } else if (command === "vulnerabilities") {
    const selection = parseFleetSelection(get, problems);
    inputs = { command, ...common, ...selection, ...parseVulnerabilityInputs(get, source.env, problems), concurrency: concurrency() };
  } else if (command === "upgrade") {
    const site = parseSingleSite(siteRaw, command, problems);
    const wpVersion = parseVersion("wp-version", get("wp-version"), problems);
    const phpVersion = parseVersion("php-version", get("php-version"), problems);
    if (!get("wp-version") && !get("php-version")) problems.push("the upgrade command needs 'wp-version' or 'php-version' (or both)");
    const requireApproval = parseBoolean("require-approval", get("require-approval"), true, problems);
    inputs = { command, ...common, site, wpVersion, phpVersion, requireApproval };
  } else if (command === "approve") {
    const site = parseSingleSite(siteRaw, command, problems);
    const pipelineId = get("pipeline-id");
    if (!pipelineId) problems.push("'pipeline-id' is required by the approve command (the pipeline-id output of the upgrade command)");
    else if (!ID.test(pipelineId)) problems.push(`'pipeline-id' must be a pipeline id such as upg_... (got ${quote(pipelineId)})`);
    inputs = { command, ...common, site, pipelineId: pipelineId ?? "", comment: get("comment") };
  }

  if (problems.length > 0 || !inputs) throw new InputError(problems, warnings);
  return { inputs, warnings };
}

function parseSingleSite(raw: string, command: Command, problems: string[]): string {
  const refs = splitSites(raw);
  if (refs.length === 0) problems.push(`'site' is required by the ${command} command: a site id or an exact site name`);
  else if (refs.length > 1 || refs[0]!.toLowerCase() === ALL_SITES) {
    problems.push(`'site' must be one site for the ${command} command (lists and 'all' are for snapshot, vulnerabilities and rollout)`);
  }
  return refs[0] ?? "";
}
