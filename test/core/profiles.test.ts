// The library's journeys (issue 36, item 6) against both emulator profiles: a server that pages by 5, ignores
// per_page and sends no pagination headers, issues 6-character ids, stores URLs normalised, answers 401 with
// HTML and deletes with empty 204s must look to a user of the library like the emulator the toolkit was built
// against. Each profile gets its own emulator with the 23-site fleet of profile-fleet.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROFILES } from "../support/emulator.js";
import { AuthenticationError, SiteOps } from "../../src/index.js";
import { describeError, lookupSites, selectSites, SiteSelectionError } from "../../src/fleet.js";
import { FLEET_EMAIL, FLEET_PASSWORD, FLEET_SIZE, LOOKALIKE, startProfileFleet, type ProfileFleet } from "./profile-fleet.js";

describe.each(PROFILES)("profile %s", (profile) => {
  let fx: ProfileFleet;
  beforeAll(async () => {
    fx = await startProfileFleet(profile);
  });
  afterAll(async () => {
    await fx?.close();
  });

  it("iterates every site, with or without a per_page the server may ignore", async () => {
    const iterated: string[] = [];
    for await (const s of fx.so.sites.list()) iterated.push(s.id);
    expect(iterated).toEqual(fx.sites.map((s) => s.id));
    const all = await fx.so.sites.list({ per_page: 100 }).toArray();
    expect(all.map((s) => s.id)).toEqual(fx.sites.map((s) => s.id));
    expect(all).toHaveLength(FLEET_SIZE);
    if (profile === "minimal") expect(all.every((s) => /^site_[A-Za-z0-9]{6}$/.test(s.id))).toBe(true);
  });

  it("selects all sites, by id (the 8th, on the second page of 5), by name, and a name shaped like an id", async () => {
    expect((await selectSites(fx.so, { all: true })).map((s) => s.id)).toEqual(fx.sites.map((s) => s.id));
    const eighth = fx.sites[7]!;
    expect(await selectSites(fx.so, { refs: [eighth.id] })).toEqual([eighth]);
    // More ids than are fetched one by one: answered from one listing of every page.
    const ids = [fx.sites[0]!.id, eighth.id, fx.sites[14]!.id, fx.sites[20]!.id];
    expect((await selectSites(fx.so, { refs: ids })).map((s) => s.id)).toEqual(ids);
    expect((await selectSites(fx.so, { refs: ["Site 19"] })).map((s) => s.url)).toEqual([fx.sites[18]!.url]);
    expect(await selectSites(fx.so, { refs: [LOOKALIKE] })).toEqual([fx.lookalike]);
    // Site 22 is named after Site 5's id: the id wins, then names.
    expect(await selectSites(fx.so, { refs: [fx.idOwner.id] })).toEqual([fx.idOwner]);
    const missing = await selectSites(fx.so, { refs: ["site_nothere1"] }).catch((err: unknown) => err);
    expect(missing).toBeInstanceOf(SiteSelectionError);
    expect((missing as Error).message).toBe(`no site with the id or exact name "site_nothere1" in this account (it has ${FLEET_SIZE} sites)`);
  });

  it("looks a site up by a URL spelt otherwise than the server stored it", async () => {
    const stored = fx.sites[2]!.url;
    expect(stored).toBe(profile === "minimal" ? "https://site-3.example.com/" : "https://site-3.example.com");
    expect(await lookupSites(fx.so, "url", "HTTPS://SITE-3.Example.com")).toEqual([fx.sites[2]]);
    expect(await lookupSites(fx.so, "url", "https://site-3.example.com:443/")).toEqual([fx.sites[2]]);
    expect(await lookupSites(fx.so, "url", "https://site-3.example.com/other")).toEqual([]);
  });

  it("turns a refused token into an AuthenticationError with a readable one-line message", async () => {
    const wrong = new SiteOps({ baseUrl: fx.url, apiToken: "sot_notAValidToken0000000001", maxRetries: 0 });
    try {
      const err = await wrong.sites
        .list()
        .toArray()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AuthenticationError);
      const auth = err as AuthenticationError;
      expect(auth.status).toBe(401);
      if (profile === "minimal") {
        expect(auth.headers["content-type"]).toMatch(/^text\/html/);
        expect(auth.message).toBe("401 HTTP Token: Access denied (the API token from apiToken was refused)");
      }
      for (const text of [auth.message, describeError(auth)]) {
        expect(text).toMatch(/^\S/);
        expect(text).not.toMatch(/[<>\n]/);
      }
      expect(describeError(auth)).toMatch(/\[HTTP 401, request req_\w+\]\.$/);
      expect(describeError(auth)).not.toContain("sot_notAValidToken");
    } finally {
      await wrong.close();
    }
  });

  it("creates a snapshot and waits for it to complete", async () => {
    const site = fx.sites[9]!;
    const snapshot = await fx.so.operations.createSnapshot(site.id, { trigger: "manual", pollInterval: 20 });
    expect(snapshot).toMatchObject({ site_id: site.id, status: "completed" });
    expect((await fx.so.snapshots.get(site.id, snapshot.id)).status).toBe("completed");
  });

  it("creates, updates and deletes a webhook endpoint (an empty 204 in minimal)", async () => {
    const created = await fx.so.webhookEndpoints.create({ url: "https://Hooks.Example.com/siteops", enabled_events: ["snapshot.completed"] });
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.enabled_events).toEqual(["snapshot.completed"]);
    const updated = await fx.so.webhookEndpoints.update(created.id, { description: "ops", enabled_events: ["*"] });
    expect(updated).toMatchObject({ id: created.id, description: "ops", enabled_events: ["*"] });
    await expect(fx.so.webhookEndpoints.delete(created.id)).resolves.toBeUndefined();
    await expect(fx.so.webhookEndpoints.get(created.id)).rejects.toMatchObject({ status: 404 });
  });

  it("logs in with a JWT, then revokes it (204 without a body in minimal)", async () => {
    const client = await SiteOps.login({ baseUrl: fx.url, email: FLEET_EMAIL, password: FLEET_PASSWORD });
    expect((await client.me()).email).toBe(FLEET_EMAIL);
    await expect(client.logout()).resolves.toBeUndefined();

    const tokens = await fx.so.auth.createJwt({ email: FLEET_EMAIL, password: FLEET_PASSWORD });
    const me = () => fetch(`${fx.url}/api/v1/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } }).then((r) => r.status);
    expect(await me()).toBe(200);
    await fx.so.auth.revokeJwt(tokens.access_token);
    expect(await me()).toBe(401);
  });
});
