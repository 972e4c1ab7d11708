// The seed's `generate` shorthand: a fleet of sites (and snapshots) in the named account, shaped as if each
// site had been created and checked, in the API's listing order; and one precise message for each bad field.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator, SeedFile } from "../../emulator/index.js";
import { validateSeed } from "../../emulator/seed.js";
import { generatedSite } from "../../emulator/services/fleet.js";
import { TOKENS, advanceClock, api, standardSeed, startTestEmulator } from "./helpers.js";

const SITES = 250;

function seedWith(generate: unknown, sites?: { name: string; url: string }[]): SeedFile {
  const seed = standardSeed();
  if (sites) seed.accounts[1]!.sites = sites;
  return { ...seed, generate } as SeedFile;
}

describe("seed generate", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({
      seed: seedWith({ sites: SITES, snapshots_per_site: 3, account: "Account B" }, [{ name: "Own", url: "https://own.example" }]),
    });
  });
  afterAll(() => emu?.close());

  it("puts numbered sites into the named account after its own, in listing order", async () => {
    const first = await api(emu, "GET", "/sites?per_page=100", { token: TOKENS.ownerB });
    expect(first.headers.get("total-count")).toBe(String(SITES + 1));
    expect(first.headers.get("total-pages")).toBe("3");
    expect(first.body[0].name).toBe("Own");
    expect(first.body[1]).toMatchObject({ name: "Site 00001", url: "https://site-00001.fleet.test", status: "healthy" });
    const last = await api(emu, "GET", "/sites?per_page=100&page=3", { token: TOKENS.ownerB });
    expect(last.body.map((s: { name: string }) => s.name).slice(-2)).toEqual(["Site 00249", "Site 00250"]);
    expect((await api(emu, "GET", "/sites", { token: TOKENS.owner })).headers.get("total-count")).toBe("0");
  });

  it("gives each site a passed check, completed snapshots a day apart, and its creation in the log", async () => {
    // The last site of the fleet: its second check comes due one interval (300 s) after the start. The first
    // generated site's comes due 1.2 s after it on the real clock, so on a loaded machine it had had its second
    // check by the time this test read its checks (`expected [ {…}, {…} ] to have a length of 1 but got 2`).
    const site = (await api(emu, "GET", `/sites?per_page=1&page=${SITES + 1}`, { token: TOKENS.ownerB })).body[0];
    expect(site.name).toBe(`Site 00${SITES}`);
    const checks = (await api(emu, "GET", `/sites/${site.id}/health_checks`, { token: TOKENS.ownerB })).body;
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ status: "passed", http_status: 200, wp_version: site.wp_version });
    expect(checks[0].checks.find((c: { test: string }) => c.test === "http_requests").description).toContain(site.url);

    const snaps = (await api(emu, "GET", `/sites/${site.id}/snapshots`, { token: TOKENS.ownerB })).body;
    expect(snaps.map((s: { status: string; trigger: string }) => `${s.status}/${s.trigger}`)).toEqual(Array(3).fill("completed/scheduled"));
    const times = snaps.map((s: { created_at: string }) => Date.parse(s.created_at));
    expect(times[0] - times[1]).toBe(24 * 3600 * 1000); // newest first, one day apart
    expect(Date.parse(site.created_at)).toBeLessThan(times[2]);
    expect(snaps[0].checksum_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(snaps[0].size_bytes).toBeGreaterThan(0);

    const log = await api(emu, "GET", `/activity_logs?site_id=${site.id}`, { token: TOKENS.ownerB });
    expect(log.body.map((e: { action: string }) => e.action)).toEqual(["site.created"]);
  });

  it("keeps the account's URLs unique and the fleet checked on schedule", async () => {
    const taken = await api(emu, "POST", "/sites", { token: TOKENS.ownerB, body: { name: "Again", url: "https://SITE-00007.fleet.test/" } });
    expect(taken.status).toBe(422);
    expect(taken.body.errors.url).toContain("has already been taken");
    // Checks come due spread over one interval (300 s), not all in one tick; after it, each site has had its second.
    const due = emu.context.db
      .prepare("SELECT MIN(next_health_check_ms) AS lo, MAX(next_health_check_ms) AS hi FROM sites WHERE url LIKE '%.fleet.test'")
      .get() as { lo: number; hi: number };
    expect(due.hi - due.lo).toBeGreaterThan(290_000);
    await advanceClock(emu, 301);
    const fewest = emu.context.db
      .prepare(
        "SELECT MIN(n) AS n FROM (SELECT COUNT(h.id) AS n FROM sites s LEFT JOIN health_checks h ON h.site_id = s.id WHERE s.url LIKE '%.fleet.test' GROUP BY s.id)",
      )
      .get() as { n: number };
    expect(fewest.n).toBe(2);
  });

  it("is applied again by a reset", async () => {
    expect((await api(emu, "POST", "/__emulator/reset")).status).toBeLessThan(300);
    expect((await api(emu, "GET", "/sites?per_page=1", { token: TOKENS.ownerB })).headers.get("total-count")).toBe(String(SITES + 1));
  });
});

describe("seed generate names", () => {
  it("pads to five digits, more for larger fleets", () => {
    expect(generatedSite(1, 10_000)).toEqual({ name: "Site 00001", url: "https://site-00001.fleet.test" });
    expect(generatedSite(100_000, 100_000)).toEqual({ name: "Site 100000", url: "https://site-100000.fleet.test" });
    expect(generatedSite(7, 100_000).name).toBe("Site 000007");
  });
});

describe("seed generate validation", () => {
  it.each([
    [[], "seed: generate must be an object"],
    [{ sites: -1 }, "seed: generate.sites must be an integer from 0 to 1000000"],
    [{ sites: 1.5 }, "seed: generate.sites must be an integer"],
    [{ sites: "10" }, "seed: generate.sites must be an integer"],
    [{}, "seed: generate.sites must be an integer"],
    [{ sites: 10, snapshots_per_site: 1001 }, "seed: generate.snapshots_per_site must be an integer from 0 to 1000"],
    [{ sites: 10, account: "Nope" }, 'seed: generate.account must be the name of an account of this seed (not "Nope")'],
    [{ sites: 10, account: 3 }, "seed: generate.account must be the name of an account of this seed"],
    [{ sites: 10, site: 3 }, "seed: generate.site is not a known field (sites, snapshots_per_site, account, spread)"],
  ])("refuses %j", (generate, message) => {
    expect(() => validateSeed(seedWith(generate))).toThrow(message);
  });

  it("refuses a seed site on a URL the fleet generates, by its path", () => {
    expect(() => validateSeed(seedWith({ sites: 10, account: "Account B" }, [{ name: "X", url: "https://Site-00010.fleet.test/" }]))).toThrow(
      "seed: accounts[1].sites[0].url is also generated by generate (site 10); pick another URL",
    );
    expect(() => validateSeed(seedWith({ sites: 10, account: "Account B" }, [{ name: "X", url: "https://site-00011.fleet.test" }]))).not.toThrow();
  });

  it("needs an account to fill", () => {
    expect(() => validateSeed({ accounts: [], generate: { sites: 1 } })).toThrow("seed: generate.account needs an account: accounts is empty");
  });

  it("fails the start before anything is written", async () => {
    await expect(startTestEmulator({ seed: seedWith({ sites: 10, snapshots_per_site: -1 }) })).rejects.toThrow("generate.snapshots_per_site");
  });
});
