// Issue 38 item 8: site URLs with userinfo (`https://user@H/blog`, `https://user:pw@H/blog`) were created
// beside `https://H/blog`, the password stored and printed back. Site URLs (API create and update, seed) and
// webhook endpoint URLs now refuse a user name or password with a 422 on the field; an `@` in the path or
// the query is no userinfo.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, api, standardSeed, startTestEmulator } from "../emulator/helpers.js";

const REFUSED = { url: ["must not contain a user name or password"] };
const WITH_USERINFO = [
  "https://user@blog.acme.test/blog",
  "https://user:pw@blog.acme.test/blog",
  "https://:pw@blog.acme.test/blog",
  "https://@blog.acme.test/blog",
  "https:user:pw@blog.acme.test/blog",
  "https:\\\\user:pw@blog.acme.test/blog",
];

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
  expect((await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Blog", url: "https://blog.acme.test/blog" } })).status).toBe(201);
});
afterAll(async () => emu?.close());

const sitesNamed = async (name: string): Promise<unknown[]> =>
  ((await api(emu, "GET", "/sites?per_page=100", { token: TOKENS.owner })).body as { name: string }[]).filter((s) => s.name === name);

describe("site URLs", () => {
  it.each(WITH_USERINFO)("POST /sites refuses %s (422 on url, nothing created)", async (url) => {
    const res = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Twin", url } });
    expect([res.status, res.body.errors]).toEqual([422, REFUSED]);
    expect(JSON.stringify(res.body)).not.toContain("pw");
    expect(await sitesNamed("Twin")).toEqual([]);
  });

  it("PATCH refuses a URL with a password and keeps the old one", async () => {
    const site = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Shop", url: "https://shop.acme.test" } });
    expect(site.status).toBe(201);
    const res = await api(emu, "PATCH", `/sites/${site.body.id}`, { token: TOKENS.owner, body: { url: "https://admin:hunter2@shop.acme.test" } });
    expect([res.status, res.body.errors]).toEqual([422, REFUSED]);
    expect((await api(emu, "GET", `/sites/${site.body.id}`, { token: TOKENS.owner })).body.url).toBe("https://shop.acme.test");
  });

  it("an @ in the path or the query is not userinfo", async () => {
    for (const url of ["https://at.acme.test/@team", "https://at.acme.test/?by=a@b.example"]) {
      expect((await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "At", url } })).status).toBe(201);
    }
  });

  it("a seed with such a site is refused", async () => {
    const seed = standardSeed();
    seed.accounts[0]!.sites = [{ name: "Seeded", url: "https://seed:secret@seeded.acme.test" }];
    await expect(startTestEmulator({ seed })).rejects.toThrow("Url must not contain a user name or password");
  });
});

describe("webhook endpoint URLs", () => {
  it.each(["https://user:pw@hooks.example.com/x", "https://token@hooks.example.com/x"])("POST refuses %s", async (url) => {
    const res = await api(emu, "POST", "/webhook_endpoints", { token: TOKENS.owner, body: { url } });
    expect([res.status, res.body.errors]).toEqual([422, REFUSED]);
  });

  it("PATCH refuses one too", async () => {
    const hook = await api(emu, "POST", "/webhook_endpoints", { token: TOKENS.owner, body: { url: "https://hooks.example.com/ok" } });
    expect(hook.status).toBe(201);
    const res = await api(emu, "PATCH", `/webhook_endpoints/${hook.body.id}`, { token: TOKENS.owner, body: { url: "https://user:pw@hooks.example.com/ok" } });
    expect([res.status, res.body.errors]).toEqual([422, REFUSED]);
  });
});
