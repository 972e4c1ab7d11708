// Turning --site (id or exact name, repeatable), --all [--status S] [--shard I/N] or --sites-from FILE (a shard
// file of `siteops sites matrix --out`, read without listing the fleet) into sites. A name that matches no site,
// or several, or a bad shard file, is a UsageError (exit 2) before anything is changed.

import { type Site, type SiteOps, type SiteStatus } from "../src/index.js";
import {
  checkSelection,
  listAllSites,
  parseShard,
  readShardFile,
  selectFleet as coreSelectFleet,
  selectSites as coreSelectSites,
  selectSite,
  type SelectedFleet,
  ShardFileError,
  type ShardSites,
  ShardSpecError,
  siteIdOf as coreSiteIdOf,
  type SiteSelection,
} from "../src/fleet.js";
import { flagBool, flagList, flagString, type FlagSpec, type Parsed } from "./args.js";
import { UsageError } from "./exit-codes.js";
import { siteFields } from "../wire/generated/fields.js";

export const SITE_STATUSES = siteFields.status.values satisfies readonly SiteStatus[];

/** Every site of the account, oldest first. */
export function listSites(client: SiteOps, signal?: AbortSignal): Promise<Site[]> {
  return listAllSites(client, { signal });
}

/** A selection from flags: the core's selectSites' (site ids, exact names, all, status, shard; its
 * SiteSelectionError is a usage error, exit 2: exit-codes.ts), or the sites of a shard file (--sites-from),
 * read and checked already. */
export type CliSelection = SiteSelection & { fromFile?: ShardSites };

export function selectSites(client: SiteOps, selection: CliSelection, signal?: AbortSignal): Promise<Site[]> {
  if (selection.fromFile) return Promise.resolve(selection.fromFile.sites);
  return coreSelectSites(client, selection, { signal });
}

/** --allow-empty, for the commands whose selection may hold no site (src/operations/fleet-selection.ts). */
export const ALLOW_EMPTY_FLAG: FlagSpec = {
  name: "allow-empty",
  type: "boolean",
  description: "succeed when the selection holds no site (the account has none, none is in --status); without it that is exit 6",
};

/** What a fleet command works on: the selected sites, and when there is nothing to do, why (`notice`). */
export interface CheckedFleet extends SelectedFleet {
  notice?: string;
}

/** The sites of a selection and how many it held before its shard (the core's selectFleet); a shard file's fleet
 * is the account as the matrix step listed it. */
export async function resolveFleet(client: SiteOps, selection: CliSelection, signal?: AbortSignal): Promise<SelectedFleet> {
  const file = selection.fromFile;
  if (file) return { sites: file.sites, selected: file.fleetSize, listed: file.fleetSize, shard: file.shard };
  return coreSelectFleet(client, selection, { signal });
}

/** The rule of an empty selection (the core's checkSelection): EmptySelectionError, exit 6, unless --allow-empty is
 * in `parsed`; `notice` when there is nothing to do. */
export function checkFleet(fleet: SelectedFleet, parsed: Parsed): CheckedFleet {
  const { notice } = checkSelection(fleet, { allowEmpty: flagBool(parsed, "allow-empty") === true });
  return notice === undefined ? fleet : { ...fleet, notice };
}

/** resolveFleet, then checkFleet: what a fleet command that is not a job (vulns report, vulns fix) works on. */
export async function selectCheckedFleet(client: SiteOps, selection: CliSelection, parsed: Parsed, signal?: AbortSignal): Promise<CheckedFleet> {
  return checkFleet(await resolveFleet(client, selection, signal), parsed);
}

export function resolveSite(client: SiteOps, ref: string, signal?: AbortSignal): Promise<Site> {
  return selectSite(client, ref, { signal });
}

/** A site id without a request when `ref` is one; otherwise the site's id looked up by name. */
export function siteIdOf(client: SiteOps, ref: string, signal?: AbortSignal): Promise<string> {
  return coreSiteIdOf(client, ref, { signal });
}

/** --shard I/N as a UsageError when malformed. */
export function shardFlag(raw: string | undefined): ReturnType<typeof parseShard> | undefined {
  if (raw === undefined) return undefined;
  try {
    return parseShard(raw);
  } catch (err) {
    if (err instanceof ShardSpecError) throw new UsageError(`--${err.message}`);
    throw err;
  }
}

export function statusFlag(values: string[]): SiteStatus[] {
  const statuses = values
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
  const bad = statuses.filter((s) => !(SITE_STATUSES as readonly string[]).includes(s));
  if (bad.length) throw new UsageError(`--status must be one of ${SITE_STATUSES.join(", ")} (got ${bad.map((b) => JSON.stringify(b)).join(", ")})`);
  return statuses as SiteStatus[];
}

/** --site (repeatable) or --all [--status] [--shard]: shared by list, create and prune. */
export const SELECTION_FLAGS: FlagSpec[] = [
  { name: "site", short: "s", type: "string", multiple: true, value: "ID|NAME", description: "a site id or exact name" },
  { name: "all", type: "boolean", description: "every site of the account" },
  {
    name: "status",
    type: "string",
    multiple: true,
    value: "STATUS",
    description: "with --all: only sites in this state (healthy, degraded, down, maintenance, unknown)",
  },
  { name: "shard", type: "string", value: "I/N", description: "with --all: only the sites of shard I of N (siteops sites matrix)" },
  {
    name: "sites-from",
    type: "string",
    value: "FILE",
    description: "the sites of a shard file written by siteops sites matrix --out, without listing the fleet",
  },
];

/** The sites flags select; a UsageError when neither or several of --site, --all and --sites-from are given,
 * or when the shard file of --sites-from is not one (read here, before any request). */
export function selectionOf(parsed: Parsed): CliSelection & { refs: readonly string[]; all: boolean } {
  const refs = flagList(parsed, "site");
  const all = flagBool(parsed, "all") === true;
  const statuses = statusFlag(flagList(parsed, "status"));
  const shard = shardFlag(flagString(parsed, "shard"));
  const sitesFrom = flagString(parsed, "sites-from");
  if (sitesFrom !== undefined) {
    if (all || refs.length || statuses.length || shard)
      throw new UsageError("--sites-from names the sites already (one shard of the fleet): give it without --site, --all, --status or --shard");
    return { refs: [], all: false, fromFile: shardFileOf(sitesFrom) };
  }
  if (all && refs.length) throw new UsageError("give --site or --all, not both");
  if (!all && !refs.length) throw new UsageError("which sites? give --site ID|NAME (repeatable), --all or --sites-from FILE");
  if (!all && statuses.length) throw new UsageError("--status selects among --all; with --site the sites are named already");
  if (!all && shard) throw new UsageError("--shard selects among --all; with --site the sites are named already");
  return { refs, all, statuses, shard };
}

function shardFileOf(file: string): ShardSites {
  try {
    return readShardFile(file, { ownOnly: true });
  } catch (err) {
    if (err instanceof ShardFileError) throw new UsageError(`--sites-from ${err.message}`);
    throw err;
  }
}
