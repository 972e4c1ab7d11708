// The seed's `generate.spread`: a messy fleet from one seed line (issue 47 item 2, issue 49). Exact shares of
// versions below, at and above the newest WordPress and of degraded and down sites; the records and the first
// check each site's versions give it (some records dismissed by a person); statuses that stick; the same fleet
// from the same seed value, another from another; and a clear message for each bad field.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator, SeedFile, SeedSpread } from "../../emulator/index.js";
import { affecting } from "../../emulator/catalogue/vulnerabilities.js";
import { validateSeed } from "../../emulator/seed.js";
import { planSpread, SPREAD_PRE_RELEASE_WP } from "../../emulator/services/fleet-spread.js";
import { CURRENT_WP_VERSION, compareVersions } from "../../emulator/versions.js";
import { TOKENS, advanceClock, api, standardSeed, startTestEmulator } from "./helpers.js";

const SITES = 300;

function seedWith(generate: unknown): SeedFile {
  return { ...standardSeed(), generate } as SeedFile;
}

interface Row {
  name: string;
  wp_version: string;
  php_version: string;
  status: string;
  forced_health: string | null;
}

/** The fleet as stored, by name: what one seed value decides. */
function fleetOf(emu: RunningEmulator): { sites: Row[]; records: { name: string; key: string; status: string; reason: string | null }[] } {
  const db = emu.context.db;
  return {
    sites: db.prepare("SELECT name, wp_version, php_version, status, forced_health FROM sites ORDER BY seq").all() as unknown as Row[],
    records: db
      .prepare(
        "SELECT s.name, r.catalogue_key AS key, r.status, r.dismissed_reason AS reason FROM vulnerability_records r JOIN sites s ON s.id = r.site_id ORDER BY s.seq, r.catalogue_key",
      )
      .all() as unknown as { name: string; key: string; status: string; reason: string | null }[],
  };
}

describe("seed generate spread", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: seedWith({ sites: SITES, spread: { seed: 7 }, account: "Account B" }) });
  });
  afterAll(() => emu?.close());

  it("mixes WordPress versions in exact shares: 25 % below the newest, 2 % above, the rest at it", () => {
    const { sites } = fleetOf(emu);
    expect(sites).toHaveLength(SITES);
    const at = sites.filter((s) => s.wp_version === CURRENT_WP_VERSION);
    const above = sites.filter((s) => s.wp_version === SPREAD_PRE_RELEASE_WP);
    const below = sites.filter((s) => compareVersions(s.wp_version, CURRENT_WP_VERSION) < 0);
    expect([below.length, at.length, above.length]).toEqual([75, 219, 6]);
    expect(new Set(below.map((s) => s.wp_version)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(sites.map((s) => s.php_version)).size).toBeGreaterThanOrEqual(4);
    expect(sites.some((s) => s.php_version === "8.4")).toBe(true); // above the emulator's current PHP too
  });

  it("has healthy, degraded and down sites; the forced ones stay so through their next periodic check", async () => {
    const { sites } = fleetOf(emu);
    const forced = (h: string) => sites.filter((s) => s.forced_health === h);
    expect(forced("failed")).toHaveLength(6);
    expect(forced("warning")).toHaveLength(9);
    expect(forced("failed").every((s) => s.status === "down")).toBe(true);
    expect(forced("warning").every((s) => s.status === "degraded")).toBe(true);
    // Sites whose own check finds a critical record or an old PHP are degraded too, as any created site is.
    const natural = sites.filter((s) => s.status === "degraded" && s.forced_health === null);
    expect(natural.length).toBeGreaterThan(0);
    expect(sites.filter((s) => s.status === "healthy").length).toBeGreaterThan(200);

    const down = emu.context.db.prepare("SELECT id FROM sites WHERE name = ?").get(forced("failed")[0]!.name) as { id: string };
    const checks = (await api(emu, "GET", `/sites/${down.id}/health_checks`, { token: TOKENS.ownerB })).body;
    expect(checks[0]).toMatchObject({ status: "failed", http_status: 503 });
    await advanceClock(emu, 301);
    const after = fleetOf(emu).sites;
    expect(after.filter((s) => s.status === "down").map((s) => s.name)).toEqual(forced("failed").map((s) => s.name));
    expect(after.filter((s) => s.forced_health === "warning").every((s) => s.status === "degraded")).toBe(true);
  });

  it("gives each site the records its versions have, plugins and themes included, some dismissed by a person", async () => {
    const { sites, records } = fleetOf(emu);
    for (const site of sites) {
      const keys = records.filter((r) => r.name === site.name).map((r) => r.key);
      expect(keys, site.name).toEqual(
        affecting(site.wp_version, site.php_version)
          .map((e) => e.key)
          .sort(),
      );
    }
    const ignored = records.filter((r) => r.status === "ignored");
    expect(ignored.length).toBeGreaterThan(records.length * 0.04);
    expect(ignored.length).toBeLessThan(records.length * 0.2);
    expect(new Set(ignored.map((r) => r.reason)).size).toBeGreaterThan(1);
    // Through the API, as the CLI and the action read them.
    const page = (await api(emu, "GET", "/sites?per_page=100", { token: TOKENS.ownerB })).body as { id: string; wp_version: string }[];
    const old = page.find((s) => compareVersions(s.wp_version, "6.4") < 0 && compareVersions(s.wp_version, "6.2") >= 0)!;
    const body = (await api(emu, "GET", `/sites/${old.id}/vulnerability_records`, { token: TOKENS.ownerB })).body as {
      software: { type: string };
      severity: string;
      status: string;
      dismissed_reason: string | null;
    }[];
    expect(body.map((r) => r.software.type)).toEqual(expect.arrayContaining(["core", "plugin"]));
    expect(body.some((r) => r.severity === "critical")).toBe(true);
    const types = new Set(records.map((r) => r.key.split("-")[0]));
    expect(types.has("twentytwentyfour")).toBe(true);
  });

  it("is the same fleet from the same seed value, and another from another", async () => {
    const again = await startTestEmulator({ seed: seedWith({ sites: SITES, spread: { seed: 7 }, account: "Account B" }) });
    const other = await startTestEmulator({ seed: seedWith({ sites: SITES, spread: { seed: 8 }, account: "Account B" }) });
    try {
      const before = fleetOf(await freshCopy());
      expect(fleetOf(again)).toEqual(before);
      expect(fleetOf(other).sites).not.toEqual(before.sites);
    } finally {
      await again.close();
      await other.close();
    }
  });

  /** This file's emulator, back to its seed (the test above advanced its clock). */
  async function freshCopy(): Promise<RunningEmulator> {
    await emu.reset();
    return emu;
  }
});

describe("seed generate without spread", () => {
  it("stays the tidy fleet: every site current, healthy, no records", async () => {
    const emu = await startTestEmulator({ seed: seedWith({ sites: 50 }) });
    try {
      const { sites, records } = fleetOf(emu);
      expect(new Set(sites.map((s) => `${s.wp_version}/${s.status}/${s.forced_health}`))).toEqual(new Set([`${CURRENT_WP_VERSION}/healthy/null`]));
      expect(records).toEqual([]);
    } finally {
      await emu.close();
    }
  });
});

describe("planSpread", () => {
  it("takes exactly the share of each kind of site, for any fleet size and shares", () => {
    const share = fc.double({ min: 0, max: 0.49, noNaN: true });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_000 }), fc.nat(), share, share, share, share, (count, seed, below, above, degraded, down) => {
        const plan = planSpread(count, { seed, below, above, degraded, down });
        const sites = Array.from({ length: count }, (_, i) => plan.site(i + 1));
        const n = (f: (s: (typeof sites)[number]) => boolean) => sites.filter(f).length;
        expect(n((s) => compareVersions(s.wp_version, CURRENT_WP_VERSION) < 0)).toBe(Math.round(count * below));
        expect(n((s) => s.wp_version === SPREAD_PRE_RELEASE_WP)).toBe(Math.round(count * above));
        expect(n((s) => s.health === "warning")).toBe(Math.round(count * degraded));
        expect(n((s) => s.health === "failed")).toBe(Math.round(count * down));
      }),
      { seed: 47, numRuns: 200 },
    );
  });
});

describe("seed generate spread validation", () => {
  it.each([
    [[], 'seed: generate.spread must be an object, e.g. {"seed": 1} ({} for every default)'],
    [{ seed: -1 }, "seed: generate.spread.seed must be an integer from 0 to 4294967295"],
    [{ seed: 1.5 }, "seed: generate.spread.seed must be an integer"],
    [{ below: 1.2 }, "seed: generate.spread.below must be a share from 0 to 1 (0.05 is 5 %)"],
    [{ down: "5%" }, "seed: generate.spread.down must be a share from 0 to 1"],
    [{ below: 0.9, above: 0.2 }, "seed: generate.spread.below and above together must be at most 1 (a site has one of them), got 1.1"],
    [{ degraded: 0.99 }, "seed: generate.spread.degraded and down together must be at most 1"],
    [{ vulnerable: 0.3 }, "seed: generate.spread.vulnerable is not a known field (seed, below, above, degraded, down, dismissed)"],
  ] as [unknown, string][])("refuses %j", (spread, message) => {
    expect(() => validateSeed(seedWith({ sites: 10, spread: spread as SeedSpread }))).toThrow(message);
  });

  it("names spread among generate's fields", () => {
    expect(() => validateSeed(seedWith({ sites: 10, spreads: {} }))).toThrow(
      "seed: generate.spreads is not a known field (sites, snapshots_per_site, account, spread)",
    );
  });
});
