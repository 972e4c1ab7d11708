// `siteops upgrade rollout` tested as it will fail (issue 42 item 5): sites' URLs are loopback servers that answer
// as WordPress does after an upgrade (test/support/wordpress-sites.ts: healthy, a fatal-error page with 200, a
// 500, too slow), and the emulator rolls back chosen sites' pipelines (POST /__emulator/pipeline-outcomes). A
// canary that fails stops the rollout with no site of a later wave touched; a 10 % budget lets a wave through
// with one failure and stops the next at two; a run killed (SIGKILL) in the middle of a wave is continued by the
// same command, which opens no second pipeline for any site; a stopped rollout told in Slack's format names the
// failing site and why. The canary and the kill run against both emulator
// profiles (PROFILES: the minimal one pages by 5 without headers and stores URLs with a trailing slash).
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ProfileName } from "../../emulator/index.js";
import type { Site } from "../../src/index.js";
import { parseWaves, planWaves } from "../../src/fleet.js";
import { OWNER_TOKEN, startTestEmulator, type TestEmulator } from "../core/helpers.js";
import { PROFILES } from "../support/emulator.js";
import { startWordPressSites, type WordPressBehaviour, type WordPressSites } from "../support/wordpress-sites.js";
import { runCli, sandbox, startCli, startReceiver, type Sandbox } from "./helpers.js";

let emu: TestEmulator;
let box: Sandbox;
let env: NodeJS.ProcessEnv;
let wordpress: WordPressSites | undefined;

/** The emulator in `profile` (the minimal one: pages of 5 without headers, URLs stored with a trailing slash, fields
 * no client knows) and a sandbox pointed at it. */
async function start(profile: ProfileName = "default"): Promise<void> {
  emu = await startTestEmulator({ profile });
  box = sandbox();
  env = { ...box.env, SITEOPS_BASE_URL: emu.url, SITEOPS_API_TOKEN: OWNER_TOKEN, SITEOPS_POLL_INTERVAL_MS: "20" };
}

afterEach(async () => {
  box?.cleanup();
  await wordpress?.close();
  wordpress = undefined;
  await emu?.close();
});

interface Report {
  exit_code: number;
  outcome: string;
  summary: Record<string, number>;
  waves: { wave: number; verdict: string; size: number; allowed: number; counts: Record<string, number> }[];
  results: {
    site: { id: string; name: string };
    wave: number;
    outcome: string;
    adopted: boolean;
    pipeline: { id: string; status: string } | null;
    error: { message: string; code: string } | null;
  }[];
}
const readReport = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Report;

/** `n` sites on loopback WordPress servers (all healthy for now), created in the emulator at WordPress 6.5. */
async function fleet(n: number): Promise<{ sites: Site[]; server: (site: Site) => WordPressSites[number] }> {
  wordpress = await startWordPressSites(n);
  const sites: Site[] = [];
  for (const body of wordpress.seedSites("Site")) sites.push(await emu.so.sites.create(body));
  const byUrl = new Map(wordpress.map((s) => [s.url, s]));
  return { sites, server: (site) => byUrl.get(site.url.replace(/\/$/, ""))! };
}

const TARGET = { wp: "6.8" };

const siteFlags = (sites: readonly Site[]) => sites.flatMap((s) => ["--site", s.id]);

/** Pipelines the service holds per site id. */
async function pipelines(sites: readonly Site[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const s of sites)
    out.set(
      s.id,
      (await emu.so.upgradePipelines.list(s.id).toArray()).map((p) => p.id),
    );
  return out;
}

describe.each(PROFILES)("a rollout stops at a failing wave (profile %s)", (profile) => {
  it("a canary rolled back stops the rollout: no site of a later wave is touched (no pipeline, no request)", async () => {
    await start(profile);
    const { sites, server } = await fleet(6);
    const waves = planWaves(sites, parseWaves("1,50%,100%"), TARGET);
    const canary = waves[0]![0]!;
    await emu.control("POST", "pipeline-outcomes", { rules: [{ site_id: canary.id, outcome: "roll_back" }] });
    const file = path.join(box.dir, "canary.json");
    const metrics = path.join(box.dir, "rollout.prom");
    const hook = await startReceiver("/hooks/rollout-secret-key");
    const r = await runCli(
      ["upgrade", "rollout", ...siteFlags(sites), "--to-wp", "6.8", "--waves", "1,50%,100%", "--report", file, "--metrics-file", metrics],
      { env: { ...env, SITEOPS_NOTIFY_URL: hook.url } },
    );
    await hook.close();

    expect(r.code, r.stderr).toBe(5);
    const doc = readReport(file);
    expect(doc.outcome).toBe("stopped");
    expect(doc.waves.map((w) => [w.verdict, w.size, w.counts.failed])).toEqual([
      ["stopped", 1, 1],
      ["not_started", 2, 0],
      ["not_started", 3, 0],
    ]);
    const first = doc.results.find((x) => x.site.id === canary.id)!;
    expect(first).toMatchObject({ wave: 1, outcome: "failed", pipeline: { status: "rolled_back" }, error: { code: "GATE_FAILED" } });
    expect(first.error!.message).toMatch(/^pipeline upg_\w+ was rolled back/);
    expect(r.stderr).toMatch(/error: Site \d: failed: pipeline upg_\w+ was rolled back/);
    expect(r.stderr).toMatch(/error: {3}1 site failed: pipeline rolled back: Verification failed: .* \(Site \d\)\n/);
    expect(r.stderr).toMatch(/left untouched: 5 sites \(waves 2, 3\); nothing was asked of the service for them/);
    expect(r.stderr).toMatch(
      /to continue \(once the failed sites are dealt with, or with a larger --max-failures\), run the same command again.*:\n.*error: {3}siteops upgrade rollout --site /,
    );

    const later = waves.slice(1).flat();
    const held = await pipelines(sites);
    expect(later.map((s) => held.get(s.id))).toEqual(later.map(() => []));
    expect(held.get(canary.id)).toHaveLength(1);
    expect(later.flatMap((s) => server(s).requests)).toEqual([]);
    expect(
      doc.results
        .filter((x) => x.outcome === "untouched")
        .map((x) => x.site.id)
        .sort(),
    ).toEqual(later.map((s) => s.id).sort());

    // Told outside: the notification (the report) names the failing site and why; the metrics count the sites.
    expect(hook.bodies).toHaveLength(1);
    const note = JSON.parse(hook.bodies[0]!) as { exit_code: number; results: Report["results"] };
    expect(note.exit_code).toBe(5);
    expect(note.results.filter((x) => x.error).map((x) => [x.site.id, x.error!.message.replace(/upg_\w+/, "upg_")])).toEqual([
      [canary.id, expect.stringMatching(/^pipeline upg_ was rolled back/)],
    ]);
    const prom = readFileSync(metrics, "utf8");
    expect(prom).toMatch(/siteops_job_sites\{job_name="upgrade-rollout",outcome="untouched"\} 5/);
    expect(prom).toMatch(/siteops_job_sites\{job_name="upgrade-rollout",outcome="failed"\} 1/);
    expect(prom).toMatch(/siteops_job_exit_code\{job_name="upgrade-rollout"\} 5/);
  });
});

describe("a stopped rollout told in Slack's format", () => {
  it("--notify-format slack: one message with the exit's meaning, the sites by outcome and the failing site with why", async () => {
    await start();
    const { sites } = await fleet(4);
    const waves = planWaves(sites, parseWaves("1,100%"), TARGET);
    const canary = waves[0]![0]!;
    await emu.control("POST", "pipeline-outcomes", { rules: [{ site_id: canary.id, outcome: "roll_back" }] });
    const hook = await startReceiver("/hooks/rollout-secret-key");
    const r = await runCli(
      ["upgrade", "rollout", ...siteFlags(sites), "--to-wp", "6.8", "--waves", "1,100%", "--notify", hook.url, "--notify-format", "slack"],
      {
        env,
      },
    );
    await hook.close();

    expect(r.code, r.stderr).toBe(5);
    expect(hook.bodies).toHaveLength(1);
    const { text } = JSON.parse(hook.bodies[0]!) as { text: string };
    const lines = text.split("\n");
    expect(lines[0]).toMatch(/^:x: \*siteops upgrade rollout\* \(job `upgrade-rollout`\) failed: exit 5 \(stopped by a wave's gate\), in /);
    expect(lines[1]).toMatch(/^4 sites: .*1 failed.*3 untouched/);
    expect(lines.slice(2)).toEqual([expect.stringMatching(new RegExp(`^• \\*${canary.name}\\* \\(\`${canary.id}\`\\): pipeline upg_\\w+ was rolled back`))]);
    expect(text).not.toContain("rollout-secret-key");
  });
});

describe("the failure budget", () => {
  it("--max-failures 10%: wave 2 goes through with one failure (a fatal-error page with 200), wave 3 stops at two (a 500, too slow); wave 4 untouched", async () => {
    await start();
    const { sites, server } = await fleet(31);
    const spec = "1,11,21,100%";
    const waves = planWaves(sites, parseWaves(spec), TARGET);
    expect(waves.map((w) => w.length)).toEqual([1, 10, 10, 10]);
    const bad: [Site, WordPressBehaviour][] = [
      [waves[1]![4]!, "fatal"],
      [waves[2]![2]!, "error500"],
      [waves[2]![7]!, "slow"],
    ];
    for (const [site, behaviour] of bad) server(site).behaviour = behaviour;
    const file = path.join(box.dir, "budget.json");
    const r = await runCli(
      ["upgrade", "rollout", ...siteFlags(sites), "--to-wp", "6.8", "--waves", spec, "--max-failures", "10%", "--check-budget", "5s", "--report", file],
      { env, timeoutMs: 120_000 },
    );

    expect(r.code, r.stderr).toBe(5);
    const doc = readReport(file);
    expect(doc.waves.map((w) => [w.wave, w.verdict, w.size, w.counts.failed, w.allowed])).toEqual([
      [1, "passed", 1, 0, 0],
      [2, "passed", 10, 1, 1],
      [3, "stopped", 10, 2, 1],
      // Not started: the budget it would have had.
      [4, "not_started", 10, 0, 1],
    ]);
    const why = (site: Site) => doc.results.find((x) => x.site.id === site.id)!.error?.message;
    expect(why(bad[0]![0])).toMatch(/^GET \/ answered 200 in \d+ ms with a fatal-error page \("There has been a critical error on this website"\)$/);
    expect(why(bad[1]![0])).toMatch(/^GET \/ answered 500 in \d+ ms$/);
    expect(why(bad[2]![0])).toBe("GET /: no answer within the 5000 ms budget");
    expect(r.stderr).toMatch(/wave 2\/4: 10 sites, 9 passed, 1 failed \(at most 1 allowed\): passed/);
    expect(r.stderr).toMatch(/wave 3\/4: 10 sites, 8 passed, 2 failed \(at most 1 allowed\): STOPPED: failures over the budget/);
    expect(r.stderr).toMatch(/left untouched: 10 sites \(wave 4\)/);
    // The failed sites' pipelines succeeded: the evidence was the site itself.
    expect(bad.map(([s]) => doc.results.find((x) => x.site.id === s.id)!.pipeline?.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    const held = await pipelines(sites);
    expect(waves[3]!.map((s) => held.get(s.id)!.length)).toEqual(waves[3]!.map(() => 0));
    expect(waves[3]!.flatMap((s) => server(s).requests)).toEqual([]);
  });
});

describe.each(PROFILES)("a rollout is a job (profile %s)", (profile) => {
  it("killed (SIGKILL) in the middle of wave 2, the same command continues it: no second pipeline for any site", async () => {
    await start(profile);
    const { sites } = await fleet(8);
    const spec = "1,50%,100%";
    const waves = planWaves(sites, parseWaves(spec), TARGET);
    expect(waves.map((w) => w.length)).toEqual([1, 3, 4]);
    const command = ["upgrade", "rollout", ...siteFlags(sites), "--to-wp", "6.8", "--waves", spec, "--gate", "pipeline,health,http"];
    // With approval required each pipeline waits until the test approves it: the run is stopped where the test chooses.
    const first = startCli([...command, "--require-approval", "--concurrency", "2"], { env });
    await first.waitFor(/pipeline (upg_\w+) awaits approval/);
    const approve = async (site: Site) => {
      const [p] = await emu.so.upgradePipelines.list(site.id).toArray();
      await emu.so.upgradePipelines.approve(site.id, p!.id);
    };
    await approve(waves[0]![0]!);
    await first.waitFor(/wave 2\/3: 3 sites[\s\S]*awaits approval[\s\S]*awaits approval/);
    first.child.kill("SIGKILL");
    await first.done;
    // Wave 2 half done: two pipelines open, awaiting approval, the third site not yet asked.
    const before = await pipelines(sites);
    const opened = waves[1]!.filter((s) => before.get(s.id)!.length === 1);
    expect(opened).toHaveLength(2);
    expect(waves[2]!.map((s) => before.get(s.id)!.length)).toEqual([0, 0, 0, 0]);
    for (const site of opened) await approve(site);

    const file = path.join(box.dir, "rerun.json");
    const r = await runCli([...command, "--report", file], { env });
    expect(r.code, r.stderr).toBe(0);
    const doc = readReport(file);
    expect(doc.summary).toMatchObject({ sites: 8, passed: 8, adopted: 3, opened: 5 });
    const adopted = doc.results.filter((x) => x.adopted).map((x) => x.site.id);
    expect(adopted.sort()).toEqual([waves[0]![0]!, ...opened].map((s) => s.id).sort());
    const after = await pipelines(sites);
    expect(sites.map((s) => after.get(s.id)!.length)).toEqual(sites.map(() => 1));
    for (const s of [waves[0]![0]!, ...opened]) expect(after.get(s.id)).toEqual(before.get(s.id));
  });
});
