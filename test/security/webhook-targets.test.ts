// Issue 17 item 1 / issue 12 "webhook targets": a tenant's webhook endpoint must not reach the emulator's
// control API, a metadata service, or (without --allow-private-webhooks) anything private or loopback, at
// create/update time and again on the resolved address at delivery time.
import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, api, startTestEmulator, waitFor } from "../emulator/helpers.js";
import { freePort, startReceiver, type Receiver } from "./helpers.js";
import { removeDir, tempDir } from "../support/temp.js";

const create = (emu: RunningEmulator, url: string) =>
  api(emu, "POST", "/webhook_endpoints", { token: TOKENS.owner, body: { url, enabled_events: ["webhook_endpoint.ping", "site.created"] } });

const siteCount = (emu: RunningEmulator): number => (emu.context.db.prepare("SELECT COUNT(*) AS n FROM sites").get() as { n: number }).n;

describe("without --allow-private-webhooks (the default)", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator();
  });
  afterAll(async () => emu?.close());

  it.each([
    ["http://127.0.0.1:PORT/__emulator/reset", "the emulator's own control API"],
    ["https://169.254.169.254/latest/meta-data/", "cloud metadata"],
    ["https://[fe80::1]/", "IPv6 link-local"],
    ["https://0.0.0.0/", "unspecified"],
    ["https://[::]/", "IPv6 unspecified"],
    ["https://metadata.google.internal/computeMetadata/v1/", "a metadata name"],
    ["https://10.0.0.1/", "RFC 1918"],
    ["https://192.168.1.1/", "RFC 1918"],
    ["https://172.16.0.1/", "RFC 1918"],
    ["https://[::1]:22/", "IPv6 loopback"],
    ["https://localhost:6379/", "localhost"],
    ["http://localhost:8080/x", "localhost over http"],
    ["https://[::ffff:127.0.0.1]/", "IPv4-mapped loopback"],
    ["https://2130706433/", "loopback spelled as a number"],
    ["https://0x7f.1/", "loopback spelled in hex"],
    ["https://[fd00::1]/", "unique-local"],
  ])("refuses %s (%s) with 422 on url, and sends nothing", async (raw) => {
    const url = raw.replace("PORT", String(emu.port));
    const res = await create(emu, url);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(["url"]);
    expect(emu.context.db.prepare("SELECT COUNT(*) AS n FROM webhook_endpoints").get()).toEqual({ n: 0 });
  });

  it("refuses the same targets on update", async () => {
    const ok = await create(emu, "https://hooks.example.com/in");
    expect(ok.status).toBe(201);
    for (const url of [`http://127.0.0.1:${emu.port}/__emulator/reset`, "https://169.254.169.254/", "https://10.0.0.1/"]) {
      const res = await api(emu, "PATCH", `/webhook_endpoints/${ok.body.id}`, { token: TOKENS.owner, body: { url } });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(["url"]);
    }
    expect((await api(emu, "GET", `/webhook_endpoints/${ok.body.id}`, { token: TOKENS.owner })).body.url).toBe("https://hooks.example.com/in");
  });

  it("still takes public https targets (resolved only when delivering)", async () => {
    expect((await create(emu, "https://hooks.example.net/siteops")).status).toBe(201);
    expect((await create(emu, "http://hooks.example.net/siteops")).body.errors).toEqual({ url: ["must use https"] });
  });
});

describe("with --allow-private-webhooks", () => {
  let emu: RunningEmulator;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    emu = await startTestEmulator({ allowPrivateWebhookTargets: true });
  });
  afterAll(async () => {
    await emu?.close();
    await receiver?.close();
  });

  it("delivers to a local receiver", async () => {
    const res = await create(emu, `${receiver.url}/hooks`);
    expect(res.status).toBe(201);
    await waitFor(async () => receiver.hits.some((h) => h.path === "/hooks"), "the ping");
  });

  it.each(["127.0.0.1", "localhost", "[::1]", "127.1.2.3"])("never targets the emulator itself (%s:port), data intact", async (host) => {
    const before = siteCount(emu);
    const res = await create(emu, `http://${host}:${emu.port}/__emulator/reset`);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ url: ["must not point at the emulator itself"] });
    expect(siteCount(emu)).toBe(before);
  });

  it("still refuses link-local, metadata and unspecified addresses", async () => {
    for (const url of ["https://169.254.169.254/", "http://0.0.0.0:9/", "https://[fe80::1]/", "https://metadata.google.internal/"]) {
      expect((await create(emu, url)).status).toBe(422);
    }
  });
});

describe("at delivery time (the target checked again on its resolved address)", () => {
  let dir: string;
  let receiver: Receiver;
  const running: RunningEmulator[] = [];
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((e) => e.close()));
  });
  afterAll(async () => {
    await receiver?.close();
    if (dir) removeDir(dir);
  });

  const deliveries = async (emu: RunningEmulator) => (await api(emu, "GET", "/__emulator/webhook_deliveries")).body.deliveries as any[];

  it("refuses a loopback target, resolved from its name, once the flag is gone: a failed attempt with the reason", async () => {
    dir = tempDir("sec");
    const db = path.join(dir, "emulator.db");
    const first = await startTestEmulator({ db, dataDir: dir, allowPrivateWebhookTargets: true });
    running.push(first);
    const ep = await create(first, `http://localhost:${receiver.port}/late`);
    expect(ep.status).toBe(201);
    await waitFor(async () => (await deliveries(first)).some((d) => d.status === "succeeded"), "the ping");
    await first.close();
    running.length = 0;

    const second = await startTestEmulator({ db, dataDir: dir });
    running.push(second);
    const hitsBefore = receiver.hits.length;
    expect((await api(second, "POST", "/sites", { token: TOKENS.owner, body: { name: "Later", url: "https://later.example.com" } })).status).toBe(201);
    const refused = await waitFor(async () => (await deliveries(second)).find((d) => d.event_type === "site.created" && d.attempts > 0), "the attempt");
    expect(refused.status).not.toBe("succeeded");
    expect(refused.last_error).toMatch(/webhook target refused: localhost:\d+ is a private or loopback address \((127\.0\.0\.1|::1)\)/);
    expect(receiver.hits.length).toBe(hitsBefore);
  });

  it("never posts to its own control API, even with the flag and a target stored before", async () => {
    const db = path.join(tempDir("sec"), "emulator.db");
    const port = await freePort();
    const first = await startTestEmulator({ db, allowPrivateWebhookTargets: true });
    running.push(first);
    // Another port when created: allowed. It becomes the emulator's own port below.
    const ep = await api(first, "POST", "/webhook_endpoints", {
      token: TOKENS.owner,
      body: { url: `http://127.0.0.1:${port}/__emulator/reset`, enabled_events: ["site.created"] },
    });
    expect(ep.status).toBe(201);
    await first.close();
    running.length = 0;

    const second = await startTestEmulator({ db, port, allowPrivateWebhookTargets: true });
    running.push(second);
    expect((await api(second, "POST", "/sites", { token: TOKENS.owner, body: { name: "Kept", url: "https://kept.example.com" } })).status).toBe(201);
    const refused = await waitFor(async () => (await deliveries(second)).find((d) => d.event_type === "site.created" && d.attempts > 0), "the attempt");
    expect(refused.last_error).toMatch(/webhook target refused: 127\.0\.0\.1:\d+ is the emulator itself/);
    expect(siteCount(second)).toBe(1); // not reset
    rmSync(path.dirname(db), { recursive: true, force: true });
  });
});
