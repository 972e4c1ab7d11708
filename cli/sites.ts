// Turning --site (id or exact name, repeatable) or --all [--status S] [--shard I/N] into sites. A name that
// matches no site, or several, is a UsageError (exit 2) before anything is changed.

import { inShard, NotFoundError, parseShard, type Shard, ShardSpecError, type Site, type SiteOps } from "../src/index.js";
import { flagBool, flagList, flagString, type FlagSpec, type Parsed } from "./args.js";
import { UsageError } from "./exit-codes.js";
import { clean } from "../src/sanitize.js";

/** A site id as the service issues them (DESIGN.md: prefix, underscore, 16+ alphanumerics). */
const SITE_ID = /^site_[A-Za-z0-9]{16,}$/;

export const SITE_STATUSES = ["healthy", "degraded", "down", "maintenance", "unknown"] as const;

export interface SiteSelection {
  /** Ids or exact names, in the order given. */
  refs: readonly string[];
  all: boolean;
  /** With `all`: only sites in one of these states. */
  statuses?: readonly string[];
  /** With `all`: only the sites of this shard. */
  shard?: Shard;
}

/** Every site of the account, oldest first. */
export async function listSites(client: SiteOps, signal?: AbortSignal): Promise<Site[]> {
  return client.sites.list({ per_page: 100 }, { signal }).toArray();
}

export async function selectSites(client: SiteOps, selection: SiteSelection, signal?: AbortSignal): Promise<Site[]> {
  if (selection.all) {
    const statuses = selection.statuses?.length ? new Set(selection.statuses) : undefined;
    return (await listSites(client, signal)).filter((s) => (!statuses || statuses.has(s.status)) && (!selection.shard || inShard(s.id, selection.shard)));
  }
  const byName = selection.refs.some((r) => !SITE_ID.test(r));
  // Any name, or many ids: one listing answers all of them; a few ids are fetched one by one.
  const listing = byName || selection.refs.length > 3 ? await listSites(client, signal) : undefined;
  const sites: Site[] = [];
  const missing: string[] = [];
  for (const ref of selection.refs) {
    const site = listing ? findIn(listing, ref) : await getById(client, ref, signal);
    if (site) sites.push(site);
    else missing.push(ref);
  }
  if (missing.length > 0) {
    const hint = listing && missing.length === 1 ? closest(listing, missing[0]!) : undefined;
    throw new UsageError(
      `no site with the id or exact name ${missing.map((m) => JSON.stringify(clean(m))).join(", ")} in this account` +
        (listing ? ` (it has ${listing.length} site${listing.length === 1 ? "" : "s"})` : "") +
        (hint ? `; did you mean ${JSON.stringify(clean(hint))}?` : ""),
    );
  }
  return [...new Map(sites.map((s) => [s.id, s])).values()];
}

export async function resolveSite(client: SiteOps, ref: string, signal?: AbortSignal): Promise<Site> {
  const [site] = await selectSites(client, { refs: [ref], all: false }, signal);
  return site!;
}

/** A site id without a request when `ref` is one; otherwise the site's id looked up by name. */
export async function siteIdOf(client: SiteOps, ref: string, signal?: AbortSignal): Promise<string> {
  return SITE_ID.test(ref) ? ref : (await resolveSite(client, ref, signal)).id;
}

function findIn(sites: readonly Site[], ref: string): Site | undefined {
  if (SITE_ID.test(ref)) return sites.find((s) => s.id === ref);
  const named = sites.filter((s) => s.name === ref);
  if (named.length > 1) {
    throw new UsageError(`${named.length} sites are named ${JSON.stringify(clean(ref))}: give one of their ids instead (${named.map((s) => s.id).join(", ")})`);
  }
  return named[0];
}

async function getById(client: SiteOps, id: string, signal?: AbortSignal): Promise<Site | undefined> {
  try {
    return await client.sites.get(id, { signal });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/** A site name that differs from `ref` only in case or by a typo or two. */
function closest(sites: readonly Site[], ref: string): string | undefined {
  const lower = ref.toLowerCase();
  return sites.find((s) => s.name.toLowerCase() === lower)?.name ?? sites.find((s) => s.name.toLowerCase().startsWith(lower) && lower.length >= 3)?.name;
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

export function statusFlag(values: string[]): string[] {
  const statuses = values
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
  const bad = statuses.filter((s) => !(SITE_STATUSES as readonly string[]).includes(s));
  if (bad.length) throw new UsageError(`--status must be one of ${SITE_STATUSES.join(", ")} (got ${bad.map((b) => JSON.stringify(b)).join(", ")})`);
  return statuses;
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
];

/** The sites flags select; a UsageError when neither or both of --site and --all are given. */
export function selectionOf(parsed: Parsed): SiteSelection {
  const refs = flagList(parsed, "site");
  const all = flagBool(parsed, "all") === true;
  const statuses = statusFlag(flagList(parsed, "status"));
  const shard = shardFlag(flagString(parsed, "shard"));
  if (all && refs.length) throw new UsageError("give --site or --all, not both");
  if (!all && !refs.length) throw new UsageError("which sites? give --site ID|NAME (repeatable) or --all");
  if (!all && statuses.length) throw new UsageError("--status selects among --all; with --site the sites are named already");
  if (!all && shard) throw new UsageError("--shard selects among --all; with --site the sites are named already");
  return { refs, all, statuses, shard };
}
