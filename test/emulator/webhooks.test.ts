// Webhook deliveries end to end: a receiver on a real port-0 server verifies the Standard Webhooks
// signature knowing only the endpoint's secret; failures are retried on the emulator clock with the
// same webhook-id; after the last retry the delivery fails and the endpoint is disabled.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, advanceClock, api, startTestEmulator, waitFor } from "./helpers.js";

interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let emu: RunningEmulator;
let server: Server;
let receiverUrl: string;
let received: Received[] = [];
/** Status codes the receiver answers with per path, in order; 200 once exhausted. */
let answers: Record<string, number[]> = {};
/** Paths whose requests the receiver holds until released. */
const held = new Map<string, (() => void)[]>();

/** What a receiver does with nothing but the secret (Standard Webhooks, v1 signatures). */
function verifySignature(secret: string, headers: Received["headers"], body: string): boolean {
  const id = String(headers["webhook-id"]);
  const timestamp = String(headers["webhook-timestamp"]);
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
  return String(headers["webhook-signature"])
    .split(" ")
    .some((sig) => {
      const [version, value] = sig.split(",");
      if (version !== "v1" || !value) return false;
      const given = Buffer.from(value, "base64");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "";
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const answer = () => {
        res.statusCode = answers[path]?.shift() ?? 200;
        res.end("ok");
      };
      if (path.startsWith("/hold")) held.set(path, [...(held.get(path) ?? []), answer]);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  emu = await startTestEmulator({ allowPrivateWebhookTargets: true }); // local receivers
});
afterAll(async () => {
  await emu.close();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  received = [];
  answers = {};
});

const deliveriesOf = async (endpointId: string) => (await api(emu, "GET", `/__emulator/webhook_deliveries?endpoint_id=${endpointId}`)).body.deliveries as any[];

async function endpoint(path: string, events: string[]) {
  const res = await api(emu, "POST", "/webhook_endpoints", { token: TOKENS.owner, body: { url: `${receiverUrl}${path}`, enabled_events: events } });
  expect(res.status).toBe(201);
  // Let the ping go out first so that tests see only the deliveries they cause.
  await waitFor(async () => (await deliveriesOf(res.body.id)).every((d) => d.status === "succeeded" || d.status === "failed"), "ping");
  received = received.filter((r) => !r.path.startsWith(path));
  return res.body as { id: string; secret: string };
}

describe("webhook deliveries", () => {
  it("sends a ping to a new endpoint, verifiable with its secret", async () => {
    const res = await api(emu, "POST", "/webhook_endpoints", { token: TOKENS.owner, body: { url: `${receiverUrl}/ping`, enabled_events: ["site.deleted"] } });
    const got = await waitFor(async () => received.find((r) => r.path === "/ping"), "ping delivery");
    expect(JSON.parse(got.body)).toMatchObject({ type: "webhook_endpoint.ping", data: { id: res.body.id } });
    expect(verifySignature(res.body.secret, got.headers, got.body)).toBe(true);
  });

  it("posts signed Standard Webhooks for subscribed events only", async () => {
    const ep = await endpoint("/signed", ["site.created"]);
    const site = (await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Hooked", url: "https://hooked.example.com" } })).body;
    await api(emu, "PATCH", `/sites/${site.id}`, { token: TOKENS.owner, body: { name: "Renamed" } });

    const got = await waitFor(async () => received.find((r) => r.path === "/signed"), "site.created delivery");
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["webhook-id"]).toMatch(/^msg_/);
    const nowSeconds = Math.floor(emu.context.clock.nowMs() / 1000);
    expect(Math.abs(Number(got.headers["webhook-timestamp"]) - nowSeconds)).toBeLessThanOrEqual(5);
    expect(got.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verifySignature(ep.secret, got.headers, got.body)).toBe(true);
    // Any change to the body, id or timestamp breaks the signature.
    expect(verifySignature(ep.secret, got.headers, got.body.replace("Hooked", "Hacked"))).toBe(false);
    expect(verifySignature(ep.secret, { ...got.headers, "webhook-timestamp": "1" }, got.body)).toBe(false);
    expect(verifySignature("whsec_" + Buffer.alloc(24).toString("base64"), got.headers, got.body)).toBe(false);

    const payload = JSON.parse(got.body);
    // The event carries the site as created, before its first health check set the status.
    expect(payload).toEqual({
      type: "site.created",
      timestamp: expect.any(String),
      data: { ...site, status: "unknown", updated_at: expect.any(String) },
    });

    const all = await deliveriesOf(ep.id);
    expect(all.map((d) => d.event_type)).toEqual(["webhook_endpoint.ping", "site.created"]);
    await waitFor(async () => (await deliveriesOf(ep.id))[1].status === "succeeded", "succeeded");
    expect(received.filter((r) => r.path === "/signed")).toHaveLength(1);
  });

  it("retries a failed delivery after 5 s on the emulator clock with the same webhook-id", async () => {
    const ep = await endpoint("/retry", ["site.updated"]);
    const site = (await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "R", url: "https://retry.example.com" } })).body;
    answers = { "/retry": [500, 503] };
    await api(emu, "PATCH", `/sites/${site.id}`, { token: TOKENS.owner, body: { name: "R2" } });

    const first = await waitFor(async () => (await deliveriesOf(ep.id)).find((d) => d.event_type === "site.updated" && d.attempts === 1), "first attempt");
    expect(first).toMatchObject({ status: "pending", last_status: 500, last_error: "HTTP 500" });
    const clockNow = (await api(emu, "GET", "/__emulator/clock")).body.now;
    const delay = Date.parse(first.next_attempt_at) - Date.parse(clockNow);
    expect(delay).toBeGreaterThan(0);
    expect(delay).toBeLessThanOrEqual(5000);

    // Not yet due 1 s later (a request runs whatever is due, so this reading is settled).
    await advanceClock(emu, 1);
    expect((await deliveriesOf(ep.id)).find((d) => d.id === first.id).attempts).toBe(1);

    await advanceClock(emu, 4);
    const second = await waitFor(async () => (await deliveriesOf(ep.id)).find((d) => d.id === first.id && d.attempts === 2), "second attempt");
    expect(second).toMatchObject({ status: "pending", last_status: 503 });
    // The next retry waits 5 minutes.
    const delay2 = Date.parse(second.next_attempt_at) - Date.parse((await api(emu, "GET", "/__emulator/clock")).body.now);
    expect(delay2).toBeGreaterThan(4 * 60_000);
    expect(delay2).toBeLessThanOrEqual(5 * 60_000);

    await advanceClock(emu, 300);
    const done = await waitFor(async () => (await deliveriesOf(ep.id)).find((d) => d.id === first.id && d.status === "succeeded"), "success");
    expect(done.attempts).toBe(3);
    const attempts = received.filter((r) => r.path === "/retry");
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((r) => r.headers["webhook-id"]))).toEqual(new Set([first.id]));
    expect(new Set(attempts.map((r) => r.body)).size).toBe(1);
    for (const r of attempts) expect(verifySignature(ep.secret, r.headers, r.body)).toBe(true);
    // Each attempt is signed with its own timestamp.
    expect(new Set(attempts.map((r) => r.headers["webhook-timestamp"])).size).toBe(3);
  });

  it("treats connection errors and non-2xx (including 3xx) as failures", async () => {
    const ep = await endpoint("/redirect", ["site.updated"]);
    const site = (await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "X", url: "https://redirect.example.com" } })).body;
    answers = { "/redirect": [302] };
    await api(emu, "PATCH", `/sites/${site.id}`, { token: TOKENS.owner, body: { name: "X2" } });
    const d = await waitFor(async () => (await deliveriesOf(ep.id)).find((x) => x.event_type === "site.updated" && x.attempts === 1), "attempt");
    expect(d).toMatchObject({ status: "pending", last_status: 302 });

    const dead = await api(emu, "POST", "/webhook_endpoints", {
      token: TOKENS.owner,
      body: { url: "http://127.0.0.1:9/closed", enabled_events: ["site.updated"] },
    });
    const ping = await waitFor(async () => (await deliveriesOf(dead.body.id)).find((x) => x.attempts === 1), "refused attempt");
    expect(ping.status).toBe("pending");
    expect(ping.last_status).toBeNull();
    expect(ping.last_error).toMatch(/ECONNREFUSED/);
    await api(emu, "DELETE", `/webhook_endpoints/${dead.body.id}`, { token: TOKENS.owner });
  });

  it("a receiver that does not answer blocks neither the API nor other deliveries", async () => {
    const res = await api(emu, "POST", "/webhook_endpoints", { token: TOKENS.owner, body: { url: `${receiverUrl}/hold`, enabled_events: ["site.created"] } });
    await waitFor(async () => held.has("/hold"), "held ping");
    const ping = (await deliveriesOf(res.body.id))[0];
    expect(ping.status).toBe("sending");

    // While that request hangs, the API answers and another endpoint gets its delivery.
    const fast = await endpoint("/fast", ["site.created"]);
    const site = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Busy", url: "https://busy.example.com" } });
    expect(site.status).toBe(201);
    await waitFor(async () => received.find((r) => r.path === "/fast"), "delivery to the fast endpoint");
    expect((await deliveriesOf(res.body.id)).find((d) => d.id === ping.id).status).toBe("sending");

    for (const release of held.get("/hold")!) release();
    await waitFor(async () => (await deliveriesOf(res.body.id)).find((d) => d.id === ping.id && d.status === "succeeded"), "held ping done");
    await api(emu, "DELETE", `/webhook_endpoints/${res.body.id}`, { token: TOKENS.owner });
    await api(emu, "DELETE", `/webhook_endpoints/${fast.id}`, { token: TOKENS.owner });
  });

  it("gives up after the retry schedule: the delivery fails and the endpoint is disabled", async () => {
    const ep = await endpoint("/down", ["site.updated"]);
    const site = (await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "D", url: "https://down.example.com" } })).body;
    answers = { "/down": Array(7).fill(500) };
    await api(emu, "PATCH", `/sites/${site.id}`, { token: TOKENS.owner, body: { name: "D2" } });

    const schedule = [5, 300, 1800, 7200, 18_000, 36_000];
    let d = await waitFor(async () => (await deliveriesOf(ep.id)).find((x) => x.event_type === "site.updated" && x.attempts === 1), "attempt 1");
    for (const [i, seconds] of schedule.entries()) {
      await advanceClock(emu, seconds);
      d = await waitFor(async () => (await deliveriesOf(ep.id)).find((x) => x.id === d.id && x.attempts === i + 2), `attempt ${i + 2}`);
    }
    expect(d).toMatchObject({ status: "failed", attempts: 7, next_attempt_at: null, last_status: 500 });
    expect(received.filter((r) => r.path === "/down")).toHaveLength(7);

    const endpointNow = await api(emu, "GET", `/webhook_endpoints/${ep.id}`, { token: TOKENS.owner });
    expect(endpointNow.body.status).toBe("disabled");

    // Disabled: new events are not queued for it; enabling it again resumes deliveries.
    await api(emu, "PATCH", `/sites/${site.id}`, { token: TOKENS.owner, body: { name: "D3" } });
    expect((await deliveriesOf(ep.id)).filter((x) => x.event_type === "site.updated")).toHaveLength(1);
    await api(emu, "PATCH", `/webhook_endpoints/${ep.id}`, { token: TOKENS.owner, body: { status: "enabled" } });
    await api(emu, "PATCH", `/sites/${site.id}`, { token: TOKENS.owner, body: { name: "D4" } });
    await waitFor(async () => (await deliveriesOf(ep.id)).some((x) => x.status === "succeeded" && x.payload.data.name === "D4"), "delivery after re-enabling");
  });
});
