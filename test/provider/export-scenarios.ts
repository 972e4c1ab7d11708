// Messy fleets and what happens to them between two `siteops export terraform` (issue 47 item 2), for the export
// and adopt properties: sites of mixed versions with names that collide, are empty, Unicode or templates, or give no
// identifier; webhook endpoints; ids random, ULID-like (one shared prefix) or sequential. Then rounds, each renaming
// objects (sometimes to another's name), moving endpoints to other URLs, deleting objects outside Terraform and
// adding new ones, and exporting again in a form, over the earlier file or not. A model of Terraform's plan (moves,
// refresh, imports, destroys) says what the export would make Terraform do, without Terraform;
// export-fleets.test.ts runs a few of the same scenarios through the real one. The seed and run count:
// SITEOPS_PROPERTY_SEED (a number, or `random`), SITEOPS_PROPERTY_RUNS (docs/design.md section 10).
import fc from "fast-check";
import type { Site, WebhookEndpoint } from "../../src/index.js";
import type { ExportedType } from "../../provider/export/arguments.js";
import { renderCdktn } from "../../provider/export/cdktn.js";
import { fleetEntries, type Entry, type Fleet, type FleetEntries } from "../../provider/export/fleet.js";
import { previousKeys, type PreviousKeys } from "../../provider/export/previous-export.js";
import { renderTerraform, type ExportForm } from "../../provider/export/terraform.js";
import { siteFields } from "../../wire/generated/fields.js";
import { recordOf } from "../support/wire-records.js";

export const SEED = process.env.SITEOPS_PROPERTY_SEED === "random" ? Date.now() % 2 ** 31 : Number(process.env.SITEOPS_PROPERTY_SEED ?? 20261129);
const RUNS = Number(process.env.SITEOPS_PROPERTY_RUNS ?? 150);
/** fast-check's parameters for a property; a failure names the seed, to run it again. */
export const parameters = (runs = RUNS) => ({ seed: SEED, numRuns: runs, endOnFailure: process.env.SITEOPS_PROPERTY_SHRINK !== "1" });

/** Names that collide, give no identifier (empty, only punctuation, only non-Latin), start with a digit, are templates. */
const NAMES = ["Blog", "blog", "BLOG!", "Shop", "Store", "Twin", "Twin", "42 Main", "", "   ", "日本語のサイト", "Café", "Shop ${x}", "%{y} site", "-", "shop"];
const name = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...NAMES) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });
const HOSTS = ["hooks.example.com/a", "hooks.example.com/b", "HOOKS.example.com/a", "other.example.org/", "x.example.net/deploys"];

/** Ids as a conforming service may make them: random, ULID-like (time first: one shared prefix), or sequential. */
const idBody = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9]{20}$/),
  fc.stringMatching(/^[0-9A-Z]{6}$/).map((end) => `01HX4K2M9QAB7C${end}`),
  fc.integer({ min: 1, max: 99_999 }).map((n) => String(n).padStart(6, "0")),
);

export interface SiteSpec {
  id: string;
  name: string;
  wp: string;
  php: string;
}
export interface EndpointSpec {
  id: string;
  url: string;
}

const siteSpec = (id: string) =>
  fc
    .record({ name, wp: fc.constantFrom("6.4", "6.5", "6.8", "6.9"), php: fc.constantFrom("8.1", "8.2", "8.3") })
    .map((s): SiteSpec => ({ id: `site_${id}`, ...s }));
const endpointSpec = (id: string) => fc.constantFrom(...HOSTS).map((host): EndpointSpec => ({ id: `we_${id}`, url: `https://${host}` }));

/** What happens between one export and the next. Indexes are taken modulo the fleet's size when applied. */
export interface Round {
  renames: { at: number; name: string }[];
  moves: { at: number; url: string }[];
  deletes: number[];
  newSites: SiteSpec[];
  newEndpoints: EndpointSpec[];
  /** The form the export is written in. */
  form: ExportForm;
  /** Whether it is written over the earlier file (--out FILE --force), or elsewhere (standard output). */
  overEarlier: boolean;
}

export interface Scenario {
  sites: SiteSpec[];
  endpoints: EndpointSpec[];
  firstForm: ExportForm;
  rounds: Round[];
}

/** Ids unique across the whole scenario: the first fleet's and every round's new objects draw from one list. */
export const scenarioArb: fc.Arbitrary<Scenario> = fc
  .record({
    siteIds: fc.uniqueArray(idBody, { minLength: 0, maxLength: 24 }),
    endpointIds: fc.uniqueArray(idBody, { minLength: 0, maxLength: 8 }),
    firstSites: fc.nat({ max: 10 }),
    firstEndpoints: fc.nat({ max: 3 }),
    firstForm: fc.constantFrom<ExportForm>("map", "blocks"),
    rounds: fc.array(
      fc.record({
        renames: fc.array(fc.record({ at: fc.nat(), name }), { maxLength: 4 }),
        moves: fc.array(fc.record({ at: fc.nat(), url: fc.constantFrom(...HOSTS).map((h) => `https://${h}`) }), { maxLength: 2 }),
        deletes: fc.array(fc.nat(), { maxLength: 3 }),
        newSites: fc.nat({ max: 4 }),
        newEndpoints: fc.nat({ max: 2 }),
        form: fc.constantFrom<ExportForm>("map", "blocks"),
        overEarlier: fc.boolean(),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  })
  .chain((r) => {
    // Hand out ids in order: the first fleet, then each round's new objects.
    let nextSite = Math.min(r.firstSites, r.siteIds.length);
    let nextEndpoint = Math.min(r.firstEndpoints, r.endpointIds.length);
    const rounds = r.rounds.map((round) => {
      const sites = r.siteIds.slice(nextSite, (nextSite = Math.min(r.siteIds.length, nextSite + round.newSites)));
      const endpoints = r.endpointIds.slice(nextEndpoint, (nextEndpoint = Math.min(r.endpointIds.length, nextEndpoint + round.newEndpoints)));
      return fc
        .record({
          newSites: fc.tuple(...sites.map(siteSpec)),
          newEndpoints: fc.tuple(...endpoints.map(endpointSpec)),
        })
        .map((fresh): Round => ({ ...round, newSites: fresh.newSites, newEndpoints: fresh.newEndpoints }));
    });
    return fc.record({
      sites: fc.tuple(...r.siteIds.slice(0, Math.min(r.firstSites, r.siteIds.length)).map(siteSpec)),
      endpoints: fc.tuple(...r.endpointIds.slice(0, Math.min(r.firstEndpoints, r.endpointIds.length)).map(endpointSpec)),
      firstForm: fc.constant(r.firstForm),
      rounds: fc.tuple(...rounds),
    });
  });

/** The fleet as the service lists it after `round` (applied to `before`). */
export function applyRound(before: { sites: SiteSpec[]; endpoints: EndpointSpec[] }, round: Round): { sites: SiteSpec[]; endpoints: EndpointSpec[] } {
  const sites = before.sites.map((s) => ({ ...s }));
  const endpoints = before.endpoints.map((e) => ({ ...e }));
  for (const { at, name } of round.renames) if (sites.length) sites[at % sites.length]!.name = name;
  for (const { at, url } of round.moves) if (endpoints.length) endpoints[at % endpoints.length]!.url = url;
  const all = [...sites.map((s) => s.id), ...endpoints.map((e) => e.id)];
  const gone = new Set(round.deletes.flatMap((at) => (all.length ? [all[at % all.length]!] : [])));
  return {
    sites: [...sites.filter((s) => !gone.has(s.id)), ...round.newSites],
    endpoints: [...endpoints.filter((e) => !gone.has(e.id)), ...round.newEndpoints],
  };
}

/** The records the export reads, as the service answers. */
export function fleetOf(specs: { sites: SiteSpec[]; endpoints: EndpointSpec[] }): Fleet {
  const at = "2026-01-01T00:00:00Z";
  return {
    sites: specs.sites.map((s) =>
      recordOf<Site>(siteFields, {
        id: s.id,
        name: s.name,
        url: `https://${s.id.toLowerCase().replace(/_/g, "-")}.example.com`,
        wp_version: s.wp,
        php_version: s.php,
        status: "healthy",
        created_at: at,
        updated_at: at,
      }),
    ),
    webhookEndpoints: specs.endpoints.map(
      (e): WebhookEndpoint => ({ id: e.id, url: e.url, description: null, enabled_events: ["*"], status: "enabled", created_at: at, updated_at: at }),
    ),
  };
}

/** One export: its entries and the text written. */
export interface Exported {
  entries: FleetEntries;
  text: string;
  form: ExportForm;
}

export function exportFleet(fleet: Fleet, form: ExportForm, earlier?: string): Exported {
  const previous: PreviousKeys | undefined = earlier === undefined ? undefined : previousKeys(earlier);
  const entries = fleetEntries(fleet, { form, ...(previous ? { previous } : {}) });
  return { entries, text: renderTerraform(entries, { form, withProvider: true }), form };
}

export const cdktnText = (entries: FleetEntries) => renderCdktn(entries);

const TYPES: [ExportedType, keyof FleetEntries][] = [
  ["siteops_site", "sites"],
  ["siteops_webhook_endpoint", "webhookEndpoints"],
];

/** The resource address of an entry in `form`, as Terraform writes it. */
export const addressOf = (type: ExportedType, key: string, form: ExportForm) => (form === "map" ? `${type}.this[${JSON.stringify(key)}]` : `${type}.${key}`);

/** What an export configures: each address with the id its import block names, and its moved blocks. */
function configuration(exported: Exported): { objects: Map<string, string>; moved: [string, string][] } {
  const objects = new Map<string, string>();
  const moved: [string, string][] = [];
  for (const [type, list] of TYPES) {
    for (const e of exported.entries[list] as Entry[]) {
      const to = addressOf(type, e.key, exported.form);
      objects.set(to, e.id);
      if (e.previous) {
        const from = e.previous.key === undefined ? `${type}.${e.previous.resource}` : `${type}.${e.previous.resource}[${JSON.stringify(e.previous.key)}]`;
        if (from !== to) moved.push([from, to]);
      }
    }
  }
  return { objects, moved };
}

/** What Terraform would plan: the addresses it imports, destroys, moves, and those whose state holds one object while
 * the configuration names another (an in-place update of the wrong object). */
export interface Plan {
  imports: [string, string][];
  destroys: [string, string][];
  moves: [string, string][];
  retargets: [string, string, string][];
}

/**
 * Terraform's plan of `exported` over `state` (address -> id): `moved` blocks first (from an address in state to one
 * that is free), then each address: in the configuration and not in state, imported; in state and not in the
 * configuration, destroyed unless the object is gone (`live` lacks it: the refresh drops it); in both with another
 * id, a retarget (an import block for an address in state does nothing).
 */
export function plan(state: ReadonlyMap<string, string>, exported: Exported, live: ReadonlySet<string>): Plan {
  const { objects, moved } = configuration(exported);
  const now = new Map(state);
  const moves: [string, string][] = [];
  for (const [from, to] of moved) {
    if (now.has(from) && !now.has(to)) {
      now.set(to, now.get(from)!);
      now.delete(from);
      moves.push([from, to]);
    }
  }
  const result: Plan = { imports: [], destroys: [], moves, retargets: [] };
  for (const [address, id] of objects) {
    const held = now.get(address);
    if (held === undefined) result.imports.push([address, id]);
    else if (held !== id) result.retargets.push([address, held, id]);
  }
  for (const [address, id] of now) if (!objects.has(address) && live.has(id)) result.destroys.push([address, id]);
  return result;
}

/** The state after applying `exported` over the live objects. */
export const applied = (exported: Exported): Map<string, string> => configuration(exported).objects;

/** The scenario as a person would read it in a failure. */
export function describeScenario(s: Scenario): string {
  const fleet = (f: { sites: SiteSpec[]; endpoints: EndpointSpec[] }) =>
    [...f.sites.map((x) => `${x.id} ${JSON.stringify(x.name)} ${x.wp}/${x.php}`), ...f.endpoints.map((x) => `${x.id} ${x.url}`)].join("; ") || "(empty)";
  const lines = [`fleet: ${fleet(s)}; exported in the ${s.firstForm} form and applied`];
  s.rounds.forEach((r, i) => {
    lines.push(
      `round ${i + 1}: renames ${JSON.stringify(r.renames)}, endpoint moves ${JSON.stringify(r.moves)}, deletes ${JSON.stringify(r.deletes)}, ` +
        `new ${fleet({ sites: r.newSites, endpoints: r.newEndpoints })}; export in the ${r.form} form ${r.overEarlier ? "over the earlier file" : "to standard output"}`,
    );
  });
  return lines.join("\n");
}
