// /api/v1/sites against the emulator: create (defaults, validation, uniqueness per account), read,
// update, delete with its children, roles, other accounts, activity and webhook events.
import type { SQLInputValue } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { CURRENT_PHP_VERSION, CURRENT_WP_VERSION } from "../../emulator/versions.js";
import { TOKENS, api, startTestEmulator } from "./helpers.js";
import { siteFields } from "../../wire/generated/fields.js";
import { shownNames } from "../support/wire-records.js";

let emu: RunningEmulator;
let n = 0;
const uniqueUrl = () => `https://site-${++n}.example.com`;

const create = (body: Record<string, unknown>, token: string = TOKENS.owner) => api(emu, "POST", "/sites", { token, body });

beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu.close();
});

const count = (sql: string, ...args: SQLInputValue[]) => (emu.context.db.prepare(sql).get(...args) as { n: number }).n;

describe("POST /sites", () => {
  it("creates a site with the current versions by default and runs its first health check", async () => {
    const url = uniqueUrl();
    const res = await create({ name: "Blog", url });
    expect(res.status).toBe(201);
    const site = res.body;
    expect(Object.keys(site).sort()).toEqual(shownNames(siteFields).sort());
    expect(site).toMatchObject({ name: "Blog", url, wp_version: CURRENT_WP_VERSION, php_version: CURRENT_PHP_VERSION });
    expect(site.id).toMatch(/^site_[A-Za-z0-9]{16,}$/);
    expect(site.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    // The first check has run: the status is derived from it, no longer "unknown".
    expect(["healthy", "degraded", "down"]).toContain(site.status);
    expect(count("SELECT COUNT(*) AS n FROM health_checks WHERE site_id = ?", site.id)).toBe(1);
  });

  it("keeps given versions and finds vulnerabilities of an old one", async () => {
    const res = await create({ name: "Old", url: uniqueUrl(), wp_version: "5.9", php_version: "7.4" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ wp_version: "5.9", php_version: "7.4" });
    expect(count("SELECT COUNT(*) AS n FROM vulnerability_records WHERE site_id = ? AND status = 'open'", res.body.id)).toBeGreaterThan(0);
  });

  it("validates with Rails-style messages and field maps", async () => {
    const cases: [Record<string, unknown>, Record<string, string[]>][] = [
      [{ name: "", url: uniqueUrl() }, { name: ["can't be blank"] }],
      [{ name: "   ", url: uniqueUrl() }, { name: ["can't be blank"] }],
      [{ name: "x".repeat(256), url: uniqueUrl() }, { name: ["is too long (maximum is 255 characters)"] }],
      [{ name: "A", url: "not a url" }, { url: ["is invalid"] }],
      [{ name: "A", url: "ftp://files.example.com" }, { url: ["is invalid"] }],
      [{ name: "A", url: "/relative/path" }, { url: ["is invalid"] }],
      [{ name: "A", url: "" }, { url: ["can't be blank"] }],
      [{ name: "A", url: uniqueUrl(), wp_version: "6" }, { wp_version: ["is invalid"] }],
      [{ name: "A", url: uniqueUrl(), php_version: "8.x" }, { php_version: ["is invalid"] }],
      [
        { name: "", url: "nope", wp_version: "six" },
        { name: ["can't be blank"], url: ["is invalid"], wp_version: ["is invalid"] },
      ],
      [{ url: uniqueUrl() }, { name: ["can't be blank"] }],
      [{ name: 42, url: uniqueUrl() }, { name: ["must be a string"] }],
    ];
    for (const [body, errors] of cases) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors).toEqual(errors);
      expect(res.body.error).toMatch(/^Validation failed: /);
    }
    expect((await create({ name: "", url: "https://x.example.com" })).body.error).toBe("Validation failed: Name can't be blank");
  });

  it("keeps urls unique per account, not across accounts", async () => {
    const url = uniqueUrl();
    expect((await create({ name: "One", url })).status).toBe(201);
    const dup = await create({ name: "Two", url });
    expect(dup.status).toBe(422);
    expect(dup.body).toEqual({ error: "Validation failed: Url has already been taken", errors: { url: ["has already been taken"] } });
    expect((await create({ name: "Elsewhere", url }, TOKENS.ownerB)).status).toBe(201);
  });

  it("is allowed to admins, not to members", async () => {
    expect((await create({ name: "By admin", url: uniqueUrl() }, TOKENS.admin)).status).toBe(201);
    const res = await create({ name: "By member", url: uniqueUrl() }, TOKENS.member);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "You are not authorized to perform this action." });
  });

  it("logs site.created with the api token as actor and announces it", async () => {
    const hook = await api(emu, "POST", "/webhook_endpoints", {
      token: TOKENS.owner,
      body: { url: "https://hooks.example.com/sites", enabled_events: ["site.created", "site.updated", "site.deleted"] },
    });
    expect(hook.status).toBe(201);
    const res = await create({ name: "Announced", url: uniqueUrl() });
    const log = await api(emu, "GET", `/activity_logs?site_id=${res.body.id}&action=site.created`, { token: TOKENS.owner });
    expect(log.body).toHaveLength(1);
    expect(log.body[0]).toMatchObject({
      action: "site.created",
      subject_type: "Site",
      subject_id: res.body.id,
      actor: { type: "api_token", name: "owner token" },
    });
    const deliveries = await api(emu, "GET", `/__emulator/webhook_deliveries?endpoint_id=${hook.body.id}`);
    const created = deliveries.body.deliveries.find((d: any) => d.event_type === "site.created" && d.payload.data.id === res.body.id);
    expect(created.payload).toMatchObject({ type: "site.created", data: { id: res.body.id, name: "Announced" } });
    await api(emu, "DELETE", `/webhook_endpoints/${hook.body.id}`, { token: TOKENS.owner });
  });

  it("announces and logs a creation in order, each event carrying what the API then shows", async () => {
    const hook = await api(emu, "POST", "/webhook_endpoints", { token: TOKENS.owner, body: { url: "https://hooks.example.com/all", enabled_events: ["*"] } });
    expect(hook.status).toBe(201);
    const res = await create({ name: "Vulnerable", url: uniqueUrl(), wp_version: "6.3", php_version: "7.4" });
    expect(res.status).toBe(201);
    const site = (await api(emu, "GET", `/sites/${res.body.id}`, { token: TOKENS.owner })).body;
    expect(res.body).toEqual(site);
    expect(site.status).toBe("degraded");
    const [check] = (await api(emu, "GET", `/sites/${site.id}/health_checks`, { token: TOKENS.owner })).body;
    const records = (await api(emu, "GET", `/sites/${site.id}/vulnerability_records?per_page=100`, { token: TOKENS.owner })).body.reverse(); // oldest first
    expect(records.length).toBeGreaterThan(1);

    const deliveries = (await api(emu, "GET", `/__emulator/webhook_deliveries?endpoint_id=${hook.body.id}`)).body.deliveries as {
      event_type: string;
      payload: { data: unknown };
    }[];
    expect(deliveries.filter((d) => d.event_type !== "webhook_endpoint.ping").map((d) => [d.event_type, d.payload.data])).toEqual([
      // The site as created: before its first check gave it a status.
      ["site.created", { ...site, status: "unknown", updated_at: site.created_at }],
      ["health_check.completed", check],
      ["site.status_changed", site],
      ...records.map((r: unknown) => ["vulnerability_record.detected", r]),
    ]);
    // The first status is part of the creation: no site.status_changed entry.
    const log = (await api(emu, "GET", `/activity_logs?site_id=${site.id}&per_page=100`, { token: TOKENS.owner })).body.reverse();
    expect(log.map((l: { action: string; subject_id: string }) => [l.action, l.subject_id])).toEqual([
      ["site.created", site.id],
      ...records.map((r: { id: string }) => ["vulnerability_record.detected", r.id]),
    ]);
    await api(emu, "DELETE", `/webhook_endpoints/${hook.body.id}`, { token: TOKENS.owner });
  });
});

describe("GET /sites and /sites/:id", () => {
  it("lists the account's sites oldest first, and only them", async () => {
    const mine = await api(emu, "GET", "/sites?per_page=100", { token: TOKENS.owner });
    expect(mine.status).toBe(200);
    const seqs = mine.body.map((s: any) => s.created_at);
    expect([...seqs].sort()).toEqual(seqs);
    const theirs = await api(emu, "GET", "/sites?per_page=100", { token: TOKENS.ownerB });
    const mineIds = new Set(mine.body.map((s: any) => s.id));
    expect(theirs.body.some((s: any) => mineIds.has(s.id))).toBe(false);
  });

  it("gets one site; members may read", async () => {
    const site = (await create({ name: "Readable", url: uniqueUrl() })).body;
    for (const token of [TOKENS.owner, TOKENS.admin, TOKENS.member]) {
      const res = await api(emu, "GET", `/sites/${site.id}`, { token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(site);
    }
  });

  it("answers 404 Record not found for another account's site, unknown ids and ids of the wrong shape", async () => {
    const site = (await create({ name: "Private", url: uniqueUrl() })).body;
    for (const [path, token] of [
      [`/sites/${site.id}`, TOKENS.ownerB],
      ["/sites/site_doesnotexist0000000000", TOKENS.owner],
      ["/sites/42", TOKENS.owner],
      ["/sites/snap_abcdefghijklmnopqrst", TOKENS.owner],
      [`/sites/${"x".repeat(150)}`, TOKENS.owner],
    ] as const) {
      const res = await api(emu, "GET", path, { token });
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ error: "Record not found" });
    }
  });
});

describe("PATCH /sites/:id", () => {
  it("updates the given fields, logs the changes and announces site.updated", async () => {
    const site = (await create({ name: "Before", url: uniqueUrl() })).body;
    const res = await api(emu, "PATCH", `/sites/${site.id}`, { token: TOKENS.admin, body: { name: "After", php_version: "8.2" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: site.id, name: "After", url: site.url, php_version: "8.2", wp_version: site.wp_version });
    expect(res.body.created_at).toBe(site.created_at);
    expect(res.body.updated_at >= site.updated_at).toBe(true);
    expect((await api(emu, "GET", `/sites/${site.id}`, { token: TOKENS.owner })).body).toEqual(res.body);

    const log = await api(emu, "GET", `/activity_logs?site_id=${site.id}&action=site.updated`, { token: TOKENS.owner });
    expect(log.body[0].changes).toEqual({ name: ["Before", "After"], php_version: [CURRENT_PHP_VERSION, "8.2"] });
    expect(log.body[0].actor.type).toBe("api_token");
  });

  it("writes nothing when nothing changes", async () => {
    const site = (await create({ name: "Same", url: uniqueUrl() })).body;
    const res = await api(emu, "PATCH", `/sites/${site.id}`, { token: TOKENS.owner, body: { name: "Same" } });
    expect(res.status).toBe(200);
    expect(res.body.updated_at).toBe(site.updated_at);
    const log = await api(emu, "GET", `/activity_logs?site_id=${site.id}&action=site.updated`, { token: TOKENS.owner });
    expect(log.body).toEqual([]);
  });

  it("re-runs vulnerability detection when a version changes", async () => {
    const site = (await create({ name: "Current", url: uniqueUrl() })).body;
    const before = count("SELECT COUNT(*) AS n FROM vulnerability_records WHERE site_id = ?", site.id);
    const res = await api(emu, "PATCH", `/sites/${site.id}`, { token: TOKENS.owner, body: { wp_version: "5.9" } });
    expect(res.status).toBe(200);
    expect(count("SELECT COUNT(*) AS n FROM vulnerability_records WHERE site_id = ?", site.id)).toBeGreaterThan(before);
  });

  it("validates like create, including uniqueness against other sites only", async () => {
    const a = (await create({ name: "A", url: uniqueUrl() })).body;
    const b = (await create({ name: "B", url: uniqueUrl() })).body;
    const dup = await api(emu, "PATCH", `/sites/${b.id}`, { token: TOKENS.owner, body: { url: a.url } });
    expect(dup.status).toBe(422);
    expect(dup.body.errors).toEqual({ url: ["has already been taken"] });
    const own = await api(emu, "PATCH", `/sites/${a.id}`, { token: TOKENS.owner, body: { url: a.url, name: "A2" } });
    expect(own.status).toBe(200);
    const bad = await api(emu, "PATCH", `/sites/${a.id}`, { token: TOKENS.owner, body: { name: "", wp_version: "latest" } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ name: ["can't be blank"], wp_version: ["is invalid"] });
    expect((await api(emu, "GET", `/sites/${a.id}`, { token: TOKENS.owner })).body.name).toBe("A2");
  });

  it("is 403 for members and 404 for other accounts", async () => {
    const site = (await create({ name: "Guarded", url: uniqueUrl() })).body;
    expect((await api(emu, "PATCH", `/sites/${site.id}`, { token: TOKENS.member, body: { name: "x" } })).status).toBe(403);
    expect((await api(emu, "PATCH", `/sites/${site.id}`, { token: TOKENS.ownerB, body: { name: "x" } })).status).toBe(404);
    expect((await api(emu, "GET", `/sites/${site.id}`, { token: TOKENS.owner })).body.name).toBe("Guarded");
  });
});

describe("DELETE /sites/:id", () => {
  it("deletes the site with its children and logs site.deleted", async () => {
    const site = (await create({ name: "Doomed", url: uniqueUrl(), wp_version: "6.0" })).body;
    expect(count("SELECT COUNT(*) AS n FROM health_checks WHERE site_id = ?", site.id)).toBeGreaterThan(0);
    expect(count("SELECT COUNT(*) AS n FROM vulnerability_records WHERE site_id = ?", site.id)).toBeGreaterThan(0);

    expect((await api(emu, "DELETE", `/sites/${site.id}`, { token: TOKENS.member })).status).toBe(403);
    expect((await api(emu, "DELETE", `/sites/${site.id}`, { token: TOKENS.ownerB })).status).toBe(404);

    const res = await api(emu, "DELETE", `/sites/${site.id}`, { token: TOKENS.owner });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await api(emu, "GET", `/sites/${site.id}`, { token: TOKENS.owner })).status).toBe(404);
    expect((await api(emu, "DELETE", `/sites/${site.id}`, { token: TOKENS.owner })).status).toBe(404);
    for (const table of ["health_checks", "vulnerability_records", "snapshots", "upgrade_pipelines"]) {
      expect(count(`SELECT COUNT(*) AS n FROM ${table} WHERE site_id = ?`, site.id), table).toBe(0);
    }
    const log = await api(emu, "GET", `/activity_logs?site_id=${site.id}&action=site.deleted`, { token: TOKENS.owner });
    expect(log.body).toHaveLength(1);

    // The url is free again.
    expect((await create({ name: "Reborn", url: site.url })).status).toBe(201);
  });
});
