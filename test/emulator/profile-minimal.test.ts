// The `minimal` profile (emulator/profile.ts): the emulator choosing otherwise wherever the spec says "not shown",
// one block per behaviour (pages of 5 without headers, short ids, normalized URLs, Rails' HTML 401, 429 without
// Retry-After, empty 204s, unknown extra fields, wrapped bodies), and `siteops emulator --profile`.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { ownerSeed, spawnEmulator, startSeededEmulator, type EmulatorProcess } from "../support/emulator.js";
import { CLI_FROM_SOURCE, ROOT } from "../support/paths.js";
import { collect } from "../support/processes.js";
import { PASSWORD, TOKENS, USERS, advanceClock, api, startTestEmulator } from "./helpers.js";

let emu: RunningEmulator;
const PAGE_HEADERS = ["link", "current-page", "page-limit", "total-pages", "total-count"];
const EXTRA = { tenant_region: "eu-west-1", schema_revision: 3 };
const owner = { token: TOKENS.owner };
const site = async (url: string, name = url): Promise<any> => {
  const res = await api(emu, "POST", "/sites", { ...owner, body: { name, url } });
  expect([url, res.status]).toEqual([url, 201]);
  return res.body;
};

beforeAll(async () => {
  emu = await startTestEmulator({ profile: "minimal" });
});
afterAll(async () => {
  await emu.close();
});

describe("1. pagination: 5 a page, per_page ignored, no pagination headers", () => {
  it("pages every list by 5 whatever per_page says, and ?page= as before", async () => {
    const ids: string[] = [];
    for (let i = 1; i <= 12; i++) ids.push((await site(`https://page-${i}.example.com`)).id);
    const walked: string[] = [];
    for (const page of [1, 2, 3]) {
      const res = await api(emu, "GET", `/sites?page=${page}&per_page=100`, owner);
      expect(res.status).toBe(200);
      walked.push(...res.body.map((s: { id: string }) => s.id));
      for (const h of PAGE_HEADERS) expect([h, res.headers.get(h)]).toEqual([h, null]);
    }
    expect(walked.filter((id) => ids.includes(id))).toEqual(ids); // oldest first, each once
    for (const perPage of ["1", "0", "-3", "abc", "1000"]) {
      const res = await api(emu, "GET", `/sites?per_page=${perPage}`, owner);
      expect([perPage, res.status, res.body.length]).toEqual([perPage, 200, 5]);
    }
    expect((await api(emu, "GET", "/sites?page=99", owner)).body).toEqual([]);
    expect((await api(emu, "GET", "/sites?page=0", owner)).status).toBe(400);
    expect((await api(emu, "GET", "/sites?page=abc", owner)).status).toBe(400);
    const activity = await api(emu, "GET", "/activity_logs?per_page=50", owner);
    expect([activity.body.length, activity.headers.get("link")]).toEqual([5, null]);
  });
});

describe("2. short ids", () => {
  it("issues prefix_ and 6 alphanumerics for every record; API tokens keep their shape", async () => {
    const s = await site("https://short.example.com");
    expect(s.id).toMatch(/^site_[A-Za-z0-9]{6}$/);
    const snap = await api(emu, "POST", `/sites/${s.id}/snapshots`, { ...owner, body: {} });
    expect(snap.body.id).toMatch(/^snap_[A-Za-z0-9]{6}$/);
    expect((await api(emu, "GET", `/sites/${s.id}/health_checks`, owner)).body[0].id).toMatch(/^hc_[A-Za-z0-9]{6}$/);
    expect((await api(emu, "GET", "/activity_logs", owner)).body[0].id).toMatch(/^act_[A-Za-z0-9]{6}$/);
    expect((await api(emu, "GET", "/me", owner)).body).toMatchObject({ id: expect.stringMatching(/^usr_[A-Za-z0-9]{6}$/) });
    expect((await api(emu, "GET", "/accounts", owner)).body[0].id).toMatch(/^acct_[A-Za-z0-9]{6}$/);
    const login = await api(emu, "POST", "/auth", { body: { email: USERS.admin, password: PASSWORD } });
    expect(login.body.token).toMatch(/^sot_[A-Za-z0-9]{40}$/);
    // The shape check takes any length: a well-formed unknown id is a lookup and a 404.
    for (const id of ["site_a", "site_zzzzzz", `site_${"z".repeat(40)}`, "site_", `site_${"z".repeat(60)}`]) {
      expect([id, (await api(emu, "GET", `/sites/${id}`, owner)).body]).toEqual([id, { error: "Record not found" }]);
    }
  });
});

describe("3. site and webhook URLs are normalized", () => {
  it("stores and returns the WHATWG serialization with unreserved escapes of the path decoded", async () => {
    const created = await site("https://TF-One.Example.org");
    expect(created.url).toBe("https://tf-one.example.org/");
    expect((await api(emu, "GET", `/sites/${created.id}`, owner)).body.url).toBe("https://tf-one.example.org/");
    expect((await site("HTTP://Blog.Example.COM:80/%7Ejane/a%2Fb?x=1")).url).toBe("http://blog.example.com/~jane/a%2Fb?x=1");
    // One URL however it is spelled: the uniqueness key is unchanged.
    const again = await api(emu, "POST", "/sites", { ...owner, body: { name: "Again", url: "https://tf-one.example.org." } });
    expect([again.status, again.body.errors]).toEqual([422, { url: ["has already been taken"] }]);
    const patched = await api(emu, "PATCH", `/sites/${created.id}`, { ...owner, body: { url: "https://TF-Two.example.org:443/%41dmin" } });
    expect(patched.body.url).toBe("https://tf-two.example.org/Admin");
    const hook = await api(emu, "POST", "/webhook_endpoints", { ...owner, body: { url: "HTTPS://Hooks.Example.COM:443/%7Ein", status: "disabled" } });
    expect([hook.status, hook.body.url]).toEqual([201, "https://hooks.example.com/~in"]);
    const hookPatched = await api(emu, "PATCH", `/webhook_endpoints/${hook.body.id}`, { ...owner, body: { url: "https://HOOKS.example.com" } });
    expect(hookPatched.body.url).toBe("https://hooks.example.com/");
  });

  it("normalizes seeded and generated sites too", async () => {
    const seed = ownerSeed("Seeded", TOKENS.ownerB);
    seed.accounts[0]!.sites = [{ name: "Seeded", url: "HTTPS://Seeded.Example.COM:443" }];
    const seeded = await startSeededEmulator({ ...seed, generate: { sites: 1 } }, { profile: "minimal" });
    try {
      const urls = (await api(seeded, "GET", "/sites", { token: TOKENS.ownerB })).body.map((s: { url: string }) => s.url);
      expect(urls).toEqual(["https://seeded.example.com/", "https://site-00001.fleet.test/"]);
    } finally {
      await seeded.close();
    }
  });
});

describe("4. missing or invalid credentials: Rails' HTML 401; the spec'd errors stay JSON", () => {
  it("answers every authenticated endpoint with text/html `HTTP Token: Access denied.`", async () => {
    const cases: [string, string, string | undefined][] = [
      ["GET", "/sites", undefined],
      ["GET", "/me", "token sot_notAValidTokenAtAll0000"],
      ["GET", "/sites/site_abcdef", "Bearer not.a.jwt"],
      ["DELETE", "/auth", undefined],
      ["POST", "/jwt/revoke", undefined],
    ];
    for (const [method, path, authorization] of cases) {
      const res = await api(emu, method, path, { headers: authorization ? { authorization } : {} });
      expect([method, path, res.status, res.headers.get("content-type"), res.text]).toEqual([
        method,
        path,
        401,
        "text/html; charset=utf-8",
        "HTTP Token: Access denied.\n",
      ]);
      expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    }
  });

  it("keeps the JSON errors of the spec: a wrong login, otp_attempt_required, Record not found", async () => {
    const wrong = await api(emu, "POST", "/jwt", { body: { email: USERS.owner, password: "wrong password" } });
    expect([wrong.status, wrong.headers.get("content-type"), wrong.body]).toEqual([
      401,
      "application/json; charset=utf-8",
      { error: "Invalid email or password" },
    ]);
    const otp = await api(emu, "POST", "/jwt", { body: { email: USERS.twoFactor, password: PASSWORD } });
    expect([otp.status, otp.body]).toEqual([422, { error: "otp_attempt_required" }]);
    const missing = await api(emu, "GET", "/sites/site_abcdef", owner);
    expect([missing.status, missing.body]).toEqual([404, { error: "Record not found" }]);
    const refresh = await api(emu, "POST", "/jwt/refresh", { body: { refresh_token: "sor_unknown" } });
    expect([refresh.status, typeof refresh.body.error]).toEqual([401, "string"]); // a public endpoint: JSON
  });
});

describe("5. 429 without Retry-After or RateLimit-* headers", () => {
  it("limits as configured and says nothing of when to come back", async () => {
    const limited = await startTestEmulator({ profile: "minimal", rateLimit: { limit: 2, windowSeconds: 60 }, loginThrottle: null });
    try {
      for (let i = 0; i < 2; i++) {
        const res = await api(limited, "GET", "/me", owner);
        expect(res.status).toBe(200);
        expect([...res.headers.keys()].filter((h) => h.startsWith("ratelimit-"))).toEqual([]);
      }
      const res = await api(limited, "GET", "/sites", owner);
      expect([res.status, res.headers.get("content-type"), res.body]).toEqual([
        429,
        "application/json; charset=utf-8",
        { error: expect.stringMatching(/^Rate limit exceeded\. Try again in \d+ seconds\.$/) },
      ]);
      expect([...res.headers.keys()].filter((h) => h === "retry-after" || h.startsWith("ratelimit-"))).toEqual([]);
      await advanceClock(limited, 60);
      expect((await api(limited, "GET", "/me", owner)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it("throttles failed logins the same way", async () => {
    const throttled = await startTestEmulator({ profile: "minimal", loginThrottle: { perUser: 2, perAddress: 50, windowSeconds: 900 } });
    try {
      const attempt = () => api(throttled, "POST", "/jwt", { body: { email: USERS.admin, password: "nope nope" } });
      expect([(await attempt()).status, (await attempt()).status]).toEqual([401, 401]);
      const res = await attempt();
      expect([res.status, res.headers.get("retry-after"), res.body.error]).toEqual([429, null, expect.stringMatching(/^Too many failed login attempts/)]);
    } finally {
      await throttled.close();
    }
  });
});

describe("6. empty 204s", () => {
  it("answers every successful DELETE, the revoke and the logout 204 with no body and no Content-Type", async () => {
    const s = await site("https://deleted.example.com");
    const snap = (await api(emu, "POST", `/sites/${s.id}/snapshots`, { ...owner, body: {} })).body;
    const hook = (await api(emu, "POST", "/webhook_endpoints", { ...owner, body: { url: "https://gone.example.com/in", status: "disabled" } })).body;
    const signIn = async () => (await api(emu, "POST", "/jwt", { body: { email: USERS.owner, password: PASSWORD } })).body;
    const [jwt, other] = [await signIn(), await signIn()];
    const revoke = { token: `Bearer ${jwt.access_token}`, body: { token: other.refresh_token }, headers: { "idempotency-key": "revoke-1" } };
    const apiToken = (await api(emu, "POST", "/auth", { body: { email: USERS.owner, password: PASSWORD } })).body.token;
    const calls: [string, string, { token: string; body?: unknown; headers?: Record<string, string> }][] = [
      ["DELETE", `/sites/${s.id}/snapshots/${snap.id}`, owner],
      ["DELETE", `/webhook_endpoints/${hook.id}`, owner],
      ["DELETE", `/sites/${s.id}`, owner],
      ["POST", "/jwt/revoke", revoke],
      ["POST", "/jwt/revoke", revoke], // replayed
      ["DELETE", "/auth", { token: apiToken }],
    ];
    for (const [method, path, opts] of calls) {
      const res = await api(emu, method, path, opts);
      expect([method, path, res.status, res.text, res.headers.get("content-type"), res.headers.get("content-length")]).toEqual([
        method,
        path,
        204,
        "",
        null,
        null,
      ]);
    }
  });
});

describe("7. unknown extra fields on every resource object", () => {
  it("adds tenant_region, links.self and schema_revision to records, lists, /me and the JWT answers, not to errors", async () => {
    const s = await site("https://extra.example.com");
    expect(s).toMatchObject({ ...EXTRA, links: { self: `/api/v1/sites/${s.id}` }, url: "https://extra.example.com/" });
    const list = (await api(emu, "GET", "/sites", owner)).body;
    for (const item of list) expect(item).toMatchObject({ ...EXTRA, links: { self: `/api/v1/sites/${item.id}` } });
    const snap = (await api(emu, "POST", `/sites/${s.id}/snapshots`, { ...owner, body: {} })).body;
    expect(snap.links.self).toBe(`/api/v1/sites/${s.id}/snapshots/${snap.id}`);
    expect((await api(emu, "GET", `/sites/${s.id}/snapshots/${snap.id}`, owner)).body).toMatchObject({ ...EXTRA, status: "completed" });
    expect((await api(emu, "GET", "/me", owner)).body).toMatchObject({ ...EXTRA, links: { self: "/api/v1/me" }, email: USERS.owner });
    const login = await api(emu, "POST", "/jwt", { body: { email: USERS.owner, password: PASSWORD } });
    expect(login.body).toMatchObject({ ...EXTRA, token_type: "Bearer", expires_in: 900, access_token: expect.any(String) });
    const refreshed = await api(emu, "POST", "/jwt/refresh", { body: { refresh_token: login.body.refresh_token } });
    expect(refreshed.body).toMatchObject({ ...EXTRA, token_type: "Bearer", refresh_token: expect.stringMatching(/^sor_/) });
    const invalid = await api(emu, "POST", "/sites", { ...owner, body: { name: "", url: "nope" } });
    expect(Object.keys(invalid.body).sort()).toEqual(["error", "errors"]);
    expect((await api(emu, "GET", "/sites/site_nope00", owner)).body).toEqual({ error: "Record not found" });
  });
});

describe("8. Rails-wrapped request bodies", () => {
  it("takes {site: {...}}, {webhook_endpoint: ...}, {snapshot: ...}, {upgrade_pipeline: ...}, {vulnerability_record: ...}", async () => {
    const created = await api(emu, "POST", "/sites", { ...owner, body: { site: { name: "Wrapped", url: "https://wrapped.example.com", wp_version: "6.2" } } });
    expect(created.body).toMatchObject({ name: "Wrapped", wp_version: "6.2" });
    const id = created.body.id;
    expect((await api(emu, "PATCH", `/sites/${id}`, { ...owner, body: { site: { name: "Rewrapped" } } })).body.name).toBe("Rewrapped");
    const hook = await api(emu, "POST", "/webhook_endpoints", {
      ...owner,
      body: { webhook_endpoint: { url: "https://w.example.com/in", status: "disabled" } },
    });
    expect(hook.status).toBe(201);
    const patchedHook = await api(emu, "PATCH", `/webhook_endpoints/${hook.body.id}`, { ...owner, body: { webhook_endpoint: { description: "wrapped" } } });
    expect(patchedHook.body.description).toBe("wrapped");
    const snap = await api(emu, "POST", `/sites/${id}/snapshots`, { ...owner, body: { snapshot: { description: "wrapped snapshot" } } });
    expect([snap.status, snap.body.description]).toEqual([201, "wrapped snapshot"]);
    const record = (await api(emu, "GET", `/sites/${id}/vulnerability_records?status=open`, owner)).body[0];
    const body = { vulnerability_record: { status: "ignored", dismissed_reason: "tolerable_risk" } };
    const dismissed = await api(emu, "PATCH", `/sites/${id}/vulnerability_records/${record.id}`, { ...owner, body });
    expect(dismissed.body).toMatchObject({ status: "ignored", dismissed_reason: "tolerable_risk" });
    const pipeline = await api(emu, "POST", `/sites/${id}/upgrade_pipelines`, { ...owner, body: { upgrade_pipeline: { to_wp_version: "6.9" } } });
    expect([pipeline.status, pipeline.body.to_wp_version]).toEqual([201, "6.9"]);
    const approved = await api(emu, "POST", `/sites/${id}/upgrade_pipelines/${pipeline.body.id}/approve`, {
      ...owner,
      body: { upgrade_pipeline: { comment: "wrapped approval" } },
    });
    expect([approved.status, approved.body.comment]).toEqual([200, "wrapped approval"]);
    // Flat bodies still work; a wrapper beside other keys is not one.
    expect((await api(emu, "PATCH", `/sites/${id}`, { ...owner, body: { name: "Flat" } })).body.name).toBe("Flat");
    const mixed = await api(emu, "POST", "/sites", { ...owner, body: { site: { name: "X", url: "https://x.example.com" }, extra: 1 } });
    expect([mixed.status, Object.keys(mixed.body.errors).sort()]).toEqual([422, ["name", "url"]]);
  });

  it("honours Idempotency-Key: the replay is the first answer, extra fields included", async () => {
    const headers = { "idempotency-key": "wrapped-create-1" };
    const body = { site: { name: "Once", url: "https://once.example.com" } };
    const first = await api(emu, "POST", "/sites", { ...owner, body, headers });
    const second = await api(emu, "POST", "/sites", { ...owner, body, headers });
    expect([first.status, second.status, second.headers.get("idempotent-replayed")]).toEqual([201, 201, "true"]);
    expect(second.body).toEqual(first.body);
    expect(second.body).toMatchObject(EXTRA);
  });
});

describe("siteops emulator --profile", () => {
  const running: EmulatorProcess[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((e) => e.close()));
  });

  it("prints the profile in its start-up line, and serves it", async () => {
    const minimal = await spawnEmulator({ args: ["--profile", "minimal"] });
    running.push(minimal);
    expect(minimal.line).toMatchObject({ url: minimal.url, profile: "minimal" });
    const res = await fetch(`${minimal.url}/api/v1/sites`);
    expect([res.status, await res.text()]).toEqual([401, "HTTP Token: Access denied.\n"]);
    const plain = await spawnEmulator({ args: ["--profile", "default"] });
    running.push(plain);
    expect(plain.line).not.toHaveProperty("profile");
  });

  it("refuses another value with one line naming --profile, exit 2", async () => {
    const r = await collect(process.execPath, [...CLI_FROM_SOURCE, "emulator", "--profile", "nope"], { cwd: ROOT });
    expect([r.code, r.stdout, r.stderr.trim().split("\n")]).toEqual([2, "", ['error: --profile must be one of default, minimal (got "nope")']]);
  });
});
