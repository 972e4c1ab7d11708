// One listing per fleet run (issue 28 item 5): `siteops sites matrix --shards N --out DIR` lists the fleet once
// and writes each shard's sites; `snapshot create --sites-from FILE` snapshots them without listing the fleet
// again, as the emulator's request log (every request its HTTP server received) shows; a bad file is one usage
// error naming the file and the field, before any request.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { type Site } from "../../src/index.js";
import { inShard, SHARD_FILE_FORMAT, type ShardFile } from "../../src/fleet.js";
import { fleetEmulator } from "../action/fleet-emulator.js";
import { json, runCli, sandbox, type Sandbox } from "./helpers.js";

const TOKEN = "sot_cliShardFilesTestToken0001";
const SITES = 150; // two pages of the listing
const SHARDS = 4;
const LISTING = /^GET \/api\/v1\/sites(\?|$)/;

let emu: RunningEmulator;
let fleet: Site[];
let box: Sandbox;
let env: NodeJS.ProcessEnv;
let out: string;
const requests: string[] = [];

beforeAll(async () => {
  ({ emu, fleet } = await fleetEmulator(TOKEN, SITES));
  emu.app.server.on("request", (req: { method?: string; url?: string }) => requests.push(`${req.method} ${req.url}`));
  box = sandbox();
  env = { ...box.env, SITEOPS_BASE_URL: emu.url, SITEOPS_API_TOKEN: TOKEN, SITEOPS_POLL_INTERVAL_MS: "20" };
  out = mkdtempSync(path.join(tmpdir(), "siteops-shard-files-"));
});
afterAll(async () => {
  await emu?.close();
  box?.cleanup();
  if (out) rmSync(out, { recursive: true, force: true });
});
beforeEach(() => {
  requests.length = 0;
});

const shardFile = (i: number) => path.join(out, "shards", `shard-${i}-of-${SHARDS}.json`);

describe("sites matrix --out, snapshot create --sites-from", () => {
  it("sites matrix --out lists the fleet once and writes every site into exactly one shard file", async () => {
    const r = await runCli(["sites", "matrix", "--shards", String(SHARDS), "--out", path.join(out, "shards")], { env });
    expect(r.stderr).toBe(`wrote ${SHARDS} shard files of ${SITES} sites and matrix.json into ${path.join(out, "shards")}\n`);
    expect(r.code).toBe(0);
    const matrix = json<{ include: { shard: string; sites_file: string }[] }>(r);
    expect(matrix.include).toEqual(Array.from({ length: SHARDS }, (_, i) => ({ shard: `${i + 1}/${SHARDS}`, sites_file: `shard-${i + 1}-of-${SHARDS}.json` })));
    expect(JSON.parse(readFileSync(path.join(out, "shards", "matrix.json"), "utf8"))).toEqual(matrix);
    expect(requests.filter((q) => LISTING.test(q))).toHaveLength(2); // 150 sites, 100 a page

    const seen: string[] = [];
    for (let i = 1; i <= SHARDS; i++) {
      const file = JSON.parse(readFileSync(shardFile(i), "utf8")) as ShardFile;
      expect(file).toMatchObject({ format: SHARD_FILE_FORMAT, shard: `${i}/${SHARDS}`, fleet_size: SITES });
      for (const site of file.sites) {
        expect(inShard(site.id, { index: i, count: SHARDS })).toBe(true);
        expect(site).toEqual(fleet.find((s) => s.id === site.id));
      }
      seen.push(...file.sites.map((s) => s.id));
    }
    expect(seen.sort()).toEqual(fleet.map((s) => s.id).sort());
  });

  it("each shard job fed by its file snapshots its sites and sends no listing request", async () => {
    const snapshotted: string[] = [];
    for (let i = 1; i <= SHARDS; i++) {
      requests.length = 0;
      const r = await runCli(["snapshot", "create", "--sites-from", shardFile(i), "--concurrency", "8", "--json", "--quiet"], { env });
      expect(r.code, r.stderr).toBe(0);
      const records = json<{ site: { id: string }; outcome: string }[]>(r);
      expect(records.every((rec) => rec.outcome === "completed")).toBe(true);
      expect(requests.filter((q) => LISTING.test(q))).toEqual([]);
      // Only the snapshots' own requests: create and polls, per site of the shard.
      expect(requests.every((q) => /^(POST|GET) \/api\/v1\/sites\/site_\w+\/snapshots/.test(q))).toBe(true);
      snapshotted.push(...records.map((rec) => rec.site.id));
    }
    expect(snapshotted.sort()).toEqual(fleet.map((s) => s.id).sort());
  });

  it("refuses a bad shard file naming the file and the field, before any request (exit 2)", async () => {
    const good = JSON.parse(readFileSync(shardFile(1), "utf8")) as ShardFile;
    const other = JSON.parse(readFileSync(shardFile(2), "utf8")) as ShardFile;
    const bad = path.join(out, "bad.json");
    const cases: [string | object, string][] = [
      ["{ not json", `--sites-from ${bad}: not JSON (`],
      [{ ...good, format: "v2" }, `--sites-from ${bad}: format: must be "${SHARD_FILE_FORMAT}" (got "v2")`],
      [{ ...good, shard: "5/4" }, `--sites-from ${bad}: shard: "5/4": the index must be from 1 to 4`],
      [{ ...good, sites: [good.sites[0], { ...good.sites[1], name: 7 }] }, `--sites-from ${bad}: sites[1].name: must be a string (got 7)`],
      [
        { ...good, sites: [good.sites[0], other.sites[0]] },
        `--sites-from ${bad}: sites[1].id: ${other.sites[0]!.id} belongs to shard 2/${SHARDS}, not 1/${SHARDS}`,
      ],
      [{ ...good, sites: [good.sites[0], good.sites[0]] }, `--sites-from ${bad}: sites[1].id: ${good.sites[0]!.id} is listed twice`],
    ];
    for (const [content, message] of cases) {
      writeFileSync(bad, typeof content === "string" ? content : JSON.stringify(content));
      const r = await runCli(["snapshot", "create", "--sites-from", bad], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`error: ${message}`);
      expect(r.stderr).not.toMatch(/at \w+ \(/);
    }
    const missing = await runCli(["snapshot", "create", "--sites-from", path.join(out, "nope.json")], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`error: --sites-from ${path.join(out, "nope.json")}: no such file`);
    const both = await runCli(["snapshot", "create", "--all", "--sites-from", shardFile(1)], { env });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--sites-from names the sites already (one shard of the fleet): give it without --site, --all, --status or --shard");
    expect(requests).toEqual([]);
  });
});
