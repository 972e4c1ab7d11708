// `siteops snapshot prune` keeps exactly what restic's `forget` keeps. The fixture: 39 completed snapshots of
// one site at fixed dates (2099-2100: monthly, then weekly, then nightly with extra runs), made by moving the
// emulator's clock to each date, plus one failed and one still running. The expected keep lists were produced by
// restic 0.14.0 (`restic forget --dry-run --json` over a repository with snapshots at the same times, TZ=UTC);
// where a rule has periods left at the oldest snapshot, restic >= 0.16 also keeps the oldest one (restic PR
// #4366), which the two last cases show.
import { beforeAll, describe, expect, it } from "vitest";
import type { Snapshot } from "../../src/index.js";
import { json, runCli, useTestBed } from "./helpers.js";

const TIMES = [
  "2099-01-05T03:00",
  "2099-01-20T03:00",
  "2099-02-15T03:00",
  "2099-03-15T03:00",
  "2099-04-15T03:00",
  "2099-05-15T03:00",
  "2099-06-15T03:00",
  "2099-07-15T03:00",
  "2099-08-15T03:00",
  "2099-09-15T03:00",
  "2099-10-15T03:00",
  "2099-11-15T03:00",
  "2099-12-15T03:00",
  "2100-01-03T03:00",
  "2100-01-10T03:00",
  "2100-01-17T03:00",
  "2100-01-24T03:00",
  "2100-01-31T03:00",
  "2100-02-07T03:00",
  "2100-02-14T03:00",
  "2100-02-21T03:00",
  "2100-02-22T03:00",
  "2100-02-23T03:00",
  "2100-02-24T03:00",
  "2100-02-25T03:00",
  "2100-02-26T03:00",
  "2100-02-27T03:00",
  "2100-02-28T03:00",
  "2100-03-01T03:00",
  "2100-03-02T03:00",
  "2100-03-02T15:00",
  "2100-03-03T03:00",
  "2100-03-04T03:00",
  "2100-03-05T03:00",
  "2100-03-05T15:00",
  "2100-03-05T15:30",
  "2100-03-06T03:00",
  "2100-03-06T09:00",
  "2100-03-06T10:00",
];

const EXPECTED: [string[], string[]][] = [
  [
    ["--keep-last", "3", "--keep-daily", "7", "--keep-weekly", "4", "--keep-monthly", "6"],
    [
      "2099-10-15T03:00",
      "2099-11-15T03:00",
      "2099-12-15T03:00",
      "2100-01-31T03:00",
      "2100-02-14T03:00",
      "2100-02-21T03:00",
      "2100-02-28T03:00",
      "2100-03-01T03:00",
      "2100-03-02T15:00",
      "2100-03-03T03:00",
      "2100-03-04T03:00",
      "2100-03-05T15:30",
      "2100-03-06T03:00",
      "2100-03-06T09:00",
      "2100-03-06T10:00",
    ],
  ],
  [
    ["--keep-daily", "5", "--keep-weekly", "2"],
    ["2100-02-28T03:00", "2100-03-02T15:00", "2100-03-03T03:00", "2100-03-04T03:00", "2100-03-05T15:30", "2100-03-06T10:00"],
  ],
  [
    ["--keep-hourly", "4", "--keep-yearly", "2"],
    ["2099-12-15T03:00", "2100-03-05T15:30", "2100-03-06T03:00", "2100-03-06T09:00", "2100-03-06T10:00"],
  ],
  [["--keep-last", "1"], ["2100-03-06T10:00"]],
  // --older-than is restic's --keep-within: measured back from the newest snapshot.
  [
    ["--older-than", "7d"],
    [
      "2100-02-28T03:00",
      "2100-03-01T03:00",
      "2100-03-02T03:00",
      "2100-03-02T15:00",
      "2100-03-03T03:00",
      "2100-03-04T03:00",
      "2100-03-05T03:00",
      "2100-03-05T15:00",
      "2100-03-05T15:30",
      "2100-03-06T03:00",
      "2100-03-06T09:00",
      "2100-03-06T10:00",
    ],
  ],
  [
    ["--older-than", "30d", "--keep-monthly", "2"],
    ["2100-02-07T03:00", "2100-02-14T03:00", "2100-02-21T03:00", ...TIMES.slice(TIMES.indexOf("2100-02-22T03:00"))],
  ],
  // restic >= 0.16: rules with periods left keep the oldest snapshot too (2099-01-05, a second one in its month).
  [
    ["--keep-monthly", "20"],
    [
      "2099-01-05T03:00",
      "2099-01-20T03:00",
      ...TIMES.filter((t) => /^2099-(0[2-9]|1[0-2])-15/.test(t)),
      "2100-01-31T03:00",
      "2100-02-28T03:00",
      "2100-03-06T10:00",
    ],
  ],
  [
    ["--keep-weekly", "3", "--keep-yearly", "5"],
    ["2099-01-05T03:00", "2099-12-15T03:00", "2100-02-21T03:00", "2100-02-28T03:00", "2100-03-06T10:00"],
  ],
];

const bed = useTestBed({}, { SITEOPS_POLL_INTERVAL_MS: "20" });
let siteId: string;
const idAt = new Map<string, string>();
let failed: Snapshot;
let running: Snapshot;

async function moveClockTo(iso: string): Promise<void> {
  let left = (Date.parse(`${iso}:00Z`) - bed.emu.now()) / 1000;
  if (left < 0) throw new Error(`the emulator clock is past ${iso}`);
  const max = 10 * 365 * 86_400; // the control API's largest step
  for (; left > 0; left -= max) await bed.emu.advanceClock(Math.min(left, max));
}

beforeAll(async () => {
  siteId = (await bed.emu.so.sites.create({ name: "Archive", url: "https://archive.acme.test" })).id;
  for (const time of TIMES) {
    await moveClockTo(time);
    const snap = await bed.emu.so.operations.createSnapshot(siteId, { pollInterval: 10 });
    expect(snap.created_at.slice(0, 16)).toBe(time);
    idAt.set(time, snap.id);
  }
  // A capture while the site is down fails; an upload snapshot without data stays requested.
  await bed.emu.control("POST", "health_checks", { site_id: siteId, status: "failed" });
  failed = await bed.emu.so.operations.createSnapshot(siteId, { pollInterval: 10 }).catch((e: { resource: Snapshot }) => e.resource);
  expect(failed.status).toBe("failed");
  await bed.emu.control("POST", "health_checks", { site_id: siteId, status: "passed" });
  running = await bed.emu.so.snapshots.create(siteId, { upload: true });
}, 120_000);

interface PruneJson {
  site: { id: string };
  dry_run: boolean;
  snapshots: { snapshot: Snapshot; action: string; reasons: string[] }[];
  error: null;
}

describe("snapshot prune", () => {
  for (const [policy, keep] of EXPECTED) {
    it(`keeps what restic keeps: ${policy.join(" ")}`, async () => {
      const r = await runCli(["snapshot", "prune", "--site", "Archive", ...policy, "--dry-run", "--utc", "--json"], { env: bed.env });
      expect(r.code, r.stderr).toBe(0);
      const [record] = json<PruneJson[]>(r);
      const action = new Map(record!.snapshots.map((s) => [s.snapshot.id, s]));
      const kept = TIMES.filter((t) => action.get(idAt.get(t)!)!.action === "keep");
      expect(kept).toEqual(keep);
      expect(action.get(running.id)).toMatchObject({ action: "keep", reasons: ["still running"] });
      // A failed snapshot counts for no rule; --older-than still protects a recent one.
      const within = policy.includes("--older-than") ? `within ${policy[policy.indexOf("--older-than") + 1]}` : undefined;
      expect(action.get(failed.id)).toMatchObject(within ? { action: "keep", reasons: [within] } : { action: "delete", reasons: ["failed"] });
      expect(record!.dry_run).toBe(true);
    });
  }

  it("says why: restic's reasons for each snapshot kept", async () => {
    const r = await runCli(
      ["snapshot", "prune", "--site", "Archive", "--keep-last", "3", "--keep-daily", "7", "--keep-weekly", "4", "--keep-monthly", "6", "--dry-run", "--json"],
      { env: bed.env },
    );
    const reasons = new Map(json<PruneJson[]>(r)[0]!.snapshots.map((s) => [s.snapshot.created_at.slice(0, 16), s.reasons]));
    expect(reasons.get("2100-03-06T10:00")).toEqual(["last snapshot", "daily snapshot", "weekly snapshot", "monthly snapshot"]);
    expect(reasons.get("2100-02-28T03:00")).toEqual(["daily snapshot", "weekly snapshot", "monthly snapshot"]);
    expect(reasons.get("2099-10-15T03:00")).toEqual(["monthly snapshot"]);
    expect(reasons.get("2099-09-15T03:00")).toEqual(["no rule keeps it"]);
    // Not a terminal: one tab-separated line per snapshot (site, action, id, created, status, size, reasons).
    const tsv = await runCli(["snapshot", "prune", "--site", "Archive", "--keep-last", "1", "--dry-run"], { env: bed.env });
    const lines = tsv.stdout
      .trim()
      .split("\n")
      .map((l) => l.split("\t"));
    expect(lines).toHaveLength(TIMES.length + 2);
    expect(lines.find((l) => l[2] === idAt.get("2100-03-06T10:00"))).toEqual([
      siteId,
      "keep",
      idAt.get("2100-03-06T10:00"),
      expect.stringMatching(/^2100-03-06T10:00/),
      "completed",
      expect.stringMatching(/^\d+$/),
      "last snapshot",
    ]);
    expect(tsv.stderr).toMatch(/Archive: would delete 39 of 41 snapshots, kept 2/);
  });

  it("deletes what the policy does not keep, and nothing else", async () => {
    const [policy, keep] = EXPECTED[0]!;
    const r = await runCli(["snapshot", "prune", "--site", "Archive", ...policy, "--json"], { env: bed.env });
    expect(r.code, r.stderr).toBe(0);
    const actions = json<PruneJson[]>(r)[0]!.snapshots.map((s) => s.action);
    expect(actions.filter((a) => a === "deleted")).toHaveLength(TIMES.length - keep.length + 1);
    const left = new Set((await bed.emu.so.snapshots.list(siteId, { per_page: 100 }).toArray()).map((s) => s.id));
    expect(left).toEqual(new Set([...keep.map((t) => idAt.get(t)!), running.id]));
    // Run again: nothing more to delete.
    const again = await runCli(["snapshot", "prune", "--site", "Archive", ...policy, "--quiet"], { env: bed.env });
    expect(again).toMatchObject({ code: 0, stdout: "", stderr: "" });
  });

  it("a snapshot the service refuses to delete (a running pipeline uses it) is kept with a warning, exit 0", async () => {
    const site = await bed.emu.so.sites.create({ name: "Upgrading", url: "https://upgrading.acme.test", wp_version: "6.3" });
    const pipeline = await bed.emu.so.operations.openUpgrade(site.id, { to_wp_version: "6.4" }, { pollInterval: 10 });
    expect(pipeline.status).toBe("awaiting_approval");
    await bed.emu.so.operations.createSnapshot(site.id, { pollInterval: 10 });
    const r = await runCli(["snapshot", "prune", "--site", "Upgrading", "--keep-last", "1", "--json"], { env: bed.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(`warning: Upgrading \\(${site.id}\\): snapshot ${pipeline.snapshot_id} kept: the service refused to delete it: .*\\[HTTP 422`),
    );
    const refused = json<PruneJson[]>(r)[0]!.snapshots.find((s) => s.snapshot.id === pipeline.snapshot_id);
    expect(refused).toMatchObject({ action: "refused" });
  });
});
