// Idempotency-Key on POST: a replay returns the first response and creates nothing; the same key
// with another body is 422; keys are per user and expire after 24 h.
import type { SQLInputValue } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, advanceClock, api, startTestEmulator } from "./helpers.js";

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu.close();
});

const count = (sql: string, ...args: SQLInputValue[]) => (emu.context.db.prepare(sql).get(...args) as { n: number }).n;
const post = (path: string, body: unknown, key: string, token: string = TOKENS.owner) =>
  api(emu, "POST", path, { token, body, headers: { "idempotency-key": key } });

describe("Idempotency-Key", () => {
  it("replays the first response and creates nothing more", async () => {
    const body = { name: "Once", url: "https://once.example.com" };
    const first = await post("/sites", body, "key-once");
    expect(first.status).toBe(201);
    const second = await post("/sites", body, "key-once");
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(count("SELECT COUNT(*) AS n FROM sites WHERE url = ?", body.url)).toBe(1);
    expect(count("SELECT COUNT(*) AS n FROM activity_logs WHERE action = 'site.created' AND subject_id = ?", first.body.id)).toBe(1);
  });

  it("answers 422 for the same key with a different body", async () => {
    await post("/sites", { name: "A", url: "https://idem-a.example.com" }, "key-diff");
    const res = await post("/sites", { name: "B", url: "https://idem-b.example.com" }, "key-diff");
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("Idempotency-Key was already used with different request parameters");
    expect(count("SELECT COUNT(*) AS n FROM sites WHERE url = ?", "https://idem-b.example.com")).toBe(0);
  });

  it("keeps keys apart per user; the same key on another path is another request (422)", async () => {
    const a = await post("/webhook_endpoints", { url: "https://hooks.example.com/i" }, "shared-key", TOKENS.owner);
    const b = await post("/webhook_endpoints", { url: "https://hooks.example.com/i" }, "shared-key", TOKENS.admin);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.id).not.toBe(a.body.id);
    const otherPath = await post("/sites", { url: "https://hooks.example.com/i" }, "shared-key", TOKENS.owner);
    expect(otherPath.status).toBe(422);
  });

  it("replays validation errors too, and requests without a key are never replayed", async () => {
    const bad = await post("/sites", { name: "", url: "https://bad.example.com" }, "key-bad");
    const again = await post("/sites", { name: "", url: "https://bad.example.com" }, "key-bad");
    expect(again.status).toBe(422);
    expect(again.body).toEqual(bad.body);
    const body = { url: "https://hooks.example.com/nokey" };
    const x = await api(emu, "POST", "/webhook_endpoints", { token: TOKENS.owner, body });
    const y = await api(emu, "POST", "/webhook_endpoints", { token: TOKENS.owner, body });
    expect(y.body.id).not.toBe(x.body.id);
  });

  it("forgets keys after 24 hours", async () => {
    const body = { url: "https://hooks.example.com/expiring" };
    const first = await post("/webhook_endpoints", body, "key-expiring");
    await advanceClock(emu, 24 * 3600 + 1);
    const later = await post("/webhook_endpoints", body, "key-expiring");
    expect(later.status).toBe(201);
    expect(later.body.id).not.toBe(first.body.id);
  });

  it("refuses keys longer than 255 characters", async () => {
    const res = await post("/webhook_endpoints", { url: "https://hooks.example.com/long" }, "k".repeat(256));
    expect(res.status).toBe(400);
  });
});
