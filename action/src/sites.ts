// Turning the `site` input into sites: ids are fetched, exact names are looked up in one listing of the
// account's sites, `all` is that listing.

import { NotFoundError, type Site, type SiteOps } from "../../src/index.js";
import type { SiteSelection } from "./inputs.js";

/** A site id as the service issues them (DESIGN.md: prefix, underscore, 16+ alphanumerics). */
const SITE_ID = /^site_[A-Za-z0-9]{16,}$/;

/** A `site` value that names no site, or more than one. Not an API failure: the message says what to fix. */
class SiteLookupError extends Error {
  readonly code = "SITE_NOT_FOUND";
  constructor(message: string) {
    super(message);
    this.name = "SiteLookupError";
  }
}

export async function resolveSites(client: SiteOps, selection: SiteSelection): Promise<Site[]> {
  if (selection.all) return listAll(client);
  const byId = selection.refs.filter((r) => SITE_ID.test(r));
  const byName = selection.refs.filter((r) => !SITE_ID.test(r));
  // Few ids: fetch each. Any name, or many ids: one listing answers all of them.
  const listing = byName.length > 0 || byId.length > 3 ? await listAll(client) : undefined;
  const missing: string[] = [];
  const sites: Site[] = [];
  for (const ref of selection.refs) {
    const site = listing ? findIn(listing, ref) : await getById(client, ref);
    if (site) sites.push(site);
    else missing.push(ref);
  }
  if (missing.length > 0) {
    throw new SiteLookupError(
      `No site with the id or exact name ${missing.map((m) => JSON.stringify(m)).join(", ")} in this account` +
        (listing ? ` (it has ${listing.length} site${listing.length === 1 ? "" : "s"})` : "") +
        ".",
    );
  }
  // A site given by id and by name is still snapshotted once.
  return [...new Map(sites.map((s) => [s.id, s])).values()];
}

export async function resolveSite(client: SiteOps, ref: string): Promise<Site> {
  const [site] = await resolveSites(client, { all: false, refs: [ref] });
  return site!;
}

async function listAll(client: SiteOps): Promise<Site[]> {
  const sites: Site[] = [];
  for await (const site of client.sites.list({ per_page: 100 })) sites.push(site);
  return sites;
}

function findIn(sites: Site[], ref: string): Site | undefined {
  if (SITE_ID.test(ref)) return sites.find((s) => s.id === ref);
  const named = sites.filter((s) => s.name === ref);
  if (named.length > 1) {
    throw new SiteLookupError(`${named.length} sites are named ${JSON.stringify(ref)}: give one of their ids instead (${named.map((s) => s.id).join(", ")}).`);
  }
  return named[0];
}

async function getById(client: SiteOps, id: string): Promise<Site | undefined> {
  try {
    return await client.sites.get(id);
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}
