// Answers the action cannot read whole (issue 36, item 4), from a scripted server, run through the bundle: a
// listing with a site lacking a field, or from a server that ignores `page`, fails `site: all` with one
// failure line naming the endpoint and the field before any snapshot (never a part of the fleet and success);
// a snapshot answer without its status fails that site with such a line.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startScriptedServer, type ScriptedServer } from "../core/scripted-server.js";
import { runAction } from "./run-action.js";

const TOKEN = "sot_actionUnexpectedResponse01";
const LIST = "/api/v1/sites?per_page=100";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => server?.close());
beforeEach(() => {
  server.requests.length = 0;
});

const at = "2026-11-20T02:00:00.000Z";
const site = (i: number) => ({
  id: `site_s${i}`,
  name: `S ${i}`,
  url: `https://s${i}.example.com/`,
  status: "healthy",
  wp_version: "6.8",
  php_version: "8.3",
  created_at: at,
  updated_at: at,
});
const page = (from: number) => Array.from({ length: 5 }, (_, i) => site(from + i));
const run = (inputs: Record<string, string>) =>
  runAction({ "api-token": TOKEN, "base-url": server.url, command: "snapshot", ...inputs }, { SITEOPS_MAX_RETRIES: "0", SITEOPS_POLL_INTERVAL_MS: "20" });
const posts = () => server.requests.filter((r) => r.method !== "GET");

function listing(second: unknown): void {
  server.reply({ path: LIST, method: "GET" }, { status: 200, body: page(1) });
  server.reply({ path: `${LIST}&page=2`, method: "GET" }, { status: 200, body: second });
}

describe("site: all from a listing the action cannot read whole", () => {
  it("a site without its url: one failure line naming the endpoint and the field, no snapshot", async () => {
    listing([site(6), site(7), site(8), { ...site(9), url: undefined }, site(10)]);
    const r = await run({ site: "all" });
    expect(r.code).toBe(1);
    expect(r.errors).toEqual(['GET /api/v1/sites: site [3] of the page has no "url" (expected a string)']);
    expect(posts()).toEqual([]);
  });

  it("a server that ignores `page`: one failure line, no snapshot", async () => {
    listing(page(1));
    const r = await run({ site: "all" });
    expect(r.code).toBe(1);
    expect(r.errors).toEqual([
      "GET /api/v1/sites: page 2 holds the same items as page 1; the server does not seem to honour `page`, so the listing cannot be read whole.",
    ]);
    expect(posts()).toEqual([]);
  });
});

describe("a snapshot answer without its status", () => {
  it("fails the step with one line naming the endpoint and the field", async () => {
    server.reply({ path: "/api/v1/sites/site_s1", method: "GET" }, { status: 200, body: site(1) });
    server.reply({ path: "/api/v1/sites/site_s1/snapshots", method: "POST" }, { status: 201, body: { id: "snap_1", site_id: "site_s1" } });
    const r = await run({ site: "site_s1" });
    expect(r.code).toBe(1);
    expect(r.errors).toEqual(['POST /api/v1/sites/site_s1/snapshots: the snapshot has no "status" (expected a string)']);
    expect(JSON.parse(r.outputs.result!)).toMatchObject({ status: "failed", snapshots: [{ site: { id: "site_s1" }, snapshot: null }] });
  });
});
