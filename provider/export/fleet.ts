// The fleet `siteops export terraform` and `siteops export cdktn` adopt (issue 27, item 3): the account's sites
// and webhook endpoints (of one shard, when given), each with a stable, unique key for its resource address.
// Read through the core's site selection; each object's arguments are those arguments.ts reads from its
// resource's schema. The two renderers (terraform.ts, cdktn.ts) format the same entries, so both export the
// same objects under the same keys. The CLI imports it from here (docs/project-layout.md).
import { checkRecord, type Site, type SiteOps, type WebhookEndpoint } from "../../src/index.js";
import { inShard, selectSites, type Shard } from "../../src/fleet.js";
import { EXPORTS, type Value } from "./arguments.js";

export interface Fleet {
  sites: Site[];
  webhookEndpoints: WebhookEndpoint[];
}

/**
 * The account's sites and webhook endpoints, oldest first. With a shard: the sites of that shard (the CLI's
 * `--shard`, `provider::siteops::shard`) and the endpoints whose id falls in it by the same function, so the
 * shards 1..N together hold every object exactly once.
 */
export async function readFleet(client: SiteOps, options: { shard?: Shard; signal?: AbortSignal } = {}): Promise<Fleet> {
  const { shard, signal } = options;
  const sites = await selectSites(client, { all: true, ...(shard ? { shard } : {}) }, { signal });
  const endpoints = await client.webhookEndpoints.list({ per_page: 100 }, { signal }).toArray();
  // What the export writes of an endpoint beyond what the core checks: an answer without it is one clear error
  // (an UnexpectedResponseError naming the endpoint and field), not a TypeError halfway through the file.
  endpoints.forEach((e, i) => checkRecord(ENDPOINT_ARGUMENTS, e, { endpoint: "GET /api/v1/webhook_endpoints" }, i));
  return { sites, webhookEndpoints: endpoints.filter((e) => !shard || inShard(e.id, shard)) };
}

const ENDPOINT_ARGUMENTS = { noun: "webhook endpoint", fields: { enabled_events: "string[]", status: "string" } } as const;

/** A key/identifier from a name: lowercase ASCII letters, digits and `_`, starting with a letter. */
function slugOf(name: string, fallback: string): string {
  const slug = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  if (!slug) return fallback;
  return /^[a-z]/.test(slug) ? slug : `s_${slug}`;
}

/** Stable, unique slugs: from the name (sites) or the URL's host and path (endpoints); names that clash all
 * get their id's tail, so adding an object never renames another one that has a name of its own. */
function slugs<T extends { id: string }>(items: readonly T[], base: (item: T) => string): Map<string, string> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(base(item), (counts.get(base(item)) ?? 0) + 1);
  const out = new Map<string, string>();
  for (const item of items) {
    const b = base(item);
    out.set(item.id, counts.get(b)! > 1 ? `${b}_${item.id.replace(/^[a-z]+_/, "").toLowerCase()}` : b);
  }
  return out;
}

function endpointBase(e: WebhookEndpoint): string {
  let text = e.url;
  try {
    const u = new URL(e.url);
    text = `${u.host}${u.pathname}`;
  } catch {
    // keep the raw URL
  }
  return slugOf(text, "endpoint");
}

/** One object to adopt: its key, its id (what the import block imports) and its arguments in the provider's
 * attribute names, exactly as the service has them (so the plan after the import is empty). */
export interface Entry {
  key: string;
  id: string;
  attrs: [string, Value][];
}

export interface FleetEntries {
  sites: Entry[];
  webhookEndpoints: Entry[];
}

/** The fleet as entries with their keys. */
export function fleetEntries(fleet: Fleet): FleetEntries {
  const siteSlugs = slugs(fleet.sites, (s) => slugOf(s.name, "site"));
  const endpointSlugs = slugs(fleet.webhookEndpoints, endpointBase);
  return {
    sites: fleet.sites.map((s) => ({
      key: siteSlugs.get(s.id)!,
      id: s.id,
      attrs: EXPORTS.siteops_site.attrs(s),
    })),
    webhookEndpoints: fleet.webhookEndpoints.map((e) => ({
      key: endpointSlugs.get(e.id)!,
      id: e.id,
      attrs: EXPORTS.siteops_webhook_endpoint.attrs(e),
    })),
  };
}

/** "3 sites and 1 webhook endpoint" */
export function describeCounts(entries: FleetEntries): string {
  const n = (count: number, what: string) => `${count} ${what}${count === 1 ? "" : "s"}`;
  return `${n(entries.sites.length, "site")} and ${n(entries.webhookEndpoints.length, "webhook endpoint")}`;
}
