// Answers the CLI cannot read whole (issue 36, item 4), from a scripted server since the emulator always
// answers in form: a listing with a site lacking a field, or a server that ignores `page`, stops `sites list`,
// `sites matrix --out` and the fleet job with one line naming the endpoint and the field and exit 1, before
// anything is snapshotted or written (never a part of the fleet and exit 0); a snapshot answer without its
// status fails that site with such a line.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startScriptedServer, type ScriptedServer } from "../core/scripted-server.js";
import { runCli, sandbox, type Sandbox } from "./helpers.js";

const TOKEN = "sot_cliUnexpectedResponses0001";
const LIST = "/api/v1/sites?per_page=100";

let server: ScriptedServer;
let box: Sandbox;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  server = await startScriptedServer();
  box = sandbox();
  env = { ...box.env, SITEOPS_BASE_URL: server.url, SITEOPS_API_TOKEN: TOKEN, SITEOPS_MAX_RETRIES: "0", SITEOPS_POLL_INTERVAL_MS: "20" };
});
afterAll(async () => {
  await server?.close();
  box?.cleanup();
});
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
const cli = (...args: string[]) => runCli(args, { env });
const posts = () => server.requests.filter((r) => r.method !== "GET");

/** Page 1 of five sites, then `second` as page 2, with no pagination headers (so the client must ask for page 2). */
function listing(second: unknown): void {
  server.reply({ path: LIST, method: "GET" }, { status: 200, body: page(1) });
  server.reply({ path: `${LIST}&page=2`, method: "GET" }, { status: 200, body: second });
}

describe("a listing the CLI cannot read whole", () => {
  const noUrl = [site(6), site(7), site(8), { ...site(9), url: undefined }, site(10)];
  const missing = 'error: GET /api/v1/sites: site [3] of the page has no "url" (expected a string)\n';

  it("sites list: one line naming the endpoint and the field, exit 1, nothing printed", async () => {
    listing(noUrl);
    const r = await cli("sites", "list", "--json");
    expect([r.code, r.stdout, r.stderr]).toEqual([1, "", missing]);
  });

  it("snapshot create --all: exit 1 and no snapshot of any site; the report says why", async () => {
    listing(noUrl);
    const report = path.join(box.dir, "report.json");
    const r = await cli("snapshot", "create", "--all", "--trigger", "scheduled", "--report", report);
    expect([r.code, r.stdout, r.stderr]).toEqual([1, "", missing]);
    expect(posts()).toEqual([]);
    expect(JSON.parse(readFileSync(report, "utf8"))).toMatchObject({ exit_code: 1, error: { code: "UNEXPECTED_RESPONSE", message: missing.slice(7, -1) } });
  });

  it("sites matrix --out: exit 1 and no shard file", async () => {
    listing(noUrl);
    const out = path.join(box.dir, "shards");
    const r = await cli("sites", "matrix", "--shards", "2", "--out", out);
    expect([r.code, r.stdout, r.stderr]).toEqual([1, "", missing]);
    expect(existsSync(out)).toBe(false);
  });

  it("a server that ignores `page` (the same sites again): exit 1 and no snapshot", async () => {
    const ignores =
      "error: GET /api/v1/sites: page 2 holds the same items as page 1; the server does not seem to honour `page`, so the listing cannot be read whole.\n";
    listing(page(1));
    const r = await cli("snapshot", "create", "--all", "--trigger", "scheduled");
    expect([r.code, r.stdout, r.stderr]).toEqual([1, "", ignores]);
    expect(posts()).toEqual([]);
    listing(page(1));
    const list = await cli("sites", "matrix", "--shards", "2", "--with-ids");
    expect([list.code, list.stdout, list.stderr]).toEqual([1, "", ignores]);
  });

  it("a list that is not an array (a wrapped body): exit 1", async () => {
    listing({ sites: page(6) });
    const r = await cli("snapshot", "create", "--all");
    expect([r.code, r.stdout, r.stderr]).toEqual([1, "", 'error: GET /api/v1/sites: expected a JSON array of sites, got an object with "sites"\n']);
    expect(posts()).toEqual([]);
  });
});

describe("a snapshot answer without its status", () => {
  it("fails the site with one line naming the endpoint and the field, exit 1", async () => {
    server.reply({ path: "/api/v1/sites/site_s1", method: "GET" }, { status: 200, body: site(1) });
    server.reply({ path: "/api/v1/sites/site_s1/snapshots", method: "POST" }, { status: 201, body: { id: "snap_1", site_id: "site_s1" } });
    const r = await cli("snapshot", "create", "--site", "site_s1", "--json=outcome,error");
    expect(r.code).toBe(1);
    const line = 'POST /api/v1/sites/site_s1/snapshots: the snapshot has no "status" (expected a string)';
    expect(r.stderr).toContain(`error: S 1 (site_s1): ${line}\n`);
    expect(JSON.parse(r.stdout)).toEqual([{ outcome: "failed", error: { code: "UNEXPECTED_RESPONSE", message: line } }]);
  });
});

describe("an upgrade pipeline without its site_id", () => {
  it("is approved through the site it was read from", async () => {
    const pipeline = "/api/v1/sites/site_s1/upgrade_pipelines/upg_1";
    server.reply({ path: "/api/v1/sites/site_s1", method: "GET" }, { status: 200, body: site(1) });
    server.reply({ path: pipeline, method: "GET" }, { status: 200, body: { id: "upg_1", status: "awaiting_approval" } });
    server.reply({ path: `${pipeline}/approve`, method: "POST" }, { status: 200, body: { id: "upg_1", status: "running" } });
    const r = await cli("upgrade", "approve", "upg_1", "--site", "site_s1", "--no-wait", "--json=id,status");
    expect(r.stderr).toMatch(/^\S+ site_s1: pipeline upg_1 approved \(running\)\n$/);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: "upg_1", status: "running" });
    expect(server.requests.map((q) => `${q.method} ${q.path}`)).toEqual([`GET /api/v1/sites/site_s1`, `GET ${pipeline}`, `POST ${pipeline}/approve`]);
  });
});
