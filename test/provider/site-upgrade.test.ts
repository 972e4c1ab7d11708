// siteops_site version changes with real terraform against the emulator: an upgrade pipeline with its
// pre-upgrade snapshot, failure (preflight, through the control API), rollback, an approval given in
// parallel with the command the plan's warning names (`siteops upgrade approve --site`) or the core client,
// timeout and adoption by the next apply, a lost answer, downgrade refused at plan (after an upgrade made outside
// Terraform: the fix it names), and the direct strategy.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SiteOps, type UpgradePipeline } from "../../src/index.js";
import { runCli } from "../cli/helpers.js";
import { OWNER_TOKEN, Terraform, api, faults, type RunResult } from "./harness.js";

let tf: Terraform;
let siteId = "";
beforeAll(async () => {
  tf = await Terraform.start();
});
afterAll(async () => {
  await tf?.close();
});

const INFO = { TF_LOG_PROVIDER: "INFO" };

function config(wp: string, php: string, upgrade = "", provider = ""): void {
  tf.write(
    tf.providerBlock(provider) +
      `
resource "siteops_site" "blog" {
  name        = "Blog"
  url         = "https://blog.example.com"
  wp_version  = ${JSON.stringify(wp)}
  php_version = ${JSON.stringify(php)}
${upgrade}}
`,
  );
}

/** Runs apply with the provider's INFO log; `asked()` becomes true once the provider logs that the pipeline it
 * follows awaits approval. */
function apply(): Promise<RunResult> & { asked: () => boolean } {
  let asked = false;
  const run = tf.run(["apply", "-auto-approve", "-input=false", "-no-color"], {
    env: INFO,
    onOutput: (_out, err) => (asked ||= err.includes("awaits approval")),
  });
  return Object.assign(run, { asked: () => asked });
}

async function pipelines(): Promise<UpgradePipeline[]> {
  return (await api(tf, "GET", `/api/v1/sites/${siteId}/upgrade_pipelines?per_page=100`)).json as UpgradePipeline[];
}

async function remote(): Promise<{ wp_version: string; php_version: string }> {
  return (await api(tf, "GET", `/api/v1/sites/${siteId}`)).json as { wp_version: string; php_version: string };
}

/** Approves the site's pipeline with the core client once the provider, in the apply, waits for that. */
async function approveWhenAsked(running: ReturnType<typeof apply>): Promise<UpgradePipeline> {
  let done = false;
  void running.finally(() => (done = true));
  const client = new SiteOps({ baseUrl: tf.url, apiToken: OWNER_TOKEN });
  while (!done) {
    const waiting = running.asked() ? (await pipelines()).find((p) => p.status === "awaiting_approval") : undefined;
    if (waiting) return client.operations.approveUpgrade(siteId, waiting.id, { comment: "approved by the test", pollInterval: 100 });
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`apply ended before any pipeline awaited approval:\n${(await running).stdout}\n${(await running).stderr}`);
}

describe("siteops_site version changes", () => {
  it("creates the site at the given versions without a pipeline", async () => {
    config("6.4", "8.2");
    await tf.init();
    await tf.apply();
    siteId = (await tf.resource("siteops_site.blog"))!.id as string;
    expect(await remote()).toMatchObject({ wp_version: "6.4", php_version: "8.2" });
    expect(await pipelines()).toHaveLength(0);
  });

  it("plans a version bump with a warning that a pipeline will run", async () => {
    config("6.5", "8.2");
    const p = await tf.plan();
    expect(p.code).toBe(2);
    expect(p.stdout).toMatch(/~ wp_version\s+= "6.4" -> "6.5"/);
    expect(p.stdout).toContain("Warning: An upgrade pipeline will run");
    expect(p.stdout).toContain("WordPress 6.4 -> 6.5");
  });

  it("applies it through a pipeline with a pre-upgrade snapshot, logging its progress", async () => {
    const r = await apply();
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const [pipeline] = await pipelines();
    expect(pipeline).toMatchObject({ status: "succeeded", from_wp_version: "6.4", to_wp_version: "6.5", requires_approval: false });
    expect(pipeline!.snapshot_id).toMatch(/^snap_/);
    const snap = await api(tf, "GET", `/api/v1/sites/${siteId}/snapshots/${pipeline!.snapshot_id}`);
    expect(snap.json).toMatchObject({ trigger: "pre_upgrade", status: "completed" });
    expect(r.stderr).toContain(`upgrade pipeline ${pipeline!.id} opened: WordPress 6.4 -> 6.5`);
    expect(r.stderr).toContain(`upgrade pipeline ${pipeline!.id} succeeded`);
    expect(r.stderr).toContain('steps="snapshot passed, preflight passed, apply passed, verify passed"');
    expect((await tf.resource("siteops_site.blog"))!.wp_version).toBe("6.5");
    expect((await tf.plan()).code).toBe(0);
  });

  it("fails the apply with the pipeline's error when the site is down, keeping the state at the site's versions", async () => {
    // The control API's fault injection: a failed health check makes the site down; its pre-upgrade snapshot
    // cannot be captured and the pipeline fails before applying anything.
    const down = await fetch(`${tf.url}/__emulator/health_checks`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ site_id: siteId, status: "failed" }),
    });
    expect(down.status).toBe(200);
    config("6.6", "8.2");
    const r = await apply();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Error: Upgrade of site");
    expect(r.stderr).toMatch(/Upgrade pipeline upg_\w+ failed: Pre-upgrade snapshot\s+failed: Site could not be reached/);
    expect(r.stderr).toContain('wp_version  = "6.6"');
    expect((await pipelines())[0]).toMatchObject({ status: "failed", to_wp_version: "6.6" });
    expect(await remote()).toMatchObject({ wp_version: "6.5" });
    expect((await tf.resource("siteops_site.blog"))!.wp_version).toBe("6.5");
    await fetch(`${tf.url}/__emulator/health_checks`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ site_id: siteId, status: "passed" }),
    });
    // The next apply runs a new pipeline, which succeeds.
    expect((await apply()).code).toBe(0);
    expect((await tf.resource("siteops_site.blog"))!.wp_version).toBe("6.6");
  });

  it("reports a rollback and keeps the versions the site was rolled back to", async () => {
    // PHP 8.4 with WordPress below 6.7 passes the preflight and fails verification: the pipeline rolls back.
    config("6.6", "8.4");
    const r = await apply();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Upgrade pipeline upg_\w+ was rolled back: Verification\s+failed/);
    expect(r.stderr).toContain("Pre-upgrade snapshot: snap_");
    expect((await pipelines())[0]).toMatchObject({ status: "rolled_back", to_php_version: "8.4" });
    expect(await remote()).toMatchObject({ wp_version: "6.6", php_version: "8.2" });
    const state = (await tf.resource("siteops_site.blog"))!;
    expect(state).toMatchObject({ wp_version: "6.6", php_version: "8.2" });
    const p = await tf.plan();
    expect(p.stdout).toMatch(/~ php_version\s+= "8.2" -> "8.4"/);
  });

  it("waits for an approval given with the command its plan names (siteops upgrade approve --site)", async () => {
    config("6.6", "8.3", "  upgrade {\n    require_approval = true\n  }\n");
    const p = await tf.plan();
    expect(p.stdout).toContain("stops before applying until someone approves it");
    // Terraform wraps the warning's text: the command may span lines.
    const command = /siteops\s+upgrade\s+approve\s+--site\s+(site_\w+)/.exec(p.stdout);
    expect(command?.[1], p.stdout).toBe(siteId);
    const running = apply();
    let ended = false;
    void running.finally(() => (ended = true));
    while (!running.asked() && !ended) await new Promise((r) => setTimeout(r, 100));
    const cli = await runCli(["upgrade", "approve", "--site", command![1]!, "--comment", "approved by the test"], {
      env: { PATH: process.env.PATH, HOME: tf.home, SITEOPS_BASE_URL: tf.url, SITEOPS_API_TOKEN: OWNER_TOKEN, SITEOPS_POLL_INTERVAL_MS: "100" },
    });
    expect(cli.code, cli.stderr).toBe(0);
    const r = await running;
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const approved = (await pipelines())[0]!;
    expect(cli.stderr).toContain(`pipeline ${approved.id} succeeded`);
    expect(approved).toMatchObject({ status: "succeeded", requires_approval: true, comment: "approved by the test" });
    expect(r.stderr).toContain(`upgrade pipeline ${approved.id} awaits approval; waiting up to 30m`);
    expect((await tf.resource("siteops_site.blog"))!.php_version).toBe("8.3");
  });

  it("times out waiting for approval, then the next apply follows the same pipeline", async () => {
    config("6.7", "8.3", '  upgrade {\n    require_approval = true\n    timeout          = "2s"\n  }\n');
    const before = (await pipelines()).length;
    const r = await apply();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Error: Upgrade pipeline upg_\w+ did not end in time/);
    expect(r.stderr).toContain("the next apply follows this pipeline");
    const waiting = (await pipelines())[0]!;
    expect(waiting).toMatchObject({ status: "awaiting_approval", to_wp_version: "6.7" });
    expect((await tf.resource("siteops_site.blog"))!.wp_version).toBe("6.6");

    config("6.7", "8.3", "  upgrade {\n    require_approval = true\n  }\n");
    const running = apply();
    const approved = await approveWhenAsked(running);
    const again = await running;
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(approved.id).toBe(waiting.id);
    expect(
      again.stderr,
      again.stderr
        .split("\n")
        .filter((l) => l.includes("siteops_site"))
        .join("\n"),
    ).toContain(`upgrade pipeline ${waiting.id} is already awaiting_approval for these versions: following it rather than opening another`);
    expect(await pipelines()).toHaveLength(before + 1);
    expect((await tf.resource("siteops_site.blog"))!.wp_version).toBe("6.7");
  });

  it("adopts the pipeline it opened when the answer to the request was lost", async () => {
    config("6.8", "8.3", "  upgrade {\n    require_approval = true\n  }\n", "  max_retries = 0\n");
    const before = (await pipelines()).length;
    // The service opens the pipeline, then the connection is reset before the answer reaches the provider
    // (which may not retry: max_retries = 0). The pipeline waits for approval, as a real one runs for minutes.
    await faults(tf, [{ method: "POST", path: "/api/v1/sites/*/upgrade_pipelines", phase: "after", reset_connection: true, count: 1 }]);
    try {
      const running = apply();
      await approveWhenAsked(running);
      const r = await running;
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stderr).toContain("was opened although its answer was lost");
    } finally {
      await faults(tf, []);
    }
    expect(await pipelines()).toHaveLength(before + 1);
    expect((await pipelines())[0]).toMatchObject({ status: "succeeded", to_wp_version: "6.8" });
    expect((await tf.resource("siteops_site.blog"))!.wp_version).toBe("6.8");
  });

  it("refuses a downgrade at plan time, naming the attribute", async () => {
    config("6.4", "8.3");
    const p = await tf.plan();
    expect(p.code).toBe(1);
    expect(p.stderr).toContain("Error: WordPress downgrade refused");
    expect(p.stderr).toContain("with siteops_site.blog");
    expect(p.stderr).toContain('wp_version  = "6.4"');
    expect(p.stderr.replace(/\s+/g, " ")).toContain('set strategy = "direct"');
  });

  it("after an upgrade made outside Terraform, the refused downgrade names the fix: the site's version", async () => {
    const client = new SiteOps({ baseUrl: tf.url, apiToken: OWNER_TOKEN });
    const outside = await client.operations.openUpgrade(siteId, { to_wp_version: "6.9", requires_approval: false }, { pollInterval: 100 });
    expect(outside.status).toBe("succeeded");
    config("6.8", "8.3");
    const p = await tf.plan();
    expect(p.code).toBe(1);
    const text = p.stderr.replace(/\s+/g, " ");
    expect(text).toContain("wp_version would go from 6.9 down to 6.8, but the site runs 6.9");
    expect(text).toContain('set wp_version = "6.9" in the configuration');
    config("6.9", "8.3");
    const fixed = await tf.plan();
    expect(fixed.code, fixed.stdout + fixed.stderr).not.toBe(1);
    expect(fixed.stdout).not.toMatch(/wp_version|upgrade pipeline will run/);
  });

  it("changes the versions in place, downgrade included, with the direct strategy", async () => {
    config("6.4", "8.1", '  upgrade {\n    strategy = "direct"\n  }\n');
    const before = (await pipelines()).length;
    const p = await tf.plan();
    expect(p.code).toBe(2);
    expect(p.stdout).not.toContain("An upgrade pipeline will run");
    const r = await apply();
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(await pipelines()).toHaveLength(before);
    expect(await remote()).toMatchObject({ wp_version: "6.4", php_version: "8.1" });
    expect((await tf.plan()).code).toBe(0);
  });

  it("rejects an invalid policy with the attribute's path", async () => {
    config("6.4", "8.1", '  upgrade {\n    strategy = "yolo"\n    timeout  = "soon"\n  }\n');
    const p = await tf.plan();
    expect(p.code).toBe(1);
    expect(p.stderr).toContain('strategy = "yolo"');
    expect(p.stderr).toContain('must be a duration such as "30m"');
  });
});
