// `sites-file` (issue 28 item 5), run through the bundled action: shard jobs fed by the shard files of one
// listing (written by the core's writeShardFiles, as `siteops sites matrix --out` writes them) snapshot every
// site exactly once and send no listing request, as the emulator's request log (every request its HTTP server
// received) shows; a bad file is one input error naming the file and the field, before any request.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { type Site } from "../../src/index.js";
import { type ShardFile, writeShardFiles } from "../../src/fleet.js";
import { fleetEmulator } from "./fleet-emulator.js";
import { runAction } from "./run-action.js";

const TOKEN = "sot_actionSitesFileTestToken01";
const SITES = 120;
const SHARDS = 3;
const LISTING = /^GET \/api\/v1\/sites(\?|$)/;

let emu: RunningEmulator;
let fleet: Site[];
let dir: string;
const requests: string[] = [];

beforeAll(async () => {
  ({ emu, fleet } = await fleetEmulator(TOKEN, SITES));
  emu.app.server.on("request", (req: { method?: string; url?: string }) => requests.push(`${req.method} ${req.url}`));
  dir = mkdtempSync(path.join(tmpdir(), "siteops-action-sites-file-"));
  writeShardFiles(dir, fleet, SHARDS);
});
afterAll(async () => {
  await emu?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  requests.length = 0;
});

const run = (inputs: Record<string, string>) =>
  runAction({ "api-token": TOKEN, "base-url": emu.url, command: "snapshot", ...inputs }, { SITEOPS_POLL_INTERVAL_MS: "20" });
const file = (i: number) => path.join(dir, `shard-${i}-of-${SHARDS}.json`);

describe("sites-file", () => {
  it("shard jobs fed by their files snapshot every site once and list nothing", async () => {
    const runs = await Promise.all(Array.from({ length: SHARDS }, (_, i) => run({ "sites-file": file(i + 1), concurrency: "8" })));
    const seen: string[] = [];
    runs.forEach((r, i) => {
      expect(r.errors).toEqual([]);
      expect(r.code).toBe(0);
      const expected = (JSON.parse(readFileSync(file(i + 1), "utf8")) as ShardFile).sites.map((s) => s.id);
      const ids = Object.keys(JSON.parse(r.outputs["snapshot-ids"]!) as Record<string, string>);
      expect(ids.sort()).toEqual([...expected].sort());
      expect((JSON.parse(r.outputs.result!) as { shard: string }).shard).toBe(`${i + 1}/${SHARDS}`);
      expect(r.stdout).toContain(`Snapshots of ${expected.length} sites (shard ${i + 1}/${SHARDS} of ${SITES})`);
      seen.push(...ids);
    });
    expect(seen.sort()).toEqual(fleet.map((s) => s.id).sort());
    expect(requests.length).toBeGreaterThanOrEqual(2 * SITES);
    expect(requests.filter((q) => LISTING.test(q))).toEqual([]);
  });

  it("names the input, the file and the field of a bad shard file, before any request", async () => {
    const good = JSON.parse(readFileSync(file(1), "utf8")) as ShardFile;
    const bad = path.join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ ...good, sites: [good.sites[0], { ...good.sites[1], id: "nope" }] }));
    const r = await run({ "sites-file": bad });
    expect(r.code).toBe(1);
    expect(r.errors).toEqual([`Invalid input: 'sites-file' ${bad}: sites[1].id: must be a site id such as site_... (got "nope").`]);

    const missing = await run({ "sites-file": "shards/shard-1-of-3.json" });
    expect(missing.errors[0]).toContain("'sites-file' shards/shard-1-of-3.json: no such file (relative paths start at the workspace)");

    const both = await run({ "sites-file": file(1), site: "all", shard: `2/${SHARDS}` });
    expect(both.errors[0]).toContain("'sites-file' names the sites already (one shard of the fleet): give it without 'site'");
    expect(both.errors[0]).toContain(`'shard' 2/${SHARDS} disagrees with 'sites-file', which holds shard 1/${SHARDS}`);
    expect(requests).toEqual([]);
  });
});
