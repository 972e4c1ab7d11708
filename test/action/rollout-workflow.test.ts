// examples/workflows/upgrade-rollout.yml end to end, as far as it runs off GitHub (issue 42's done-when): its plan
// job's script (read from the YAML) runs in bash with the built CLI in place of the one npx builds from the tag,
// listing the fleet once into the shard file; its artifact is a directory each wave job's download copies; its
// canary, wave-2 and wave-3 jobs are the bundled action with the inputs read from the YAML (its expressions given
// the run's values), run in the order their `needs` put them and only when every job they need succeeded, as
// GitHub runs them (the environment's approval is GitHub's: here it is given). The plan job's first step asks the
// GitHub API (a stub on loopback, as GITHUB_API_URL names it) whether that environment has required reviewers, and
// stops the run with the fix when it has none or does not exist. The sites are loopback servers answering as
// WordPress (test/support/wordpress-sites.ts), so every gate the workflow leaves on is judged. A canary rolled back
// stops the run there; "Re-run failed jobs" runs its job again and opens no second pipeline. The canary and wave-2
// jobs also judge each site on pictures (the visual gate, in Debian's Chromium as the runner's Chrome), and upload
// their folder of images and reports whatever the outcome (`if: always()`, run here as GitHub runs it).
import { cpSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, expect, it } from "vitest";
import { parse } from "yaml";
import type { RunningEmulator } from "../../emulator/index.js";
import { parseWaves, planWaves } from "../../src/fleet.js";
import { SiteOps, type Site } from "../../src/index.js";
import { CHROMIUM, haveChromium } from "../support/chromium.js";
import { startSeededEmulator } from "../support/emulator.js";
import { removeDir, tempDir } from "../support/temp.js";
import { startWordPressSites, type WordPressSites } from "../support/wordpress-sites.js";
import { type ActionRun, runAction } from "./run-action.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const WORKFLOW = path.join(ROOT, "examples/workflows/upgrade-rollout.yml");
const TOKEN = "sot_actionRolloutWorkflowTok01";
const SITES = 30;
const TARGET = "6.8";
const GITHUB_TOKEN = "ghs_workflowTokenOfThisRun0001";
const REPOSITORY = "acme/website";

type Step = { id?: string; if?: string; uses?: string; run?: string; env?: Record<string, string>; with?: Record<string, string | number> };
type Job = { needs?: string | string[]; if?: string; environment?: string; steps: Step[] };
const workflow = parse(readFileSync(WORKFLOW, "utf8")) as { env: Record<string, string>; jobs: Record<string, Job> };

let emu: RunningEmulator;
let wordpress: WordPressSites;
let client: SiteOps;
let fleet: Site[];
let dir: string;

/** GitHub's API as the plan job's first step reads it: the environment's answer is set per test. */
interface GitHubStub {
  url: string;
  server: Server;
  requests: { path: string; authorization: string | undefined }[];
  environment: { status: number; body: unknown };
}
let github: GitHubStub;

const REVIEWERS = { type: "required_reviewers", id: 1, prevent_self_review: false, reviewers: [{ type: "User", reviewer: { login: "ops-lead" } }] };

async function startGitHubStub(): Promise<GitHubStub> {
  const stub = { requests: [], environment: { status: 200, body: { name: "production-rollout", protection_rules: [REVIEWERS] } } } as unknown as GitHubStub;
  stub.server = createServer((req, res) => {
    stub.requests.push({ path: req.url ?? "", authorization: req.headers.authorization });
    const known = req.method === "GET" && req.url === `/repos/${REPOSITORY}/environments/production-rollout`;
    const { status, body } = known ? stub.environment : { status: 404, body: { message: "Not Found" } };
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => stub.server.listen(0, "127.0.0.1", resolve));
  stub.url = `http://127.0.0.1:${(stub.server.address() as AddressInfo).port}`;
  return stub;
}

beforeEach(async () => {
  github = await startGitHubStub();
  wordpress = await startWordPressSites(SITES);
  emu = await startSeededEmulator({
    accounts: [
      {
        name: "Rollout",
        users: [{ email: "owner@rollout.test", password: "owner-password-1", name: "Owner", role: "owner" }],
        api_tokens: [{ token: TOKEN, user_email: "owner@rollout.test" }],
        sites: wordpress.seedSites("Site"),
      },
    ],
  });
  client = new SiteOps({ baseUrl: emu.url, apiToken: TOKEN });
  fleet = await client.sites.list({ per_page: 100 }).toArray();
  dir = tempDir("rollout-workflow");
});
afterEach(async () => {
  await client?.close();
  await emu?.close();
  await wordpress?.close();
  await new Promise((resolve) => github?.server.close(resolve));
  if (dir) removeDir(dir);
});

/** A `run:` step as GitHub's default shell runs it (`bash -e`). */
function bash(script: string, env: Record<string, string>, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile("bash", ["-e", "-c", script], { cwd, env: { PATH: process.env.PATH ?? "", ...env }, encoding: "utf8" }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A value of the YAML with its `${{ ... }}` expressions given this run's values; an expression the test does not
 * know fails the test (the workflow changed: teach it here). */
function expand(value: string | number, run: { wpVersion: string }): string {
  const known: Record<string, string> = {
    "secrets.SITEOPS_API_TOKEN": TOKEN,
    "github.token": GITHUB_TOKEN,
    "vars.SITEOPS_BASE_URL": emu.url,
    "inputs.wp-version": run.wpVersion,
    ...Object.fromEntries(Object.entries(workflow.env).map(([k, v]) => [`env.${k}`, v])),
  };
  return String(value).replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
    if (!(expr in known)) throw new Error(`upgrade-rollout.yml: the test does not know the expression ${expr}`);
    return known[expr]!;
  });
}

/** The jobs in an order their `needs` allow (GitHub's), each with what it needs. */
function jobOrder(): { name: string; needs: string[] }[] {
  const jobs = Object.entries(workflow.jobs).map(([name, job]) => ({ name, needs: job.needs === undefined ? [] : [job.needs].flat() }));
  const done: string[] = [];
  while (done.length < jobs.length) {
    const next = jobs.find((j) => !done.includes(j.name) && j.needs.every((n) => done.includes(n)));
    if (!next) throw new Error("upgrade-rollout.yml: a cycle in needs");
    done.push(next.name);
  }
  return done.map((name) => jobs.find((j) => j.name === name)!);
}

interface WorkflowRun {
  /** Each job that ran (its action step's run; the plan job's exit code and log), in order; a job skipped is absent. */
  jobs: Map<string, ActionRun | { code: number; stdout?: string }>;
  skipped: string[];
}

/** One run of the workflow (workflow_dispatch with `wp-version`): every job whose needs all succeeded. With
 * `rerun`, its next attempt as "Re-run failed jobs" makes it: the jobs that succeeded keep their result (and their
 * artifacts), the others run again on fresh runners with the same run id. */
async function runWorkflow(wpVersion: string, rerun?: { of: WorkflowRun; attempt: number }): Promise<WorkflowRun> {
  const run: WorkflowRun = { jobs: new Map(), skipped: [] };
  const attempt = rerun?.attempt ?? 1;
  const artifacts = path.join(dir, "artifacts");
  for (const { name, needs } of jobOrder()) {
    const job = workflow.jobs[name]!;
    // No `if:`: GitHub's default, success(), runs a job only when every job it needs succeeded.
    expect(job.if, name).toBeUndefined();
    const earlier = rerun?.of.jobs.get(name);
    if (earlier?.code === 0) {
      run.jobs.set(name, earlier);
      continue;
    }
    if (!needs.every((n) => run.jobs.get(n)?.code === 0)) {
      run.skipped.push(name);
      continue;
    }
    const workspace = path.join(dir, "jobs", `${name}-${attempt}`);
    mkdirSync(workspace, { recursive: true });
    let result: ActionRun | { code: number; stdout?: string } = { code: 0 };
    let failed = false;
    for (const step of job.steps) {
      // A step runs while every step before it succeeded (success()), or whatever happened with `if: always()`.
      expect([name, step.if ?? "always()"]).toEqual([name, "always()"]);
      if (failed && step.if !== "always()") continue;
      if (step.uses?.startsWith("actions/setup-node@")) continue;
      if (step.uses?.startsWith("actions/upload-artifact@")) {
        const from = path.join(workspace, String(step.with!.path));
        if (!existsSync(from) && step.with!["if-no-files-found"] === "ignore") continue;
        cpSync(from, path.join(artifacts, String(step.with!.name)), { recursive: true });
      } else if (step.uses?.startsWith("actions/download-artifact@")) {
        cpSync(path.join(artifacts, String(step.with!.name)), path.join(workspace, String(step.with!.path)), { recursive: true });
      } else if (step.run) {
        // The CLI from the repository's tag (npx builds it; here the built one).
        if (/\bsiteops\b/.test(step.run)) expect(step.run).toMatch(/npx --yes github:siteops\/siteops#v\d+ /);
        const cli = `"${process.execPath}" "${path.join(ROOT, "bin/siteops.js")}"`;
        const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v, { wpVersion })]));
        const runner = { GITHUB_API_URL: github.url, GITHUB_REPOSITORY: REPOSITORY, RUNNER_TEMP: workspace };
        const r = await bash(
          step.run.replace(/npx --yes github:siteops\/siteops#v\d+/, cli),
          { ...env, ...runner, HOME: workspace, XDG_RUNTIME_DIR: workspace },
          workspace,
        );
        result = { code: r.code, stdout: `${(result as { stdout?: string }).stdout ?? ""}${r.stdout}` };
        if (r.code !== 0) failed = true;
      } else if (step.uses?.startsWith("siteops/siteops/action@")) {
        const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, expand(v, { wpVersion })]));
        inputs["sites-file"] = path.join(workspace, inputs["sites-file"]!);
        // GITHUB_ACTION as GitHub names a step without an id that uses this repository's action.
        const context = { GITHUB_JOB: name, GITHUB_ACTION: step.id ?? "__siteops_siteops", GITHUB_RUN_ATTEMPT: String(attempt) };
        // The job's workspace is the runner's: the visual gate's relative 'artifacts' folder lands where the upload
        // step reads it.
        result = await runAction(inputs, { ...context, SITEOPS_POLL_INTERVAL_MS: "20", GITHUB_WORKSPACE: workspace, SITEOPS_BROWSER: CHROMIUM });
        if (result.code !== 0) failed = true;
      } else throw new Error(`upgrade-rollout.yml: the test does not know the step ${JSON.stringify(step)}`);
    }
    run.jobs.set(name, result);
  }
  return run;
}

interface Result {
  status: string;
  visual?: { report: string | null; failing: unknown[] };
  waves: { wave: number; verdict: string }[];
  results: { site: { id: string }; wave: number | null; outcome: string; pipeline: { status: string } | null }[];
}

const pipelinesTo = async (site: Site, wp: string) => (await client.upgradePipelines.list(site.id).toArray()).filter((p) => p.to_wp_version === wp);

/** The canary and wave-2 jobs run the visual gate: Chromium is needed (CI has it; elsewhere they skip, saying why). */
const VISUAL = haveChromium("test/action/rollout-workflow");
/** Those jobs shoot pages in Chromium on a shared machine: minutes, not seconds. */
const BROWSER_TIMEOUT = 900_000;

it.runIf(VISUAL)(
  "runs the three waves in order, one job each, every site upgraded once and each job's summary its wave",
  async () => {
    expect(workflow.jobs["wave-2"]).toMatchObject({ needs: "canary", environment: "production-rollout" });
    expect(workflow.jobs["wave-3"]).toMatchObject({ needs: "wave-2", environment: "production-rollout" });
    const plan = planWaves(fleet, parseWaves(workflow.env.WAVES!), { wp: TARGET });
    // 10% is of the whole fleet, the canary included: 3 sites by the end of wave 2.
    expect(plan.map((w) => w.length)).toEqual([1, 2, SITES - 3]);

    const run = await runWorkflow(TARGET);
    expect([...run.jobs.keys()]).toEqual(["plan", "canary", "wave-2", "wave-3"]);
    // The plan job asked GitHub, with the workflow's token, for the environment the later waves run in.
    expect(github.requests).toEqual([{ path: `/repos/${REPOSITORY}/environments/production-rollout`, authorization: `Bearer ${GITHUB_TOKEN}` }]);
    expect(run.jobs.get("plan")!.stdout).toContain("production-rollout has required reviewers (1): waves 2 and 3 each wait for one of them to approve");
    for (const [i, name] of ["canary", "wave-2", "wave-3"].entries()) {
      const job = run.jobs.get(name) as ActionRun;
      expect([name, job.code, job.errors]).toEqual([name, 0, []]);
      const result = JSON.parse(job.outputs.result!) as Result;
      expect(result.waves.map((w) => [w.wave, w.verdict])).toEqual([[i + 1, "passed"]]);
      expect(result.results.map((s) => s.site.id).sort()).toEqual(plan[i]!.map((s) => s.id).sort());
      expect(result.results.every((s) => s.wave === i + 1 && s.outcome === "passed" && s.pipeline?.status === "succeeded")).toBe(true);
      expect(job.summary).toContain(
        `wave ${i + 1}/3: ${plan[i]!.length} site${plan[i]!.length === 1 ? "" : "s"}, ${plan[i]!.length} passed, 0 failed (at most `,
      );
      expect(job.summary).not.toContain(`wave ${i + 2}/3`);
    }
    for (const site of fleet) {
      expect((await client.sites.get(site.id)).wp_version).toBe(TARGET);
      expect(await pipelinesTo(site, TARGET)).toHaveLength(1);
    }
    // The visual gate judged the canary's and wave 2's sites, each page within the threshold, and their jobs uploaded
    // the images and the report; wave 3 runs without it.
    for (const [name, artifact] of [
      ["canary", "visual-canary"],
      ["wave-2", "visual-wave-2"],
    ] as const) {
      const result = JSON.parse((run.jobs.get(name) as ActionRun).outputs.result!) as Result;
      expect([name, result.visual?.failing]).toEqual([name, []]);
      expect(existsSync(path.join(dir, "artifacts", artifact, "report.html"))).toBe(true);
      const i = name === "canary" ? 0 : 1;
      for (const site of plan[i]!) expect(existsSync(path.join(dir, "artifacts", artifact, site.id, "home@mobile.diff.png"))).toBe(true);
    }
    expect((JSON.parse((run.jobs.get("wave-3") as ActionRun).outputs.result!) as Result).visual).toBeUndefined();
    // Every gate the workflow leaves on was judged: each site's front page was asked for.
    for (const server of wordpress) expect(server.requests.some((r) => r.path === "/")).toBe(true);
  },
  BROWSER_TIMEOUT,
);

it.runIf(VISUAL)(
  "a canary rolled back fails its job: waves 2 and 3 never run, no later site gets a pipeline, a re-run opens none",
  async () => {
    const plan = planWaves(fleet, parseWaves(workflow.env.WAVES!), { wp: TARGET });
    const canary = plan[0]![0]!;
    const set = await fetch(`${emu.url}/__emulator/pipeline-outcomes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rules: [{ site_id: canary.id, outcome: "roll_back" }] }),
    });
    expect(set.ok).toBe(true);

    const run = await runWorkflow(TARGET);
    const job = run.jobs.get("canary") as ActionRun;
    expect([job.code, job.outputs.status]).toEqual([1, "stopped"]);
    expect(job.errors.at(-1)).toMatch(/^The rollout to WordPress 6\.8 stopped at wave 1: 1 failed of 1, at most 0 allowed: /);
    expect(run.skipped).toEqual(["wave-2", "wave-3"]);
    expect((await pipelinesTo(canary, TARGET)).map((p) => p.status)).toEqual(["rolled_back"]);
    // The job failed, and its upload still ran (if: always()): the canary's pictures from before its upgrade.
    expect(existsSync(path.join(dir, "artifacts", "visual-canary", canary.id, "home@desktop.before.png"))).toBe(true);
    for (const site of plan.slice(1).flat()) {
      expect(await pipelinesTo(site, TARGET)).toEqual([]);
      expect((await client.sites.get(site.id)).wp_version).toBe("6.5");
    }

    // "Re-run failed jobs": the canary's job again (attempt 2) adopts its rolled-back pipeline, judges it again and
    // fails again; still no second pipeline, and the later waves still do not run.
    const [rolledBack] = await pipelinesTo(canary, TARGET);
    const again = await runWorkflow(TARGET, { of: run, attempt: 2 });
    const rerun = again.jobs.get("canary") as ActionRun;
    expect([rerun.code, rerun.outputs.status]).toEqual([1, "stopped"]);
    expect(rerun.stdout).toContain(`pipeline ${rolledBack!.id} adopted (rolled_back), not opened again`);
    expect(again.skipped).toEqual(["wave-2", "wave-3"]);
    expect((await pipelinesTo(canary, TARGET)).map((p) => p.id)).toEqual([rolledBack!.id]);
  },
  BROWSER_TIMEOUT,
);

it("checks the environment the later waves name, with the token's actions: read, before anything else", () => {
  const plan = workflow.jobs.plan! as Job & { permissions?: Record<string, string> };
  expect(plan.permissions).toMatchObject({ actions: "read" });
  const check = plan.steps[0]!;
  expect(check.env).toMatchObject({ GH_TOKEN: "${{ github.token }}", ENVIRONMENT: workflow.jobs["wave-2"]!.environment });
  expect(workflow.jobs["wave-3"]!.environment).toBe(check.env!.ENVIRONMENT);
});

it.each([
  [
    "has no protection rules",
    200,
    { name: "production-rollout", protection_rules: [] },
    "has no required reviewers: waves 2 and 3 would start with nobody approving. Add them in Settings > Environments > production-rollout > Required reviewers",
  ],
  [
    "has a wait timer only",
    200,
    { name: "production-rollout", protection_rules: [{ type: "wait_timer", id: 2, wait_timer: 30 }] },
    "has no required reviewers",
  ],
  [
    "does not exist",
    404,
    { message: "Not Found" },
    "does not exist: waves 2 and 3 would create it without protection and start with nobody approving. Create it in Settings > Environments > New environment, named production-rollout, with required reviewers",
  ],
  ["cannot be read by the token", 403, { message: "Resource not accessible by integration" }, "(HTTP 403): this job needs 'permissions: actions: read'"],
])("stops the run before the canary when production-rollout %s, saying how to fix it", async (_, status, body, message) => {
  github.environment = { status, body };
  const run = await runWorkflow(TARGET);
  const plan = run.jobs.get("plan")!;
  expect(plan.code).toBe(1);
  expect(plan.stdout).toMatch(new RegExp(`^::error::The environment production-rollout `, "m"));
  expect(plan.stdout).toContain(message);
  expect(run.skipped).toEqual(["canary", "wave-2", "wave-3"]);
  for (const site of fleet) expect(await pipelinesTo(site, TARGET)).toEqual([]);
});
