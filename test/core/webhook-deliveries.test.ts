// A real delivery from the emulator to a local receiver, verified with the endpoint's secret.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhook, WebhookVerificationError } from "../../src/index.js";
import { startTestEmulator, type TestEmulator } from "./helpers.js";

let env: TestEmulator;
let server: Server;
let receiverUrl: string;
const received: { headers: IncomingHttpHeaders; body: Buffer }[] = [];

beforeAll(async () => {
  env = await startTestEmulator({ allowPrivateWebhookTargets: true }); // a local receiver
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await env.close();
});

async function waitForDelivery(type: string): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  for (let i = 0; i < 100; i++) {
    const hit = received.find((r) => (JSON.parse(r.body.toString()) as { type: string }).type === type);
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no ${type} delivery received`);
}

describe("webhook deliveries", () => {
  it("verifies a delivery signed by the service and returns the typed event", async () => {
    const endpoint = await env.so.webhookEndpoints.create({ url: receiverUrl, enabled_events: ["site.created"] });
    const site = await env.so.sites.create({ name: "Hooked", url: "https://hooked.acme.test" });
    const delivery = await waitForDelivery("site.created");

    const event = verifyWebhook({ payload: delivery.body, headers: delivery.headers, secret: endpoint.secret! });
    expect(event.type).toBe("site.created");
    if (event.type === "site.created") expect(event.data).toMatchObject({ id: site.id, name: "Hooked" });

    // The same delivery fails verification when anything is off.
    const tampered = Buffer.from(delivery.body.toString().replace("Hooked", "Hacked"));
    expect(() => verifyWebhook({ payload: tampered, headers: delivery.headers, secret: endpoint.secret! })).toThrow(WebhookVerificationError);
    const other = await env.so.webhookEndpoints.create({ url: receiverUrl, enabled_events: ["site.deleted"] });
    expect(() => verifyWebhook({ payload: delivery.body, headers: delivery.headers, secret: other.secret! })).toThrow(WebhookVerificationError);
    const later = Math.floor(Date.now() / 1000) + 3600;
    expect(() => verifyWebhook({ payload: delivery.body, headers: delivery.headers, secret: endpoint.secret!, now: later })).toThrow("too old");
  });
});
