// Bad input never breaks the emulator: malformed JSON, wrong types, oversized bodies, missing
// content types, SQL-looking strings, huge numbers, ids of the wrong shape, unknown fields. Always
// a 4xx JSON error (never a 500), never a partial write, unknown fields never stored.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, api, startTestEmulator } from "./helpers.js";

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu.close();
});

const count = (table: string) => (emu.context.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
const json = { "content-type": "application/json" };

describe("bad input", () => {
  it("malformed JSON is 400", async () => {
    for (const raw of ["{", "{name: 'x'}", '{"name":"x",}', "nul", '{"a":1}garbage']) {
      const res = await api(emu, "POST", "/sites", { token: TOKENS.owner, raw, headers: json });
      expect(res.status, raw).toBe(400);
      expect(res.body).toEqual({ error: "Malformed JSON in request body" });
    }
    const empty = await api(emu, "POST", "/sites", { token: TOKENS.owner, raw: "", headers: json });
    expect(empty.status).toBe(400);
    expect(typeof empty.body.error).toBe("string");
  });

  it("wrong types are 422 with field errors", async () => {
    const cases: [unknown, string][] = [
      [{ name: 1, url: "https://t.example.com" }, "name"],
      [{ name: "x", url: ["https://t.example.com"] }, "url"],
      [{ name: "x", url: "https://t.example.com", wp_version: 6.4 }, "wp_version"],
      [{ name: null, url: "https://t.example.com" }, "name"],
      [{ name: { $ne: "" }, url: "https://t.example.com" }, "name"],
    ];
    for (const [body, field] of cases) {
      const res = await api(emu, "POST", "/sites", { token: TOKENS.owner, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.body.errors)).toContain(field);
    }
    for (const body of [[], "a string", 42, null, true]) {
      const res = await api(emu, "POST", "/sites", { token: TOKENS.owner, body });
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
      expect(typeof res.body.error).toBe("string");
    }
    const hook = await api(emu, "POST", "/webhook_endpoints", { token: TOKENS.owner, body: { url: "https://h.example.com", enabled_events: [1, 2] } });
    expect(hook.status).toBe(422);
    const login = await api(emu, "POST", "/jwt", { body: { email: ["a"], password: 1 } });
    expect(login.status).toBe(422);
    expect(count("sites")).toBe(0);
  });

  it("bodies over 1 MiB are 413", async () => {
    const res = await api(emu, "POST", "/sites", {
      token: TOKENS.owner,
      body: { name: "big", url: "https://big.example.com", padding: "x".repeat(1024 * 1024 + 10) },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: "Payload too large" });
    expect(count("sites")).toBe(0);
  });

  it("a JSON endpoint without Content-Type: application/json is 415", async () => {
    const body = JSON.stringify({ name: "x", url: "https://ct.example.com" });
    // A Buffer body makes fetch send no Content-Type at all (a string would be text/plain).
    const none = await api(emu, "POST", "/sites", { token: TOKENS.owner, raw: Buffer.from(body) });
    const text = await api(emu, "POST", "/sites", { token: TOKENS.owner, raw: body, headers: { "content-type": "text/plain" } });
    const form = await api(emu, "POST", "/jwt", { raw: "email=a&password=b", headers: { "content-type": "application/x-www-form-urlencoded" } });
    for (const res of [none, text, form]) {
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ error: "Unsupported media type" });
    }
    expect(count("sites")).toBe(0);
  });

  it("SQL-looking strings are stored and matched literally", async () => {
    const name = "Robert'); DROP TABLE sites;--";
    const url = "https://example.com/?q=1';DROP/**/TABLE/**/sites;--";
    const res = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name, url } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name, url });
    expect((await api(emu, "GET", `/sites/${res.body.id}`, { token: TOKENS.owner })).body.name).toBe(name);
    for (const q of ["action=' OR 1=1 --", "site_id=x' OR '1'='1", "action=%25", "action=site.%25"]) {
      const list = await api(emu, "GET", `/activity_logs?${q}`, { token: TOKENS.owner });
      expect(list.status, q).toBe(200);
      expect(list.body, q).toEqual([]);
    }
    expect((await api(emu, "GET", "/sites", { token: TOKENS.owner })).body).toHaveLength(1);
    expect((await api(emu, "GET", "/sites", { token: TOKENS.ownerB })).body).toHaveLength(0);
    const login = await api(emu, "POST", "/jwt", { body: { email: "' OR 1=1 --", password: "' OR '1'='1" } });
    expect(login.status).toBe(401);
  });

  it("unicode round-trips; control and bidi characters are refused on the field (test/security/input-hygiene, invisible-characters)", async () => {
    const name = "Café ☕ \ud83d\ude80 עברית";
    const res = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name, url: "https://xn--caf-dma.example.com" } });
    expect(res.status).toBe(201);
    expect((await api(emu, "GET", `/sites/${res.body.id}`, { token: TOKENS.owner })).body.name).toBe(name);
    const control = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "a\u0000\u0007b", url: "https://control.example.com" } });
    expect([control.status, control.body.errors]).toEqual([422, { name: ["must not contain control characters"] }]);
    const bidi = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "a\u202eb", url: "https://bidi.example.com" } });
    expect([bidi.status, bidi.body.errors]).toEqual([422, { name: ["must not contain control characters"] }]);
  });

  it("ids of the wrong shape are 404 Record not found", async () => {
    const paths = [
      "/sites/1",
      "/sites/site_",
      "/sites/site_%27%20OR%201%3D1",
      "/sites/%00",
      `/sites/site_${"a".repeat(190)}`,
      "/webhook_endpoints/1",
      "/webhook_endpoints/site_abcdefghijklmnopqrst",
      "/accounts/1",
      "/accounts/..%2F..%2Fetc%2Fpasswd",
    ];
    for (const path of paths) {
      for (const method of ["GET", "PATCH", "DELETE"]) {
        if (path.startsWith("/accounts") && method !== "GET") continue;
        const res = await api(emu, method, path, { token: TOKENS.owner, body: method === "PATCH" ? {} : undefined });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body).toEqual({ error: "Record not found" });
      }
    }
  });

  it("huge and odd query values never 500", async () => {
    for (const q of [
      "page=99999999999999999999999999999",
      "per_page=99999999999999999999",
      "page=1&page=2",
      "page=%00",
      `since=${"9".repeat(400)}`,
      "until=2024-01-01T00:00:00Z&since=2025-01-01T00:00:00Z",
    ]) {
      for (const path of ["/sites", "/activity_logs", "/webhook_endpoints", "/users", "/accounts"]) {
        const res = await api(emu, "GET", `${path}?${q}`, { token: TOKENS.owner });
        expect(res.status, `${path}?${q}`).toBeLessThan(500);
        if (res.status !== 200) expect(res.status).toBe(400);
      }
    }
  });

  it("unknown body fields are ignored and never stored", async () => {
    const other = (await api(emu, "GET", "/me", { token: TOKENS.ownerB })).body.current_account_id;
    const res = await api(emu, "POST", "/sites", {
      token: TOKENS.owner,
      body: {
        name: "Strict",
        url: "https://strict.example.com",
        id: "site_chosenByTheClient00",
        status: "down",
        account_id: other,
        created_at: "2000-01-01T00:00:00.000Z",
        forced_health: "failed",
        __proto__: { admin: true },
        extra: { nested: "value" },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.id).not.toBe("site_chosenByTheClient00");
    expect(res.body.created_at).not.toBe("2000-01-01T00:00:00.000Z");
    expect(res.body).not.toHaveProperty("extra");
    const row = emu.context.db.prepare("SELECT * FROM sites WHERE id = ?").get(res.body.id) as Record<string, unknown>;
    expect(row.account_id).not.toBe(other);
    expect(row.forced_health).toBeNull();
    expect(JSON.stringify(row)).not.toContain("nested");

    const patch = await api(emu, "PATCH", `/sites/${res.body.id}`, { token: TOKENS.owner, body: { status: "down", account_id: other, name: "Strict 2" } });
    expect(patch.status).toBe(200);
    expect(patch.body.status).not.toBe("down");
    expect((emu.context.db.prepare("SELECT account_id FROM sites WHERE id = ?").get(res.body.id) as any).account_id).not.toBe(other);

    const hook = await api(emu, "POST", "/webhook_endpoints", {
      token: TOKENS.owner,
      body: { url: "https://hooks.example.com/s", secret: "whsec_chosen", unknown: 1 },
    });
    expect(hook.status).toBe(201);
    expect(hook.body.secret).not.toBe("whsec_chosen");
    expect(hook.body).not.toHaveProperty("unknown");
  });

  it("a DELETE declaring JSON without a body is fine; a PATCH without a body is 422", async () => {
    const site = (await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Gone", url: "https://gone.example.com" } })).body;
    const del = await api(emu, "DELETE", `/sites/${site.id}`, { token: TOKENS.owner, headers: json });
    expect(del.status).toBe(204);
    const patch = await api(emu, "PATCH", "/webhook_endpoints/we_abcdefghijklmnopqrst", { token: TOKENS.owner });
    expect(patch.status).toBe(422);
    expect(patch.body.error).toBe("Validation failed: Base must be an object");
  });

  it("unknown routes and methods are JSON 404s", async () => {
    for (const [method, path] of [
      ["GET", "/nope"],
      ["PUT", "/sites"],
      ["GET", "/api/v2/sites"],
    ] as const) {
      const res = await api(emu, method, path.startsWith("/api") ? `/../..${path}` : path, { token: TOKENS.owner });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(typeof res.body.error).toBe("string");
    }
  });

  it("no request above produced a 500 or a half-written record", async () => {
    expect(count("sites")).toBe(3);
    const orphans = emu.context.db
      .prepare(
        `SELECT COUNT(*) AS n FROM activity_logs WHERE subject_type = 'Site' AND subject_id NOT IN (SELECT id FROM sites)
           AND subject_id NOT IN (SELECT subject_id FROM activity_logs WHERE action = 'site.deleted')`,
      )
      .get() as { n: number };
    expect(orphans.n).toBe(0);
  });
});
