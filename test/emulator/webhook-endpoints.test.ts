// /api/v1/webhook_endpoints: create (secret shown once, https or loopback http, known events),
// read without the secret, update, delete; roles and other accounts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { EVENT_TYPES } from "../../emulator/events.js";
import { TOKENS, api, startTestEmulator } from "./helpers.js";

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startTestEmulator({ allowPrivateWebhookTargets: true }); // local receivers
});
afterAll(async () => {
  await emu.close();
});

const create = (body: Record<string, unknown>, token: string = TOKENS.owner) => api(emu, "POST", "/webhook_endpoints", { token, body });

describe("POST /webhook_endpoints", () => {
  it("creates an endpoint for all events by default and shows its secret once", async () => {
    const res = await create({ url: "https://hooks.example.com/a", description: "CI" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^we_[A-Za-z0-9]{16,}$/),
      url: "https://hooks.example.com/a",
      description: "CI",
      enabled_events: ["*"],
      status: "enabled",
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(Buffer.from(res.body.secret.slice(6), "base64")).toHaveLength(24);

    const get = await api(emu, "GET", `/webhook_endpoints/${res.body.id}`, { token: TOKENS.owner });
    expect(get.status).toBe(200);
    expect(get.body).not.toHaveProperty("secret");
    const { secret: _secret, ...rest } = res.body;
    expect(get.body).toEqual(rest);
    const list = await api(emu, "GET", "/webhook_endpoints", { token: TOKENS.owner });
    expect(list.body.every((e: any) => !("secret" in e))).toBe(true);
    expect(emu.context.db.prepare("SELECT secret FROM webhook_endpoints WHERE id = ?").get(res.body.id)).toEqual({ secret: res.body.secret });
  });

  it("queues a webhook_endpoint.ping for the new endpoint only", async () => {
    const res = await create({ url: "https://hooks.example.com/ping", enabled_events: ["site.deleted"] });
    const deliveries = await api(emu, "GET", `/__emulator/webhook_deliveries?endpoint_id=${res.body.id}`);
    expect(deliveries.body.deliveries.map((d: any) => d.event_type)).toEqual(["webhook_endpoint.ping"]);
    expect(deliveries.body.deliveries[0].payload.data).toMatchObject({ id: res.body.id, url: res.body.url });
    expect(deliveries.body.deliveries[0].payload.data).not.toHaveProperty("secret");
  });

  it("accepts specific events (deduplicated) and plain http only to loopback", async () => {
    const res = await create({ url: "http://127.0.0.1:9/hook", enabled_events: ["site.created", "site.created", "snapshot.completed"] });
    expect(res.status).toBe(201);
    expect(res.body.enabled_events).toEqual(["site.created", "snapshot.completed"]);
    expect((await create({ url: "http://localhost:8080/x" })).status).toBe(201);
    expect((await create({ url: "http://[::1]:8080/x" })).status).toBe(201);
    expect((await create({ url: "https://x.example.com", enabled_events: [...EVENT_TYPES] })).status).toBe(201);
  });

  it("validates url, events, description and status", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ url: "http://hooks.example.com/x" }, "url"],
      [{ url: "ftp://hooks.example.com/x" }, "url"],
      [{ url: "not a url" }, "url"],
      [{ url: "" }, "url"],
      [{}, "url"],
      [{ url: "https://h.example.com", enabled_events: [] }, "enabled_events"],
      [{ url: "https://h.example.com", enabled_events: ["site.exploded"] }, "enabled_events"],
      [{ url: "https://h.example.com", enabled_events: "site.created" }, "enabled_events"],
      [{ url: "https://h.example.com", status: "paused" }, "status"],
      [{ url: "https://h.example.com", description: "d".repeat(1001) }, "description"],
    ];
    for (const [body, field] of cases) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.body.errors), JSON.stringify(body)).toEqual([field]);
    }
    expect((await create({ url: "http://hooks.example.com/x" })).body.errors).toEqual({ url: ["must use https"] });
    expect((await create({ url: "https://h.example.com", enabled_events: ["site.exploded"] })).body.errors).toEqual({
      enabled_events: ["contains unknown events: site.exploded"],
    });
  });

  it("is forbidden to members", async () => {
    const res = await create({ url: "https://hooks.example.com/m" }, TOKENS.member);
    expect(res.status).toBe(403);
  });
});

describe("PATCH and DELETE /webhook_endpoints/:id", () => {
  it("updates url, description, events and status, and logs the changes", async () => {
    const ep = (await create({ url: "https://hooks.example.com/p" }, TOKENS.admin)).body;
    const res = await api(emu, "PATCH", `/webhook_endpoints/${ep.id}`, {
      token: TOKENS.admin,
      body: { url: "https://hooks.example.com/q", description: "moved", enabled_events: ["site.updated"], status: "disabled", secret: "whsec_AAAA" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ url: "https://hooks.example.com/q", description: "moved", enabled_events: ["site.updated"], status: "disabled" });
    expect(res.body).not.toHaveProperty("secret");
    // The secret is not something a PATCH can set.
    expect((emu.context.db.prepare("SELECT secret FROM webhook_endpoints WHERE id = ?").get(ep.id) as any).secret).toBe(ep.secret);

    const log = await api(emu, "GET", "/activity_logs?action=webhook_endpoint.updated", { token: TOKENS.owner });
    expect(log.body[0]).toMatchObject({ subject_type: "WebhookEndpoint", subject_id: ep.id });
    expect(log.body[0].changes).toEqual({
      url: ["https://hooks.example.com/p", "https://hooks.example.com/q"],
      description: [null, "moved"],
      enabled_events: [["*"], ["site.updated"]],
      status: ["enabled", "disabled"],
    });

    const cleared = await api(emu, "PATCH", `/webhook_endpoints/${ep.id}`, { token: TOKENS.admin, body: { description: null } });
    expect(cleared.body.description).toBeNull();
    const bad = await api(emu, "PATCH", `/webhook_endpoints/${ep.id}`, { token: TOKENS.admin, body: { url: "http://example.com" } });
    expect(bad.status).toBe(422);
  });

  it("a disabled endpoint gets no new deliveries", async () => {
    const ep = (await create({ url: "https://hooks.example.com/off", enabled_events: ["site.created"], status: "disabled" })).body;
    await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "S", url: "https://s-off.example.com" } });
    const deliveries = await api(emu, "GET", `/__emulator/webhook_deliveries?endpoint_id=${ep.id}`);
    expect(deliveries.body.deliveries).toEqual([]);
  });

  it("deletes an endpoint with its deliveries", async () => {
    const ep = (await create({ url: "https://hooks.example.com/d" })).body;
    expect((await api(emu, "DELETE", `/webhook_endpoints/${ep.id}`, { token: TOKENS.member })).status).toBe(403);
    expect((await api(emu, "DELETE", `/webhook_endpoints/${ep.id}`, { token: TOKENS.ownerB })).status).toBe(404);
    const res = await api(emu, "DELETE", `/webhook_endpoints/${ep.id}`, { token: TOKENS.owner });
    expect(res.status).toBe(204);
    expect((await api(emu, "GET", `/webhook_endpoints/${ep.id}`, { token: TOKENS.owner })).status).toBe(404);
    expect((await api(emu, "GET", `/__emulator/webhook_deliveries?endpoint_id=${ep.id}`)).body.deliveries).toEqual([]);
    const log = await api(emu, "GET", "/activity_logs?action=webhook_endpoint.deleted", { token: TOKENS.owner });
    expect(log.body[0].subject_id).toBe(ep.id);
  });

  it("another account's endpoint is 404 everywhere", async () => {
    const ep = (await create({ url: "https://hooks.example.com/private" })).body;
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { description: "x" }],
      ["DELETE", undefined],
    ] as const) {
      const res = await api(emu, method, `/webhook_endpoints/${ep.id}`, { token: TOKENS.ownerB, body });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "Record not found" });
    }
    expect((await api(emu, "GET", "/webhook_endpoints", { token: TOKENS.ownerB })).body.some((e: any) => e.id === ep.id)).toBe(false);
    expect((await api(emu, "GET", "/webhook_endpoints/we_123", { token: TOKENS.owner })).status).toBe(404);
  });
});
