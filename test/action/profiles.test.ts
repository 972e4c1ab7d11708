// The action's fleet snapshot (issue 36, item 6) against both emulator profiles, run through the bundle as the
// runner runs it: `site: all` snapshots all 23 sites of test/core/profile-fleet.ts though the minimal profile
// pages by 5 without saying so, and the shard files of the built CLI's `siteops sites matrix --out` (ids of 6
// characters in minimal) feed `sites-file` jobs that together snapshot every site exactly once.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROFILES } from "../support/emulator.js";
import { ROOT } from "../support/paths.js";
import { start } from "../support/processes.js";
import { removeDir, tempDir } from "../support/temp.js";
import { FLEET_SIZE, FLEET_TOKEN, startProfileFleet, type ProfileFleet } from "../core/profile-fleet.js";
import { runAction, type ActionRun } from "./run-action.js";

describe.each(PROFILES)("profile %s", (profile) => {
  let fx: ProfileFleet;
  let dir: string;
  beforeAll(async () => {
    fx = await startProfileFleet(profile);
    dir = tempDir("action-profiles");
  });
  afterAll(async () => {
    await fx?.close();
    if (dir) removeDir(dir);
  });

  const run = (inputs: Record<string, string>) =>
    runAction({ "api-token": FLEET_TOKEN, "base-url": fx.url, command: "snapshot", concurrency: "8", ...inputs }, { SITEOPS_POLL_INTERVAL_MS: "20" });
  const snapshotIds = (r: ActionRun) => JSON.parse(r.outputs["snapshot-ids"]!) as Record<string, string>;

  it("site: all snapshots every site, each once, completed", async () => {
    const r = await run({ site: "all" });
    expect(r.errors).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Snapshots of ${FLEET_SIZE} sites, 8 at a time`);
    expect(r.outputs.status).toBe("completed");
    const ids = snapshotIds(r);
    expect(Object.keys(ids).sort()).toEqual(fx.sites.map((s) => s.id).sort());
    // Through the API: the snapshot the output names is the site's one snapshot, completed.
    for (const site of fx.sites) {
      const snapshots = await fx.so.snapshots.list(site.id).toArray();
      expect(snapshots.map((s) => [s.id, s.status])).toEqual([[ids[site.id], "completed"]]);
    }
  });

  it("sites-file jobs fed by `siteops sites matrix --out` cover every site exactly once", async () => {
    const out = path.join(dir, "shards");
    const env = { PATH: process.env.PATH, HOME: dir, SITEOPS_BASE_URL: fx.url, SITEOPS_API_TOKEN: FLEET_TOKEN };
    const matrix = await start(process.execPath, [path.join(ROOT, "bin/siteops.js"), "sites", "matrix", "--shards", "2", "--out", out], { env }).done;
    expect(matrix.stderr).toBe(`wrote 2 shard files of ${FLEET_SIZE} sites and matrix.json into ${out}\n`);
    expect(matrix.code).toBe(0);
    const { include } = JSON.parse(matrix.stdout) as { include: { shard: string; sites_file: string }[] };

    const runs = await Promise.all(include.map((entry) => run({ "sites-file": path.join(out, entry.sites_file) })));
    const seen: string[] = [];
    runs.forEach((r, i) => {
      expect(r.errors).toEqual([]);
      expect(r.code).toBe(0);
      expect((JSON.parse(r.outputs.result!) as { shard: string }).shard).toBe(include[i]!.shard);
      seen.push(...Object.keys(snapshotIds(r)));
    });
    expect(seen.sort()).toEqual(fx.sites.map((s) => s.id).sort());
  });
});
