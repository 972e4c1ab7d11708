// verifyWebhook: signatures, secret rotation, tampering, timestamps outside the tolerance, header spellings.
import { createHmac, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifyWebhook, WebhookVerificationError } from "../../src/index.js";

// Signed here independently of src/, the way the Standard Webhooks spec describes it.
const key = randomBytes(24);
const secret = `whsec_${key.toString("base64")}`;
const now = 1_790_000_000;
const payload = JSON.stringify({ type: "site.created", timestamp: "2026-09-21T00:00:00.000Z", data: { id: "site_abcdefghijklmnop", name: "Blog" } });

function sign(id: string, ts: number, body: string, k = key): string {
  return "v1," + createHmac("sha256", k).update(`${id}.${ts}.${body}`).digest("base64");
}

function headers(overrides: Record<string, string> = {}): Record<string, string> {
  return { "webhook-id": "msg_1", "webhook-timestamp": String(now), "webhook-signature": sign("msg_1", now, payload), ...overrides };
}

describe("verifyWebhook", () => {
  it("returns the typed event of a correctly signed delivery", () => {
    const event = verifyWebhook({ payload, headers: headers(), secret, now });
    expect(event.type).toBe("site.created");
    if (event.type === "site.created") expect(event.data.id).toBe("site_abcdefghijklmnop");
  });

  it("accepts a Buffer payload, fetch Headers and mixed-case names", () => {
    const h = new Headers(headers());
    expect(verifyWebhook({ payload: Buffer.from(payload), headers: h, secret, now }).type).toBe("site.created");
    const upper = Object.fromEntries(Object.entries(headers()).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifyWebhook({ payload, headers: upper, secret, now }).type).toBe("site.created");
  });

  it("accepts when any of several signatures matches (secret rotation)", () => {
    const other = sign("msg_1", now, payload, randomBytes(24));
    const h = headers({ "webhook-signature": `${other} ${sign("msg_1", now, payload)}` });
    expect(verifyWebhook({ payload, headers: h, secret, now }).type).toBe("site.created");
  });

  it("rejects a tampered body", () => {
    expect(() => verifyWebhook({ payload: payload.replace("Blog", "Blag"), headers: headers(), secret, now })).toThrow(WebhookVerificationError);
  });

  it("rejects a wrong secret", () => {
    const wrong = `whsec_${randomBytes(24).toString("base64")}`;
    expect(() => verifyWebhook({ payload, headers: headers(), secret: wrong, now })).toThrow("No matching webhook signature");
  });

  it("rejects a signature made for another message id", () => {
    expect(() => verifyWebhook({ payload, headers: headers({ "webhook-id": "msg_2" }), secret, now })).toThrow(WebhookVerificationError);
  });

  it("rejects stale and future timestamps beyond the tolerance, even when signed", () => {
    const old = now - 301;
    const h = headers({ "webhook-timestamp": String(old), "webhook-signature": sign("msg_1", old, payload) });
    expect(() => verifyWebhook({ payload, headers: h, secret, now })).toThrow("too old");
    expect(verifyWebhook({ payload, headers: h, secret, now, toleranceSeconds: 600 }).type).toBe("site.created");
    const future = now + 301;
    const f = headers({ "webhook-timestamp": String(future), "webhook-signature": sign("msg_1", future, payload) });
    expect(() => verifyWebhook({ payload, headers: f, secret, now })).toThrow("too new");
  });

  it("rejects missing headers, unknown versions and non-raw payloads", () => {
    expect(() => verifyWebhook({ payload, headers: {}, secret, now })).toThrow("Missing");
    const v2 = headers({ "webhook-signature": headers()["webhook-signature"].replace("v1,", "v2,") });
    expect(() => verifyWebhook({ payload, headers: v2, secret, now })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook({ payload: JSON.parse(payload) as string, headers: headers(), secret, now })).toThrow("raw body");
  });
});
