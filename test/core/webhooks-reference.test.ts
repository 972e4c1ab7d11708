// verifyWebhook against the Standard Webhooks reference library (the `standardwebhooks` package): on the same
// delivery both accept or both refuse, including the spellings where they once differed (issue 40 item 7: a
// signature without its base64 padding, a timestamp with a leading space).
import { createHmac, randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { verifyWebhook } from "../../src/index.js";

const key = randomBytes(24);
const secret = `whsec_${key.toString("base64")}`;
const now = 1_790_000_000;
const payload = JSON.stringify({ type: "site.created", timestamp: "2026-09-21T00:00:00.000Z", data: { id: "site_abcdefghijklmnop" } });

function mac(id: string, ts: number | string, body = payload): string {
  return createHmac("sha256", key).update(`${id}.${ts}.${body}`).digest("base64");
}

const good = mac("msg_1", now);
// [what, webhook-timestamp, webhook-signature, body]
const cases: Array<[string, string, string, string?]> = [
  ["a valid delivery", String(now), `v1,${good}`],
  ["the base64 padding stripped", String(now), `v1,${good.replace(/=+$/, "")}`],
  ["an extra = of padding", String(now), `v1,${good}=`],
  ["the URL-safe alphabet", String(now), `v1,${good.replace(/\+/g, "-").replace(/\//g, "_")}`],
  ["a leading space in the timestamp", ` ${now}`, `v1,${good}`],
  ["a trailing space in the timestamp", `${now} `, `v1,${good}`],
  ["a leading + in the timestamp", `+${now}`, `v1,${good}`],
  ["a fraction in the timestamp (signed as the integer)", `${now}.7`, `v1,${good}`],
  ["a fraction in the timestamp (signed as written)", `${now}.7`, `v1,${mac("msg_1", `${now}.7`)}`],
  ["a leading space, signed with the space", ` ${now}`, `v1,${mac("msg_1", ` ${now}`)}`],
  ["a timestamp that is not a number", "soon", `v1,${good}`],
  ["a hexadecimal timestamp", "0x6AB0", `v1,${good}`],
  ["a timestamp 301 s old", String(now - 301), `v1,${mac("msg_1", now - 301)}`],
  ["a timestamp 300 s ahead", String(now + 300), `v1,${mac("msg_1", now + 300)}`],
  ["a wrong then a right signature", String(now), `v1,${mac("msg_2", now)} v1,${good}`],
  ["a v2 signature only", String(now), `v2,${good}`],
  ["a tampered body", String(now), `v1,${good}`, payload.replace("abcdef", "abcdeg")],
];

describe("verifyWebhook agrees with the standardwebhooks library", () => {
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(now * 1000);
  });
  afterAll(() => {
    vi.useRealTimers();
  });

  it.each(cases)("%s", (_what, timestamp, signature, body = payload) => {
    const headers = { "webhook-id": "msg_1", "webhook-timestamp": timestamp, "webhook-signature": signature };
    const reference = attempt(() => new Webhook(secret).verify(body, headers));
    const ours = attempt(() => verifyWebhook({ payload: body, headers, secret, now }));
    expect(ours).toBe(reference);
  });

  it("the two cases of the issue: padding stripped refused, a leading space accepted", () => {
    const headers = { "webhook-id": "msg_1", "webhook-timestamp": String(now), "webhook-signature": `v1,${good.replace(/=+$/, "")}` };
    expect(attempt(() => verifyWebhook({ payload, headers, secret, now }))).toBe("refused");
    headers["webhook-timestamp"] = ` ${now}`;
    headers["webhook-signature"] = `v1,${good}`;
    expect(attempt(() => verifyWebhook({ payload, headers, secret, now }))).toBe("accepted");
  });
});

function attempt(verify: () => unknown): "accepted" | "refused" {
  try {
    verify();
    return "accepted";
  } catch {
    return "refused";
  }
}
