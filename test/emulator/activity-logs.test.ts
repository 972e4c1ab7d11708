// GET /activity_logs: every write is logged with actor, subject, changes, IP and request id; newest
// first; filters by site_id, action, since and until; scoped to the account.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { PASSWORD, TOKENS, USERS, advanceClock, api, startTestEmulator } from "./helpers.js";

let emu: RunningEmulator;
let siteA: any;
let siteB: any;
let createRequestId: string;
let middle: string;

beforeAll(async () => {
  emu = await startTestEmulator();
  const a = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "A", url: "https://a.example.com" } });
  siteA = a.body;
  createRequestId = a.headers.get("x-request-id")!;
  await advanceClock(emu, 60);
  middle = (await api(emu, "GET", "/__emulator/clock")).body.now;
  await advanceClock(emu, 60);
  siteB = (await api(emu, "POST", "/sites", { token: TOKENS.admin, body: { name: "B", url: "https://b.example.com" } })).body;
  await api(emu, "PATCH", `/sites/${siteA.id}`, { token: TOKENS.owner, body: { name: "A2" } });
  await api(emu, "POST", "/sites", { token: TOKENS.ownerB, body: { name: "Other", url: "https://other.example.com" } });
});
afterAll(async () => {
  await emu.close();
});

const logs = (query = "", token: string = TOKENS.owner) => api(emu, "GET", `/activity_logs${query}`, { token });

describe("GET /activity_logs", () => {
  it("lists the account's entries newest first with every field", async () => {
    const res = await logs();
    expect(res.status).toBe(200);
    const actions = res.body.map((e: any) => e.action);
    expect(actions.slice(0, 3)).toEqual(["site.updated", "site.created", "site.created"]);
    const created = res.body.find((e: any) => e.action === "site.created" && e.site_id === siteA.id);
    expect(created).toEqual({
      id: expect.stringMatching(/^act_/),
      account_id: expect.stringMatching(/^acct_/),
      site_id: siteA.id,
      action: "site.created",
      actor: { type: "api_token", id: expect.stringMatching(/^tok_/), name: "owner token" },
      subject_type: "Site",
      subject_id: siteA.id,
      changes: null,
      ip_address: expect.stringMatching(/127\.0\.0\.1/),
      request_id: createRequestId,
      created_at: expect.any(String),
    });
    const times = res.body.map((e: any) => e.created_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("never shows another account's entries", async () => {
    const res = await logs("?per_page=100");
    expect(res.body.some((e: any) => e.site_id !== null && e.site_id !== siteA.id && e.site_id !== siteB.id)).toBe(false);
    const other = await logs("?per_page=100", TOKENS.ownerB);
    expect(other.body.length).toBeGreaterThan(0);
    expect(other.body.some((e: any) => e.site_id === siteA.id)).toBe(false);
  });

  it("filters by site_id and action (exact, or a prefix with .*)", async () => {
    const bySite = await logs(`?site_id=${siteA.id}`);
    expect(bySite.body.length).toBeGreaterThan(0);
    expect(bySite.body.every((e: any) => e.site_id === siteA.id)).toBe(true);
    const updated = await logs("?action=site.updated");
    expect(updated.body).toHaveLength(1);
    expect(updated.body[0].changes).toEqual({ name: ["A", "A2"] });
    const prefix = await logs("?action=site.*&per_page=100");
    expect(new Set(prefix.body.map((e: any) => e.action.split(".")[0]))).toEqual(new Set(["site"]));
    expect((await logs("?action=nothing.like.this")).body).toEqual([]);
    expect((await logs("?site_id=site_unknown0000000000000")).body).toEqual([]);
  });

  it("filters by since (inclusive) and until (exclusive)", async () => {
    const since = await logs(`?since=${encodeURIComponent(middle)}&action=site.created`);
    expect(since.body.map((e: any) => e.site_id)).toEqual([siteB.id]);
    const until = await logs(`?until=${encodeURIComponent(middle)}&action=site.created`);
    expect(until.body.map((e: any) => e.site_id)).toEqual([siteA.id]);
    const dateOnly = await logs("?since=2000-01-01");
    expect(dateOnly.status).toBe(200);
  });

  it("answers 400 for since/until that are not times", async () => {
    for (const q of ["?since=yesterday", "?until=12", "?since=2024-13-45T99:00:00Z"]) {
      const res = await logs(q);
      expect(res.status, q).toBe(400);
      expect(res.body.error).toMatch(/must be an ISO 8601 time/);
    }
  });

  it("records JWT users as user actors, and the native login", async () => {
    const login = await api(emu, "POST", "/jwt", { body: { email: USERS.admin, password: PASSWORD } });
    await api(emu, "PATCH", `/sites/${siteB.id}`, { token: `Bearer ${login.body.access_token}`, body: { name: "B2" } });
    const entry = (await logs(`?site_id=${siteB.id}&action=site.updated`)).body[0];
    expect(entry.actor).toEqual({ type: "user", id: expect.stringMatching(/^usr_/), name: "Adam Admin" });

    await api(emu, "POST", "/auth", { body: { email: USERS.member, password: PASSWORD } });
    const native = (await logs("?action=api_token.created")).body[0];
    expect(native).toMatchObject({ subject_type: "ApiToken", actor: { type: "user", name: "Mia Member" } });
  });

  it("is readable by members", async () => {
    expect((await logs("", TOKENS.member)).status).toBe(200);
  });
});
