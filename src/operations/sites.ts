// Site selection, once for every consumer (CLI, GitHub Action, Terraform provider): ids and exact names, all
// sites, a status filter and a shard; one listing when that is cheaper than fetching ids one by one; an error
// naming what was not found and how each ref was tried. A ref shaped like an id (`site_` and alphanumerics) may
// also be a site's name: an exact id match wins, then names.

import { sameUrl } from "../equivalence.js";
import { NotFoundError, SiteOpsError } from "../errors.js";
import type { Site, SiteStatus } from "../resources/sites.js";
import { inShard, type Shard } from "../shards.js";
import type { OperationsClient } from "./client.js";

/** The shape the spec gives a site id: `site_` and letters and digits, of any length. */
export const SITE_ID_PATTERN: RegExp = /^site_[A-Za-z0-9]+$/;

/** More ids than this are answered from one listing of the account's sites rather than fetched one by one. */
export const MAX_SITES_FETCHED_BY_ID = 3;

/** Whether `ref` has the form of a site id (a name may have it too: selection tries the id first, then names). */
export function isSiteId(ref: string): boolean {
  return SITE_ID_PATTERN.test(ref);
}

/** Which sites: `refs` (ids or exact names), or `all` of them, optionally narrowed by status and shard. */
export interface SiteSelection {
  /** Site ids or exact names, in the order wanted. Ignored with `all`. */
  refs?: readonly string[];
  /** Every site of the account. */
  all?: boolean;
  /** With `all`: only the sites in one of these states. */
  statuses?: readonly SiteStatus[];
  /** With `all`: only the sites of this shard (see {@link inShard}). */
  shard?: Shard;
}

/** Options of {@link selectSites} and {@link lookupSites}. */
export interface SelectSitesOptions {
  /** Aborts the listing or the lookups. */
  signal?: AbortSignal;
}

/**
 * Thrown by {@link selectSites} when a ref names no site (`code` SITE_NOT_FOUND), or a name names several
 * (`code` SITE_AMBIGUOUS). Nothing was changed; the message says what to fix.
 */
export class SiteSelectionError extends SiteOpsError {
  override readonly code: "SITE_NOT_FOUND" | "SITE_AMBIGUOUS";
  /** The refs that name no site (SITE_NOT_FOUND). */
  readonly missing: readonly string[];
  /** The name given and the ids of the sites it names (SITE_AMBIGUOUS). */
  readonly ambiguous?: { readonly name: string; readonly ids: readonly string[] };
  /** With one missing name: a site name that differs only in case or is longer, when there is one. */
  readonly suggestion?: string;
  /** How many sites the account has, when they were listed. */
  readonly siteCount?: number;

  constructor(init: {
    missing?: readonly string[];
    ambiguous?: { name: string; ids: readonly string[] };
    suggestion?: string;
    siteCount?: number;
  }) {
    const { missing = [], ambiguous, suggestion, siteCount } = init;
    super(
      ambiguous
        ? `${ambiguous.ids.length} sites are named ${JSON.stringify(ambiguous.name)}: give one of their ids instead (${ambiguous.ids.join(", ")})`
        : `no site with ${missing.map(triedAs).join(", or ")} in this account` +
            (siteCount !== undefined ? ` (it has ${siteCount} site${siteCount === 1 ? "" : "s"})` : "") +
            (suggestion !== undefined ? `; did you mean ${JSON.stringify(suggestion)}?` : ""),
    );
    this.code = ambiguous ? "SITE_AMBIGUOUS" : "SITE_NOT_FOUND";
    this.missing = missing;
    if (ambiguous) this.ambiguous = ambiguous;
    if (suggestion !== undefined) this.suggestion = suggestion;
    if (siteCount !== undefined) this.siteCount = siteCount;
  }
}

/** How a missing ref was tried, for the error: `the id or exact name "site_x"`, `the exact name "Blog"`. */
function triedAs(ref: string): string {
  return `${isSiteId(ref) ? "the id or exact name" : "the exact name"} ${JSON.stringify(ref)}`;
}

/** Sites asked for per page of a listing: the emulator's largest. The server may send fewer; pages end only
 * when it says so (pagination.ts). */
export const SITES_PER_PAGE = 100;

/** Every site of the account, oldest first: the one listing every "all sites" of the toolkit goes through. */
export async function listAllSites(client: OperationsClient, options: SelectSitesOptions = {}): Promise<Site[]> {
  return client.sites.list({ per_page: SITES_PER_PAGE }, { signal: options.signal }).toArray();
}

/**
 * The sites a selection names, each once, in the order given (`all`: the account's order). Any name, or more
 * than {@link MAX_SITES_FETCHED_BY_ID} ids, is answered from one listing; a few ids are fetched one by one.
 * Throws {@link SiteSelectionError} naming every ref that matches no site, or a name that matches several.
 */
export async function selectSites(client: OperationsClient, selection: SiteSelection, options: SelectSitesOptions = {}): Promise<Site[]> {
  return selection.all ? (await selectFleet(client, selection, options)).sites : selectNamed(client, selection.refs ?? [], options);
}

/** What a selection found: the sites to work on and how many it held before its shard was taken (the empty
 * selection rule, fleet-selection.ts, counts those). */
export interface SelectedFleet {
  /** The sites to work on (the shard's, with a shard). */
  sites: Site[];
  /** Sites the selection held before its shard was taken (`sites.length` without a shard). */
  selected: number;
  /** Sites of the account when they were listed; undefined when they were not (a few sites fetched by id). */
  listed?: number;
  /** The states the selection kept (its `statuses`), for the words of an empty one. */
  statuses?: readonly SiteStatus[];
  shard?: Shard;
}

/** {@link selectSites}, also saying how many sites the selection held before its shard (see {@link SelectedFleet}). */
export async function selectFleet(client: OperationsClient, selection: SiteSelection, options: SelectSitesOptions = {}): Promise<SelectedFleet> {
  if (!selection.all) {
    const sites = await selectNamed(client, selection.refs ?? [], options);
    return { sites, selected: sites.length };
  }
  const listing = await listAllSites(client, options);
  const statuses = selection.statuses?.length ? new Set<string>(selection.statuses) : undefined;
  const kept = statuses ? listing.filter((s) => statuses.has(s.status)) : listing;
  const shard = selection.shard;
  return {
    sites: shard ? kept.filter((s) => inShard(s.id, shard)) : kept,
    selected: kept.length,
    listed: listing.length,
    ...(statuses ? { statuses: selection.statuses! } : {}),
    ...(shard ? { shard } : {}),
  };
}

async function selectNamed(client: OperationsClient, refs: readonly string[], options: SelectSitesOptions): Promise<Site[]> {
  let listing = refs.some((r) => !isSiteId(r)) || refs.length > MAX_SITES_FETCHED_BY_ID ? await listAllSites(client, options) : undefined;
  const sites: Site[] = [];
  const missing: string[] = [];
  for (const ref of refs) {
    let site = listing ? findIn(listing, ref) : await getById(client, ref, options.signal);
    // No site has this id: it may still be a name shaped like one.
    if (!site && !listing) site = findIn((listing = await listAllSites(client, options)), ref);
    if (site) sites.push(site);
    else missing.push(ref);
  }
  if (missing.length > 0) {
    const suggestion = listing && missing.length === 1 ? closestName(listing, missing[0]!) : undefined;
    throw new SiteSelectionError({ missing, suggestion, siteCount: listing?.length });
  }
  return [...new Map(sites.map((s) => [s.id, s])).values()];
}

/** One site by id or exact name; {@link SiteSelectionError} when there is none, or several by that name. */
export async function selectSite(client: OperationsClient, ref: string, options: SelectSitesOptions = {}): Promise<Site> {
  const [site] = await selectSites(client, { refs: [ref] }, options);
  return site!;
}

/** A site's id from its id or exact name (an id shaped ref is checked with a GET, since a name may look like an id). */
export async function siteIdOf(client: OperationsClient, ref: string, options: SelectSitesOptions = {}): Promise<string> {
  return (await selectSite(client, ref, options)).id;
}

/**
 * Every site whose `name` is exactly `value`, or whose `url` is the same URL as `value` (by meaning: see
 * {@link sameUrl}), from one listing (none, one, or several).
 */
export async function lookupSites(client: OperationsClient, field: "name" | "url", value: string, options: SelectSitesOptions = {}): Promise<Site[]> {
  return (await listAllSites(client, options)).filter((s) => (field === "name" ? s.name === value : sameUrl(s.url, value)));
}

/** The site `ref` names in a listing: the one with that id, else the one with that exact name. */
function findIn(sites: readonly Site[], ref: string): Site | undefined {
  const byId = isSiteId(ref) ? sites.find((s) => s.id === ref) : undefined;
  if (byId) return byId;
  const named = sites.filter((s) => s.name === ref);
  if (named.length > 1) throw new SiteSelectionError({ ambiguous: { name: ref, ids: named.map((s) => s.id) }, siteCount: sites.length });
  return named[0];
}

async function getById(client: OperationsClient, id: string, signal: AbortSignal | undefined): Promise<Site | undefined> {
  try {
    return await client.sites.get(id, { signal });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/** A site name that differs from `ref` only in case, or starts with it (3 characters or more). */
function closestName(sites: readonly Site[], ref: string): string | undefined {
  const lower = ref.toLowerCase();
  return sites.find((s) => s.name.toLowerCase() === lower)?.name ?? sites.find((s) => s.name.toLowerCase().startsWith(lower) && lower.length >= 3)?.name;
}
