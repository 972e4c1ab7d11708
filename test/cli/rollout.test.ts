// `siteops upgrade rollout` against the emulator: a three-wave rollout that passes its gates, the plan of
// --dry-run, a second run of the same rollout locked out, and refusals of bad flags before any request.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, startCli, useTestBed } from "./helpers.js";

const bed = useTestBed();

interface Report {
  exit_code: number;
  outcome: string;
  summary: Record<string, number>;
  waves: { wave: number; verdict: string; size: number; counts: Record<string, number> }[];
  results: { site: { id: string; name: string }; wave: number | null; outcome: string; adopted: boolean; pipeline: { id: string; status: string } | null }[];
}

beforeAll(async () => {
  for (let i = 1; i <= 8; i++) await bed.emu.so.sites.create({ name: `Fleet ${i}`, url: `https://fleet${i}.acme.test`, wp_version: "6.7", php_version: "8.2" });
});

describe("siteops upgrade rollout", () => {
  it("runs a three-wave rollout: every site upgraded and judged on its pipeline and a health check after it", async () => {
    const file = path.join(bed.box.dir, "rollout.json");
    const r = await runCli(
      ["upgrade", "rollout", "--all", "--to-wp", "6.8", "--waves", "1,50%,100%", "--gate", "pipeline,health", "--pause", "20ms", "--report", file],
      {
        env: bed.env,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(file, "utf8")) as Report;
    expect(doc.outcome).toBe("done");
    // Shop is at WordPress 6.9 already (the seed): in no wave, no pipeline, no failure; the waves are of the other 9.
    expect(doc.waves.map((w) => [w.wave, w.verdict, w.size])).toEqual([
      [1, "passed", 1],
      [2, "passed", 4],
      [3, "passed", 4],
    ]);
    const shop = doc.results.find((x) => x.site.name === "Shop")!;
    expect([shop.wave, shop.outcome, shop.pipeline]).toEqual([null, "already_upgraded", null]);
    const others = doc.results.filter((x) => x !== shop);
    expect(others.every((x) => x.outcome === "passed" && x.pipeline?.status === "succeeded" && !x.adopted)).toBe(true);
    expect(r.stderr).toMatch(/wave 1\/3: 1 site, 1 passed, 0 failed \(at most 0 allowed\): passed/);
    expect(r.stderr.match(/pausing 20 ms before wave \d/g)).toEqual(["pausing 20 ms before wave 2", "pausing 20 ms before wave 3"]);
    expect(r.stderr).toMatch(/done: 10 sites: 9 passed, 1 already at WordPress 6\.8 or newer; 9 pipelines opened, 0 adopted, in /);
    for (const site of await bed.emu.so.sites.list().toArray()) expect(site.wp_version).toBe(site.name === "Shop" ? "6.9" : "6.8");
  });

  it("--dry-run prints the waves and their sites, the same on every run, and opens nothing", async () => {
    const args = ["upgrade", "rollout", "--all", "--to-php", "8.3", "--waves", "2,100%", "--dry-run", "--json"];
    const a = await runCli(args, { env: bed.env });
    expect(a.code, a.stderr).toBe(0);
    const plan = JSON.parse(a.stdout) as { wave: number | null; site: { id: string; name: string } }[];
    // Shop runs PHP 8.3 already: listed apart, in no wave.
    expect(plan.map((x) => x.wave)).toEqual([1, 1, ...Array.from({ length: plan.length - 3 }, () => 2), null]);
    expect(plan.at(-1)!.site.name).toBe("Shop");
    expect(a.stderr).toMatch(
      /^wave 1\/2: 2 sites \([^,)]+, [^,)]+\)\nwave 2\/2: \d+ sites \(([^,)]+, ){5}\.\.\.\)\n1 site already at PHP 8\.3 or newer: in no wave \(Shop\)\n$/,
    );
    expect((await runCli(args, { env: bed.env })).stdout).toBe(a.stdout);
    for (const x of plan.filter((p) => p.wave !== null))
      expect((await bed.emu.so.upgradePipelines.list(x.site.id).toArray()).filter((p) => p.to_php_version === "8.3")).toEqual([]);
  });

  it("a second run of the same rollout while the first runs exits 75, whatever its output flags", async () => {
    const sites = (await bed.emu.so.sites.list().toArray()).filter((s) => s.name.startsWith("Fleet")).slice(0, 2);
    const args = ["upgrade", "rollout", "--site", sites[0]!.id, "--site", sites[1]!.id, "--to-php", "8.4", "--require-approval", "--window", "0"];
    const first = startCli(args, { env: bed.env });
    await first.waitFor(/awaits approval/);
    // The same sites in another order, other output flags: the same job.
    const second = await runCli(["upgrade", "rollout", "--site", sites[1]!.id, "--site", sites[0]!.id, "--to-php", "8.4", "--quiet"], { env: bed.env });
    expect(second.code, second.stderr).toBe(75);
    first.child.kill("SIGINT");
    const end = await first.done;
    expect(end.code, end.stderr).toBe(130);
    expect(end.stderr).toMatch(/interrupted \(pipelines already opened carry on in the service\)/);
  });

  it("a wave not judged within --timeout ends the rollout with exit 4, later waves untouched; a rerun follows its pipelines", async () => {
    const sites = [];
    for (let i = 1; i <= 3; i++) sites.push(await bed.emu.so.sites.create({ name: `Slow ${i}`, url: `https://slow${i}.acme.test`, wp_version: "6.5" }));
    const command = ["upgrade", "rollout", ...sites.flatMap((s) => ["--site", s.id]), "--to-wp", "6.6", "--waves", "1,100%", "--gate", "pipeline"];
    const file = path.join(bed.box.dir, "timeout.json");
    // Approval required and never given in time: the canary's pipeline cannot end within the wave's --timeout.
    const r = await runCli([...command, "--require-approval", "--timeout", "1s", "--report", file], { env: bed.env });
    expect(r.code, r.stderr).toBe(4);
    const doc = JSON.parse(readFileSync(file, "utf8")) as Report;
    expect([doc.outcome, doc.waves.map((w) => w.verdict)]).toEqual(["timed_out", ["timed_out", "not_started"]]);
    const canary = doc.results.find((x) => x.wave === 1)!;
    expect(canary).toMatchObject({ outcome: "timed_out", pipeline: { status: "awaiting_approval" } });
    expect(r.stderr).toMatch(/stopped at wave 1: its time ran out before every site was judged \(their pipelines carry on\)/);
    expect(r.stderr).toMatch(/left untouched: 2 sites \(wave 2\)/);

    await bed.emu.so.upgradePipelines.approve(canary.site.id, canary.pipeline!.id);
    const again = await runCli([...command, "--report", file], { env: bed.env });
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(readFileSync(file, "utf8")) as Report).summary).toMatchObject({ passed: 3, adopted: 1, opened: 2 });
    for (const s of sites) expect(await bed.emu.so.upgradePipelines.list(s.id).toArray()).toHaveLength(1);
  });

  it("refuses bad flags at once, naming the flag, before any request", async () => {
    const env = { ...bed.env, SITEOPS_BASE_URL: "http://127.0.0.1:9" };
    for (const [flags, message] of [
      [["--all"], /give the target: --to-wp X.Y and\/or --to-php X.Y/],
      [["--all", "--to-wp", "6"], /--to-wp must be a major.minor version/],
      [["--all", "--to-wp", "6.8", "--waves", "1,10%"], /--waves: the last wave must be 100%/],
      [["--all", "--to-wp", "6.8", "--gate", "pipeline,smoke"], /--gate must name pipeline, health, http, visual \(got "smoke"\)/],
      [["--all", "--to-wp", "6.8", "--max-failures", "lots"], /--max-failures: failure budget "lots"/],
      [["--all", "--to-wp", "6.8", "--gate", "health", "--check-path", "/shop"], /--check-path is for the http and visual gates: add http or visual to --gate/],
      [["--all", "--to-wp", "6.8", "--check-path", "shop"], /--check-path must be a path starting with \//],
      [["--all", "--to-wp", "6.8", "--pause", "soon"], /--pause: "soon" is not a duration/],
      [["--to-wp", "6.8"], /which sites\?/],
    ] as const) {
      const r = await runCli(["upgrade", "rollout", ...flags], { env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});
