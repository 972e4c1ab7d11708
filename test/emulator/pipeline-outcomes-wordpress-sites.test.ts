// The loopback WordPress sites of test/support/wordpress-sites.ts: the emulator takes their URLs as sites' URLs
// (seeded and created, both profiles), and each answers as its behaviour says (per site, per path, changed on
// the fly), recording what it was asked.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { startSeededEmulator } from "../support/emulator.js";
import { FATAL_ERROR_PAGE, startWordPressSite, startWordPressSites, type WordPressSites } from "../support/wordpress-sites.js";
import { TOKENS, api, standardSeed, startTestEmulator } from "./helpers.js";

const CRITICAL = "There has been a critical error on this website.";
let sites: WordPressSites;

beforeAll(async () => {
  sites = await startWordPressSites(["healthy", "fatal", "error500", "slow"]);
});

afterAll(async () => {
  await sites?.close();
});

const get = async (url: string, init: RequestInit = {}) => {
  const res = await fetch(url, init);
  return { status: res.status, body: await res.text() };
};

describe("the emulator", () => {
  it("takes the sites' loopback URLs as sites' URLs, seeded and created", async () => {
    const seed = standardSeed();
    seed.accounts[0]!.sites = sites.seedSites("Shop").slice(0, 3);
    const emu: RunningEmulator = await startSeededEmulator(seed);
    try {
      const listed = await api(emu, "GET", "/sites?per_page=100", { token: TOKENS.owner });
      expect(listed.body.map((s: { name: string; url: string; wp_version: string }) => [s.name, s.url, s.wp_version])).toEqual(
        sites.slice(0, 3).map((s, i) => [`Shop ${i + 1}`, s.url, "6.5"]),
      );
      const created = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: sites.seedSites("Shop")[3] });
      expect([created.status, created.body.url]).toEqual([201, sites[3]!.url]);
    } finally {
      await emu.close();
    }
    const minimal = await startTestEmulator({ profile: "minimal" });
    try {
      const created = await api(minimal, "POST", "/sites", { token: TOKENS.owner, body: sites.seedSites()[0] });
      expect([created.status, created.body.url]).toEqual([201, `${sites[0]!.url}/`]);
    } finally {
      await minimal.close();
    }
  });
});

describe("the sites", () => {
  it("answer as their behaviour: a front page, the fatal-error page with 200, the same page with 500", async () => {
    const healthy = await get(`${sites[0]!.url}/`);
    expect(healthy.status).toBe(200);
    expect(healthy.body).toContain('<meta name="generator" content="WordPress 6.8" />');
    expect(healthy.body).not.toContain("critical error");
    expect(await get(sites[1]!.url)).toEqual({ status: 200, body: FATAL_ERROR_PAGE });
    expect(FATAL_ERROR_PAGE).toContain(`<div class="wp-die-message"><p>${CRITICAL}</p>`);
    expect(await get(`${sites[2]!.url}/shop`)).toEqual({ status: 500, body: FATAL_ERROR_PAGE });
  });

  it("a slow site holds its answer back past a client's budget, and close() ends the wait", async () => {
    await expect(fetch(sites[3]!.url, { signal: AbortSignal.timeout(100) })).rejects.toThrow(/abort|timeout/i);
    const quick = await startWordPressSite({ behaviour: "slow", slowMs: 0 });
    expect((await get(quick.url)).status).toBe(200);
    const held = await startWordPressSite({ behaviour: "slow" });
    const waiting = fetch(held.url).then(
      () => "answered",
      () => "connection ended",
    );
    while (held.requests.length === 0) await new Promise((r) => setTimeout(r, 10)); // the request has arrived
    await held.close();
    await quick.close();
    expect(await waiting).toBe("connection ended");
  });

  it("take per-path behaviours and changes from the next request, and record what they were asked", async () => {
    const site = await startWordPressSite({ paths: { "/shop": "fatal" }, wpVersion: "6.9" });
    try {
      expect((await get(`${site.url}/`)).body).toContain("WordPress 6.9");
      expect((await get(`${site.url}/shop?add-to-cart=1`)).body).toContain(CRITICAL);
      site.behaviour = "error500";
      expect((await get(`${site.url}/`)).status).toBe(500);
      site.paths.delete("/shop");
      const head = await fetch(`${site.url}/shop`, { method: "HEAD" });
      expect([head.status, await head.text()]).toEqual([500, ""]);
      expect(site.requests).toEqual([
        { method: "GET", path: "/" },
        { method: "GET", path: "/shop?add-to-cart=1" },
        { method: "GET", path: "/" },
        { method: "HEAD", path: "/shop" },
      ]);
    } finally {
      await site.close();
    }
  });
});
