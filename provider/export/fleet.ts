// The fleet `siteops export terraform` and `siteops export cdktn` adopt (issue 27, item 3): the account's sites
// and webhook endpoints (of one shard, when given), each with a stable, unique key for its resource address
// (keys.ts: an earlier export's keys kept). Read through the core's site selection; each object's arguments are
// those arguments.ts reads from its resource's schema. The two renderers (terraform.ts, cdktn.ts) format the same
// entries, so both export the same objects under the same keys. The CLI imports it from here
// (docs/project-layout.md).
import { checkRecord, type Site, type SiteOps, type WebhookEndpoint } from "../../src/index.js";
import { inShard, selectSites, type Shard } from "../../src/fleet.js";
import { EXPORTS, type Value } from "./arguments.js";
import { assignKeys, endpointBase, slugOf, type KeyForm, type PreviousPlace } from "./keys.js";
import type { PreviousKeys } from "./previous-export.js";

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

/** One object to adopt: its key, its id (what the import block imports) and its arguments in the provider's
 * attribute names, exactly as the service has them (so the plan after the import is empty). */
export interface Entry {
  key: string;
  id: string;
  attrs: [string, Value][];
  /** Where the earlier export read for its keys had it, when it had it (a `moved` block when that differs). */
  previous?: PreviousPlace["address"];
}

export interface FleetEntries {
  sites: Entry[];
  webhookEndpoints: Entry[];
}

/** The fleet as entries with their keys, written in `form`, keeping those of `previous` (an earlier export). */
export function fleetEntries(fleet: Fleet, options: { form?: KeyForm; previous?: PreviousKeys } = {}): FleetEntries {
  const form = options.form ?? "map";
  const before = options.previous ?? { siteops_site: new Map(), siteops_webhook_endpoint: new Map() };
  const entry = (keys: Map<string, string>, previous: ReadonlyMap<string, PreviousPlace>, id: string, attrs: [string, Value][]): Entry => {
    const address = previous.get(id)?.address;
    return { key: keys.get(id)!, id, attrs, ...(address ? { previous: address } : {}) };
  };
  const siteKeys = assignKeys(fleet.sites, (s) => slugOf(s.name, "site"), form, before.siteops_site);
  const endpointKeys = assignKeys(fleet.webhookEndpoints, endpointBase, form, before.siteops_webhook_endpoint);
  return {
    sites: fleet.sites.map((s) => entry(siteKeys, before.siteops_site, s.id, EXPORTS.siteops_site.attrs(s))),
    webhookEndpoints: fleet.webhookEndpoints.map((e) => entry(endpointKeys, before.siteops_webhook_endpoint, e.id, EXPORTS.siteops_webhook_endpoint.attrs(e))),
  };
}

/** "3 sites and 1 webhook endpoint" */
export function describeCounts(entries: FleetEntries): string {
  const n = (count: number, what: string) => `${count} ${what}${count === 1 ? "" : "s"}`;
  return `${n(entries.sites.length, "site")} and ${n(entries.webhookEndpoints.length, "webhook endpoint")}`;
}
