// Issue 17 items 2 (emulator half) and 6: free text with control characters is refused with a 422 on the
// field (a site named "evil\n::warning ..." could forge lines in a workflow log), site URLs are compared
// normalised for uniqueness, and a provider diagnostic ends with one period even when the API's did.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as core from "../../src/index.js";
import type { RunningEmulator } from "../../emulator/index.js";
import { ApiErrors } from "../../provider/api-errors.js";
import { Diagnostics } from "../../provider/framework/diagnostics.js";
import { PASSWORD, TOKENS, USERS, api, startTestEmulator } from "../emulator/helpers.js";

let emu: RunningEmulator;
let siteId: string;
beforeAll(async () => {
  emu = await startTestEmulator();
  const site = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Blog", url: "https://blog.acme.test", wp_version: "6.2" } });
  expect(site.status).toBe(201);
  siteId = site.body.id;
});
afterAll(async () => emu?.close());

const CONTROL = [
  ["a newline and workflow commands", "evil\n::warning title=injected::INJECTED\n::add-mask::Acme"],
  ["a carriage return", "a\rb"],
  ["NUL", "a\u0000b"],
  ["a tab", "a\tb"],
  ["ESC (terminal escapes)", "\u001b[31mred"],
  ["DEL", "a\u007fb"],
  ["a C1 control (NEL)", "a\u0085b"],
  ["a line separator", "a\u2028b"],
] as const;
const REFUSED = ["must not contain control characters"];

describe("control characters in free text: 422 on the field, nothing stored", () => {
  it.each(CONTROL)("site name with %s (create and update)", async (_what, text) => {
    const created = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: text, url: "https://evil.example.com" } });
    expect(created.status).toBe(422);
    expect(created.body.errors).toEqual({ name: REFUSED });
    const patched = await api(emu, "PATCH", `/sites/${siteId}`, { token: TOKENS.owner, body: { name: text } });
    expect(patched.status).toBe(422);
    expect(patched.body.errors).toEqual({ name: REFUSED });
    expect((await api(emu, "GET", `/sites/${siteId}`, { token: TOKENS.owner })).body.name).toBe("Blog");
  });

  it("snapshot description, webhook description, approval comment, dismissal comment, token name", async () => {
    const text = CONTROL[0][1];
    const snap = await api(emu, "POST", `/sites/${siteId}/snapshots`, { token: TOKENS.owner, body: { description: text } });
    expect([snap.status, snap.body.errors]).toEqual([422, { description: REFUSED }]);

    const hook = await api(emu, "POST", "/webhook_endpoints", { token: TOKENS.owner, body: { url: "https://hooks.example.com/x", description: text } });
    expect([hook.status, hook.body.errors]).toEqual([422, { description: REFUSED }]);

    const pipe = await api(emu, "POST", `/sites/${siteId}/upgrade_pipelines`, { token: TOKENS.owner, body: { to_wp_version: "6.4" } });
    expect(pipe.status).toBe(201);
    const approve = await api(emu, "POST", `/sites/${siteId}/upgrade_pipelines/${pipe.body.id}/approve`, { token: TOKENS.owner, body: { comment: text } });
    expect([approve.status, approve.body.errors]).toEqual([422, { comment: REFUSED }]);

    const vulns = await api(emu, "GET", `/sites/${siteId}/vulnerability_records`, { token: TOKENS.owner });
    const record = vulns.body[0];
    const dismiss = await api(emu, "PATCH", `/sites/${siteId}/vulnerability_records/${record.id}`, {
      token: TOKENS.owner,
      body: { status: "ignored", dismissed_reason: "tolerable_risk", dismissed_comment: text },
    });
    expect([dismiss.status, dismiss.body.errors]).toEqual([422, { dismissed_comment: REFUSED }]);

    const token = await api(emu, "POST", "/auth", { body: { email: USERS.owner, password: PASSWORD, name: text } });
    expect([token.status, token.body.errors]).toEqual([422, { name: REFUSED }]);
  });

  it("ordinary text, accents and emoji included, is kept as typed", async () => {
    const name = "Café Ünïcode — shop 🛒 (2024) ::not-a-command::";
    const res = await api(emu, "PATCH", `/sites/${siteId}`, { token: TOKENS.owner, body: { name } });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe(name);
  });

  it("a seed with a control character in a name is refused before anything is written", async () => {
    await expect(
      startTestEmulator({ seed: { accounts: [{ name: "Evil\nCorp", users: [{ email: "e@x.example", password: PASSWORD, name: "E", role: "owner" }] }] } }),
    ).rejects.toThrow("seed: accounts[0].name must not contain control characters");
  });
});

describe("site URLs are compared normalised", () => {
  it.each(["HTTPS://BLOG.ACME.TEST", "https://blog.acme.test/", "https://Blog.Acme.Test:443", "https://blog.acme.test:443/"])(
    "%s is the same site as https://blog.acme.test",
    async (url) => {
      const res = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Twin", url } });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ url: ["has already been taken"] });
    },
  );

  it("an update onto another site's URL, spelled differently, is refused too", async () => {
    const shop = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Shop", url: "https://shop.acme.test" } });
    expect(shop.status).toBe(201);
    const moved = await api(emu, "PATCH", `/sites/${shop.body.id}`, { token: TOKENS.owner, body: { url: "HTTPS://blog.ACME.test/" } });
    expect([moved.status, moved.body.errors]).toEqual([422, { url: ["has already been taken"] }]);
    // Its own URL in another spelling is no conflict.
    expect((await api(emu, "PATCH", `/sites/${shop.body.id}`, { token: TOKENS.owner, body: { url: "https://SHOP.acme.test/" } })).status).toBe(200);
  });

  it("a different path, port or scheme is another site; the URL is stored as typed", async () => {
    for (const url of ["https://blog.acme.test/de", "https://blog.acme.test:8443", "http://blog.acme.test"]) {
      const res = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Other", url } });
      expect(res.status).toBe(201);
      expect(res.body.url).toBe(url);
    }
  });

  // [what, one spelling, another] of a host; each pair is tried in both orders, on hosts of its own.
  const SPELLINGS: [string, (host: string) => string, (host: string) => string][] = [
    ["a unicode host and its punycode", (h) => `https://bücher.${h}`, (h) => new URL(`https://bücher.${h}/`).href],
    ["a non-ASCII letter's case", (h) => `https://BÜCHER.${h}`, (h) => `https://bücher.${h}`],
    ["a trailing dot", (h) => `https://blog.${h}.`, (h) => `https://blog.${h}`],
    ["a default port, case and a trailing slash", (h) => `HTTPS://Blog.${h.toUpperCase()}:443/`, (h) => `https://blog.${h}`],
    ["a percent-encoded letter of the host", (h) => `https://%62log.${h}`, (h) => `https://blog.${h}`],
  ];
  it.each(
    SPELLINGS.flatMap(([what, a, b], i) => [
      [what, a(`first${i}.test`), b(`first${i}.test`)],
      [what, b(`second${i}.test`), a(`second${i}.test`)],
    ]),
  )("%s: %s, then %s, is one site whichever came first", async (_what, first, second) => {
    expect((await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "First", url: first } })).status).toBe(201);
    const res = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Second", url: second } });
    expect([res.status, res.body.errors]).toEqual([422, { url: ["has already been taken"] }]);
  });

  it("a site's URL, once changed or deleted, is free; its new one is taken", async () => {
    const post = async (url: string) => api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Moving", url } });
    const site = (await post("https://before.moving.test")).body;
    expect((await api(emu, "PATCH", `/sites/${site.id}`, { token: TOKENS.owner, body: { url: "https://after.moving.test" } })).status).toBe(200);
    expect((await post("HTTPS://AFTER.moving.test/")).status).toBe(422);
    const other = await post("https://before.moving.test/");
    expect(other.status).toBe(201);
    expect((await api(emu, "DELETE", `/sites/${site.id}`, { token: TOKENS.owner })).status).toBe(204);
    expect((await post("https://after.moving.test")).status).toBe(201);
    expect((await post("https://before.moving.test")).status).toBe(422);
  });

  it("another account may use the same URL", async () => {
    expect((await api(emu, "POST", "/sites", { token: TOKENS.ownerB, body: { name: "B blog", url: "HTTPS://BLOG.ACME.TEST/" } })).status).toBe(201);
  });
});

describe("provider diagnostics", () => {
  it("end with one period after the API's own ('before continuing.', not '..')", () => {
    const errors = new ApiErrors(core, "api_token in the provider configuration");
    const diags = new Diagnostics();
    const err = core.APIError.generate(401, { error: "You need to sign in or sign up before continuing." }, {});
    errors.report(err, diags, { action: "read the site" });
    expect(diags.items[0]!.summary).toBe(
      "SiteOps rejected the credentials from api_token in the provider configuration: You need to sign in or sign up before continuing.",
    );
    const other = new Diagnostics();
    errors.report(core.APIError.generate(409, { error: "Conflict." }, { "x-request-id": "req_1" }), other, { action: "create the site" });
    expect(other.items[0]!.detail).toBe("SiteOps answered 409: Conflict (request id req_1).");
  });
});
