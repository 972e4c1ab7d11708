// The inputs that select sites for the fleet commands (snapshot, vulnerabilities, rollout): 'site' (ids, exact
// names, a list or 'all'), 'shard' (with 'all'), 'sites-file' (one shard file of `siteops sites matrix --out`) and
// 'allow-empty', read the same way for each command, each problem one line naming the input.

import { formatShard, parseShard, type Shard, type ShardSites, ShardSpecError } from "../../src/fleet.js";
import { parseBoolean, parseSitesFile } from "./input-values.js";

/** The `site` value that selects every site of the account (fleet commands only). */
export const ALL_SITES = "all";

/** Which sites a fleet command runs on: every site, or ids/exact names in the order given. */
type SiteSelection = { all: true } | { all: false; refs: string[] };

/** What the selection inputs ask for. */
export interface FleetSelection {
  sites: SiteSelection;
  /** From `shard` ("3/16", with `site: all`), or the shard of `sites-file`: only the sites of this shard (src/shards.ts). */
  shard: Shard | undefined;
  /** From `sites-file`: one shard's sites as the matrix step listed them (src/operations/shard-files.ts); the
   * fleet is then not listed again. */
  fromFile: ShardSites | undefined;
  /** 'allow-empty': a selection that holds no site is a success (fleet-sites.ts), not the step's failure. */
  allowEmpty: boolean;
}

/** Reads 'site', 'sites-file' and 'shard'; `get` gives an input's trimmed value, undefined when not set. */
export function parseFleetSelection(get: (name: string) => string | undefined, problems: string[]): FleetSelection {
  const siteRaw = get("site") ?? "";
  const sitesFile = get("sites-file");
  const fromFile = sitesFile === undefined ? undefined : parseSitesFile(sitesFile, problems);
  if (sitesFile !== undefined && siteRaw) problems.push("'sites-file' names the sites already (one shard of the fleet): give it without 'site'");
  const sites = sitesFile === undefined ? parseSiteSelection(siteRaw, problems) : { all: false as const, refs: [] };
  let shard = parseShardInput(get("shard"), sitesFile === undefined ? sites : { all: true }, problems);
  if (fromFile && shard && formatShard(shard) !== formatShard(fromFile.shard)) {
    problems.push(`'shard' ${formatShard(shard)} disagrees with 'sites-file', which holds shard ${formatShard(fromFile.shard)}`);
  }
  shard = fromFile?.shard ?? shard;
  const allowEmpty = parseBoolean("allow-empty", get("allow-empty"), false, problems);
  return { sites: sites ?? { all: false, refs: [] }, shard, fromFile, allowEmpty };
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

/** Sites given in one input: separated by newlines or commas. */
export function splitSites(raw: string): string[] {
  return raw
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
