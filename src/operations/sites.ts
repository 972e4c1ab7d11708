// Site selection, once for every consumer (CLI, GitHub Action, Terraform provider): ids and exact names, all
// sites, a status filter and a shard; one listing when that is cheaper than fetching ids one by one; an error
// naming what was not found.

import { NotFoundError, SiteOpsError } from "../errors.js";
import type { Site, SiteStatus } from "../resources/sites.js";
import { inShard, type Shard } from "../shards.js";
import type { OperationsClient } from "./client.js";

/** A site id as the service issues them: `site_` and 16 or more letters and digits (docs/design.md). */
export const SITE_ID_PATTERN: RegExp = /^site_[A-Za-z0-9]{16,}$/;

/** More ids than this are answered from one listing of the account's sites rather than fetched one by one. */
export const MAX_SITES_FETCHED_BY_ID = 3;

/** Whether `ref` has the form of a site id (a name never does). */
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
        : `no site with the id or exact name ${missing.map((m) => JSON.stringify(m)).join(", ")} in this account` +
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

/** Every site of the account, oldest first, in pages of 100. */
export async function listAllSites(client: OperationsClient, options: SelectSitesOptions = {}): Promise<Site[]> {
  return client.sites.list({ per_page: 100 }, { signal: options.signal }).toArray();
}

/**
 * The sites a selection names, each once, in the order given (`all`: the account's order). Any name, or more
 * than {@link MAX_SITES_FETCHED_BY_ID} ids, is answered from one listing; a few ids are fetched one by one.
 * Throws {@link SiteSelectionError} naming every ref that matches no site, or a name that matches several.
 */
export async function selectSites(client: OperationsClient, selection: SiteSelection, options: SelectSitesOptions = {}): Promise<Site[]> {
  if (selection.all) {
    const statuses = selection.statuses?.length ? new Set<string>(selection.statuses) : undefined;
    const shard = selection.shard;
    return (await listAllSites(client, options)).filter((s) => (!statuses || statuses.has(s.status)) && (!shard || inShard(s.id, shard)));
  }
  const refs = selection.refs ?? [];
  const listing = refs.some((r) => !isSiteId(r)) || refs.length > MAX_SITES_FETCHED_BY_ID ? await listAllSites(client, options) : undefined;
  const sites: Site[] = [];
  const missing: string[] = [];
  for (const ref of refs) {
    const site = listing ? findIn(listing, ref) : await getById(client, ref, options.signal);
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

/** A site's id: `ref` itself, without a request, when it has the form of an id; else looked up by exact name. */
export async function siteIdOf(client: OperationsClient, ref: string, options: SelectSitesOptions = {}): Promise<string> {
  return isSiteId(ref) ? ref : (await selectSite(client, ref, options)).id;
}

/**
 * Every site whose `name` is exactly `value`, or whose `url` is the same URL as `value` (see {@link sameUrl}),
 * from one listing (none, one, or several).
 */
export async function lookupSites(client: OperationsClient, field: "name" | "url", value: string, options: SelectSitesOptions = {}): Promise<Site[]> {
  return (await listAllSites(client, options)).filter((s) => (field === "name" ? s.name === value : sameUrl(s.url, value)));
}

/** Two URLs name the same place up to the case of scheme and host and a trailing slash of the path. */
export function sameUrl(a: string, b: string): boolean {
  const norm = (u: string) => {
    try {
      const x = new URL(u);
      return `${x.protocol}//${x.host}${x.pathname.replace(/\/+$/, "")}${x.search}`;
    } catch {
      return u.replace(/\/+$/, "");
    }
  };
  return norm(a) === norm(b);
}

function findIn(sites: readonly Site[], ref: string): Site | undefined {
  if (isSiteId(ref)) return sites.find((s) => s.id === ref);
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
