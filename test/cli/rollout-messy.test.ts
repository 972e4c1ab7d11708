// `siteops upgrade rollout` on a messy fleet (issue 47): sites already at the target or newer leave the waves (listed
// apart, in --dry-run too) and count in no wave's size or budget, the canary is a site that needs the upgrade; nothing
// is opened after a wave's deadline; the run's own retried create answered by a replay is `opened`; a refused create
// reads the site again (`already_upgraded` when it is at the target by then); a target the service refuses is a
// usage error (exit 2 in the service's words, nothing opened); waves merged on this fleet are said; the command that
// continues a stopped rollout is shell-quoted.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Site } from "../../src/index.js";
import { parseWaves, planWaves } from "../../src/fleet.js";
import { runCli, useTestBed } from "./helpers.js";

const bed = useTestBed({}, {}, { each: true });

interface Report {
  exit_code: number;
  outcome: string;
  summary: Record<string, number>;
  waves: { wave: number; verdict: string; size: number; allowed: number; counts: Record<string, number> }[];
  results: {
    site: { id: string; name: string };
    wave: number | null;
    outcome: string;
    opened: boolean;
    adopted: boolean;
    pipeline: { id: string; status: string } | null;
    error: { code: string; status: number | null; request_id: string | null; message: string } | null;
  }[];
}
const readReport = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Report;

/** Sites named `${prefix} N` at these WordPress versions. */
async function sites(prefix: string, versions: readonly string[]): Promise<Site[]> {
  const out: Site[] = [];
  for (const [i, wp] of versions.entries()) {
    const n = String(i + 1).padStart(3, "0");
    out.push(await bed.emu.so.sites.create({ name: `${prefix} ${n}`, url: `https://${prefix.toLowerCase()}-${n}.messy.test`, wp_version: wp }));
  }
  return out;
}
const siteFlags = (list: readonly Site[]) => list.flatMap((s) => ["--site", s.id]);
const pipelines = async (site: Site) => bed.emu.so.upgradePipelines.list(site.id).toArray();

describe("sites already at the target", () => {
  it("leave the waves: listed apart, never counted in a wave's size or budget; the canary needs the upgrade", async () => {
    // 4 below the target, 4 at it, 2 above it.
    const fleet = await sites("Mixed", ["6.5", "6.5", "6.5", "6.5", "6.8", "6.8", "6.8", "6.8", "6.9", "6.9"]);
    const below = fleet.slice(0, 4);
    const file = path.join(bed.box.dir, "mixed.json");
    const args = ["upgrade", "rollout", ...siteFlags(fleet), "--to-wp", "6.8", "--waves", "1,50%,100%", "--gate", "pipeline"];

    const plan = await runCli([...args, "--dry-run", "--json"], { env: bed.env });
    expect(plan.code, plan.stderr).toBe(0);
    const planned = JSON.parse(plan.stdout) as { wave: number | null; site: { id: string } }[];
    expect(
      planned
        .filter((x) => x.wave !== null)
        .map((x) => x.site.id)
        .sort(),
    ).toEqual(below.map((s) => s.id).sort());
    expect(planned.filter((x) => x.wave === null)).toHaveLength(6);
    expect(plan.stderr).toMatch(
      /^wave 1\/3: 1 site \(Mixed \d+\)\nwave 2\/3: 1 site \(Mixed \d+\)\nwave 3\/3: 2 sites \(Mixed \d+, Mixed \d+\)\n6 sites already at WordPress 6\.8 or newer: in no wave \((Mixed \d+, ){5}\.\.\.\)\n$/,
    );

    const r = await runCli([...args, "--report", file], { env: bed.env });
    expect(r.code, r.stderr).toBe(0);
    const doc = readReport(file);
    expect(doc.waves.map((w) => [w.wave, w.verdict, w.size, w.counts.passed])).toEqual([
      [1, "passed", 1, 1],
      [2, "passed", 1, 1],
      [3, "passed", 2, 2],
    ]);
    const canary = doc.results.find((x) => x.wave === 1)!;
    expect(below.map((s) => s.id)).toContain(canary.site.id);
    expect(doc.results.filter((x) => x.wave === null).map((x) => x.outcome)).toEqual(Array(6).fill("already_upgraded"));
    expect(doc.summary).toMatchObject({ passed: 4, already_upgraded: 6, opened: 4, adopted: 0, failed: 0 });
    expect(r.stderr).toMatch(/wave 1\/3: 1 site, 1 passed, 0 failed \(at most 0 allowed\): passed/);
    for (const s of fleet.slice(4)) expect(await pipelines(s)).toEqual([]);
  });
});

describe("a wave's deadline and budget", () => {
  it("nothing is opened after the wave's deadline: the sites not started by then are untouched", async () => {
    const fleet = await sites("Late", ["6.5", "6.5", "6.5"]);
    const file = path.join(bed.box.dir, "late.json");
    // Approval required and never given: the first site's pipeline waits past the wave's 2 s.
    const r = await runCli(
      [
        "upgrade",
        "rollout",
        ...siteFlags(fleet),
        "--to-wp",
        "6.8",
        "--waves",
        "100%",
        "--concurrency",
        "1",
        "--require-approval",
        "--timeout",
        "2s",
        "--report",
        file,
      ],
      { env: bed.env },
    );
    expect(r.code, r.stderr).toBe(4);
    const doc = readReport(file);
    expect(doc.results.map((x) => x.outcome).sort()).toEqual(["timed_out", "untouched", "untouched"]);
    const held = await Promise.all(fleet.map(pipelines));
    expect(held.map((p) => p.length).sort()).toEqual([0, 0, 1]);
  });
});

describe("what the service answers", () => {
  it("the run's own create, its answer lost and replayed by the service on the retry, is opened, not adopted", async () => {
    const [site] = await sites("Lost", ["6.5"]);
    await bed.emu.control("POST", "faults", {
      rules: [{ method: "POST", path: "/api/v1/sites/*/upgrade_pipelines", phase: "after", reset_connection: true, count: 1 }],
    });
    const file = path.join(bed.box.dir, "lost.json");
    const r = await runCli(["upgrade", "rollout", "--site", site!.id, "--to-wp", "6.8", "--waves", "100%", "--gate", "pipeline", "--report", file], {
      env: bed.env,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(readReport(file).results[0]).toMatchObject({ outcome: "passed", opened: true, adopted: false });
    expect(readReport(file).summary).toMatchObject({ opened: 1, adopted: 0 });
    expect(r.stderr).toMatch(/Lost 001: pipeline upg_\w+ opened/);
    expect(r.stderr).not.toMatch(/pipeline upg_\w+ adopted/);
    expect(await pipelines(site!)).toHaveLength(1);
  });

  it("a refused create with no active pipeline reads the site again: at the target by then, it is already upgraded", async () => {
    const [site] = await sites("Stale", ["6.5"]);
    const dir = path.join(bed.box.dir, "stale");
    const listed = await runCli(["sites", "matrix", "--shards", "1", "--out", dir, "--quiet"], { env: bed.env });
    expect(listed.code, listed.stderr).toBe(0);
    // Upgraded by hand after the fleet was listed: the listing says 6.5, the service 6.8.
    await bed.emu.so.sites.update(site!.id, { wp_version: "6.8" });
    const file = path.join(bed.box.dir, "stale.json");
    const r = await runCli(
      ["upgrade", "rollout", "--sites-from", path.join(dir, "shard-1-of-1.json"), "--to-wp", "6.8", "--waves", "100%", "--gate", "pipeline", "--report", file],
      { env: bed.env },
    );
    expect(r.code, r.stderr).toBe(0);
    const mine = readReport(file).results.find((x) => x.site.id === site!.id)!;
    expect(mine).toMatchObject({ outcome: "already_upgraded", pipeline: null, error: null });
    expect(await pipelines(site!)).toEqual([]);
  });

  it("a target the service refuses is a usage error: exit 2 in the service's words, no pipeline opened for any site", async () => {
    const fleet = await sites("Nine", ["6.5", "6.5", "6.5", "6.5"]);
    const file = path.join(bed.box.dir, "nine.json");
    const r = await runCli(["upgrade", "rollout", ...siteFlags(fleet), "--to-wp", "9.9", "--waves", "1,100%", "--report", file], { env: bed.env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/the service refuses the target WordPress 9\.9: to_wp_version is not included in the list/);
    expect(r.stderr).not.toMatch(/once the failed sites are dealt with/);
    const doc = readReport(file);
    expect(doc.outcome).toBe("refused");
    expect(doc.results.filter((x) => x.outcome === "untouched")).toHaveLength(3);
    for (const s of fleet) expect(await pipelines(s)).toEqual([]);
  });
});

describe("what is printed", () => {
  it("waves merged on this fleet are said; the command that continues a stopped rollout is shell-quoted", async () => {
    const fleet = await sites("Client", Array(20).fill("6.5"));
    // 5% of 20 sites is 1, not above the first wave's 3: the second wave takes no site of its own.
    const plan = await runCli(["upgrade", "rollout", ...siteFlags(fleet), "--to-wp", "6.8", "--waves", "3,5%,100%", "--dry-run"], { env: bed.env });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toMatch(/note: wave 2 \(5%\) takes no site beyond wave 1 \(3\) of these 20 sites: merged into it/);

    const canary = planWaves(fleet.slice(0, 4), parseWaves("1,100%"), { wp: "6.8" })[0]![0]!;
    await bed.emu.control("POST", "pipeline-outcomes", { rules: [{ site_id: canary.id, outcome: "roll_back" }] });
    const names = fleet
      .filter((s) => s.id !== canary.id)
      .slice(0, 3)
      .flatMap((s) => ["--site", s.name]);
    const r = await runCli(["upgrade", "rollout", ...names, "--site", canary.id, "--to-wp", "6.8", "--waves", "1,100%", "--gate", "pipeline"], {
      env: bed.env,
    });
    expect(r.code, r.stderr).toBe(5);
    const quoted = names.filter((_, i) => i % 2 === 1).map((name) => `--site '${name}'`);
    expect(r.stderr).toContain(`siteops upgrade rollout ${quoted.join(" ")} --site ${canary.id} --to-wp 6.8`);
  });
});
