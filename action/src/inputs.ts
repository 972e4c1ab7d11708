// The action's inputs, read once and checked into one typed object. Every problem found is reported at once,
// in one line naming the input, before anything talks to the service.

import { apiTokenProblem, firstSetting } from "../../common/settings.js";
import { formatShard, parseShard, type Shard, type ShardSites, ShardSpecError } from "../../src/fleet.js";
import { checkFile, parseBaseUrl, parseSitesFile, parseBoolean, parseNumber, parseVersion, quote } from "./input-values.js";

const COMMANDS = ["snapshot", "upgrade", "approve"] as const;
type Command = (typeof COMMANDS)[number];

/** Snapshots run on this many sites at a time unless `concurrency` says otherwise. */
const DEFAULT_CONCURRENCY = 4;
const MAX_CONCURRENCY = 64;
/** How long `wait` waits unless `timeout-minutes` says otherwise. */
const DEFAULT_TIMEOUT_MINUTES = 30;
/** The `site` value that selects every site of the account (snapshot only). */
const ALL_SITES = "all";

/** Which sites a snapshot runs on: every site, or ids/exact names in the order given. */
type SiteSelection = { all: true } | { all: false; refs: string[] };

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

export interface SnapshotInputs extends CommonInputs {
  command: "snapshot";
  sites: SiteSelection;
  /** Absent: the action writes one naming the GitHub run. */
  description: string | undefined;
  uploadFile: string | undefined;
  concurrency: number;
  /** From `shard` ("3/16", with `site: all`), or the shard of `sites-file`: only the sites of this shard (src/shards.ts). */
  shard: Shard | undefined;
  /** From `sites-file`: one shard's sites as the matrix step listed them (src/operations/shard-files.ts); the
   * fleet is then not listed again. */
  fromFile: ShardSites | undefined;
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

export type ActionInputs = SnapshotInputs | UpgradeInputs | ApproveInputs;

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

/** Inputs that only some commands read; given to another command they are ignored with a warning. */
const USED_BY: Record<string, readonly Command[]> = {
  description: ["snapshot"],
  "upload-file": ["snapshot"],
  concurrency: ["snapshot"],
  shard: ["snapshot"],
  "sites-file": ["snapshot"],
  "wp-version": ["upgrade"],
  "php-version": ["upgrade"],
  "require-approval": ["upgrade"],
  "pipeline-id": ["approve"],
  comment: ["approve"],
};

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
  const timeoutMinutes = parseNumber("timeout-minutes", get("timeout-minutes"), DEFAULT_TIMEOUT_MINUTES, problems, {
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
  if (command === "snapshot") {
    const sitesFile = get("sites-file");
    const fromFile = sitesFile === undefined ? undefined : parseSitesFile(sitesFile, problems);
    if (sitesFile !== undefined && siteRaw) problems.push("'sites-file' names the sites already (one shard of the fleet): give it without 'site'");
    const sites = sitesFile === undefined ? parseSiteSelection(siteRaw, problems) : { all: false as const, refs: [] };
    const uploadFile = get("upload-file");
    if (uploadFile !== undefined) checkFile(uploadFile, problems);
    if (uploadFile !== undefined && sitesFile !== undefined) problems.push("'upload-file' needs exactly one site, not 'sites-file'");
    else if (uploadFile !== undefined && sites && (sites.all || sites.refs.length !== 1)) {
      problems.push("'upload-file' needs exactly one site: the same data cannot be the snapshot of several sites");
    }
    const concurrency = parseNumber("concurrency", get("concurrency"), DEFAULT_CONCURRENCY, problems, {
      min: 1,
      max: MAX_CONCURRENCY,
      integer: true,
      what: `a whole number from 1 to ${MAX_CONCURRENCY}`,
    });
    let shard = parseShardInput(get("shard"), sitesFile === undefined ? sites : { all: true }, problems);
    if (fromFile && shard && formatShard(shard) !== formatShard(fromFile.shard)) {
      problems.push(`'shard' ${formatShard(shard)} disagrees with 'sites-file', which holds shard ${formatShard(fromFile.shard)}`);
    }
    shard = fromFile?.shard ?? shard;
    const description = get("description");
    if (description !== undefined && description.length > 1000) problems.push("'description' must be at most 1000 characters");
    inputs = {
      command,
      ...common,
      sites: sites ?? { all: false, refs: [] },
      description,
      uploadFile,
      concurrency: concurrency ?? DEFAULT_CONCURRENCY,
      shard,
      fromFile,
    };
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

/** Newlines or commas separate sites; `all` alone selects every site. */
function parseSiteSelection(raw: string, problems: string[]): SiteSelection | undefined {
  const refs = splitSites(raw);
  if (refs.length === 0) {
    problems.push("'site' is required: a site id, an exact site name, a list of them, or 'all'");
    return undefined;
  }
  if (refs.some((r) => r.toLowerCase() === ALL_SITES)) {
    if (refs.length > 1) {
      problems.push("'site' is 'all' or a list of sites, not both");
      return undefined;
    }
    return { all: true };
  }
  const seen = new Set<string>();
  const unique = refs.filter((r) => (seen.has(r) ? false : (seen.add(r), true)));
  return { all: false, refs: unique };
}

/** "3/16": shard 3 of 16, from 1/1 to 256/256 (GitHub's limit of jobs per matrix). Only with `site: all`:
 * a site's shard derives from its id, so a fixed list would shrink unevenly. */
function parseShardInput(value: string | undefined, sites: SiteSelection | undefined, problems: string[]): Shard | undefined {
  if (value === undefined) return undefined;
  let shard: Shard;
  try {
    shard = parseShard(value);
  } catch (err) {
    if (!(err instanceof ShardSpecError)) throw err;
    problems.push(`'shard' ${err.message.replace(/^shard\s*/, "")}`);
    return undefined;
  }
  if (sites && !sites.all) problems.push("'shard' needs 'site: all': a shard is a share of every site of the account");
  return shard;
}

function parseSingleSite(raw: string, command: Command, problems: string[]): string {
  const refs = splitSites(raw);
  if (refs.length === 0) problems.push(`'site' is required by the ${command} command: a site id or an exact site name`);
  else if (refs.length > 1 || refs[0]!.toLowerCase() === ALL_SITES) {
    problems.push(`'site' must be one site for the ${command} command (lists and 'all' are for snapshot)`);
  }
  return refs[0] ?? "";
}

export function splitSites(raw: string): string[] {
  return raw
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
