// The bundled action, run as the runner runs it, against the emulator: each command end to end (snapshot of one
// site, with an upload, of a fleet; upgrade and approve), its outputs, job summary and annotations. Failures and
// timeouts: failures.test.ts.
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SiteOps, type Snapshot, type UpgradePipeline } from "../../src/index.js";
import { expectNoSecrets, FLEET_SIZE, FLEET_TOKEN, MEMBER_TOKEN, run, TOKEN, useActionEmulator } from "./fixture.js";
import { RUN_URL } from "./run-action.js";

const fx = useActionEmulator();
const base = (): Record<string, string> => ({ "api-token": TOKEN, "base-url": fx.emu.url });

describe("snapshot", () => {
  it("snapshots one site by name, records the GitHub run, and writes outputs and a summary", async () => {
    const r = await run({ ...base(), command: "snapshot", site: "Blog" });
    expect(r.errors).toEqual([]);
    expect(r.code).toBe(0);
    const id = r.outputs["snapshot-id"]!;
    expect(id).toMatch(/^snap_/);
    expect(JSON.parse(r.outputs["snapshot-ids"]!)).toEqual({ [fx.sites.Blog!.id]: id });
    expect(r.outputs.status).toBe("completed");
    const result = JSON.parse(r.outputs.result!) as { snapshots: { site: { name: string }; snapshot: Snapshot; error: null }[] };
    expect(result.snapshots[0]).toMatchObject({ site: { name: "Blog" }, snapshot: { id, status: "completed" }, error: null });

    const snapshot = await fx.client.snapshots.get(fx.sites.Blog!.id, id);
    expect(snapshot.status).toBe("completed");
    expect(snapshot.trigger).toBe("manual");
    expect(snapshot.description).toBe(`GitHub Actions: acme/website@9f86d08 (Deploy), run ${RUN_URL}`);

    expect(r.stdout).toContain(`Blog: snapshot ${id} completed`);
    expect(r.summary).toContain("<h3>Site Operations: snapshots</h3>");
    expect(r.summary).toContain(`<a href="https://blog.example.com">Blog</a>`);
    expect(r.summary).toContain(`<code>${id}</code>`);
    expect(r.summary).toContain(RUN_URL);
    expect(r.stdout).toContain(`::add-mask::${TOKEN}`);
    expectNoSecrets(r);
  });

  it("uploads a file as the snapshot's data, with progress lines", async () => {
    const file = path.join(fx.dir, "database.sql.gz");
    const data = Buffer.alloc(300 * 1024, "INSERT INTO wp_posts VALUES (1);\n");
    writeFileSync(file, data);
    const r = await run({ ...base(), command: "snapshot", site: fx.sites.Shop!.id, "upload-file": file, description: "Before deploy" });
    expect(r.errors).toEqual([]);
    expect(r.code).toBe(0);
    const snapshot = await fx.client.snapshots.get(fx.sites.Shop!.id, r.outputs["snapshot-id"]!);
    expect(snapshot).toMatchObject({
      status: "completed",
      source: "upload",
      description: "Before deploy",
      size_bytes: data.length,
      checksum_sha256: createHash("sha256").update(data).digest("hex"),
    });
    expect(r.stdout).toContain("Shop: uploaded 100% (300 KiB of 300 KiB)");
    expectNoSecrets(r);
  });

  it(`snapshots all ${FLEET_SIZE} sites of an account, 8 at a time`, async () => {
    // As the nightly example runs it: on a schedule, the base URL from the environment.
    const r = await run(
      { "api-token": FLEET_TOKEN, command: "snapshot", site: "all", concurrency: "8" },
      { SITEOPS_BASE_URL: fx.emu.url, GITHUB_EVENT_NAME: "schedule" },
    );
    expect(r.errors).toEqual([]);
    expect(r.code).toBe(0);
    const ids = JSON.parse(r.outputs["snapshot-ids"]!) as Record<string, string>;
    expect(Object.keys(ids)).toHaveLength(FLEET_SIZE);
    expect(r.outputs["snapshot-id"]).toBe("");
    expect(r.outputs.status).toBe("completed");
    expect(r.stdout).toContain(`Snapshots of ${FLEET_SIZE} sites, 8 at a time`);
    expect(r.summary).toContain(`${FLEET_SIZE} of ${FLEET_SIZE} snapshots completed.`);
    expect(r.summary.match(/<code>snap_/g)).toHaveLength(FLEET_SIZE);
    // Many sites in flight share the run's cancellation signal: no Node warning in the job log about it.
    expect(r.stderr).not.toContain("Warning");

    const fleet = new SiteOps({ baseUrl: fx.emu.url, apiToken: FLEET_TOKEN });
    try {
      for (const [siteId, snapshotId] of Object.entries(ids)) {
        const page = await fleet.snapshots.list(siteId);
        expect(page.data.map((s) => [s.id, s.status, s.trigger])).toEqual([[snapshotId, "completed", "scheduled"]]);
      }
    } finally {
      await fleet.close();
    }
    expectNoSecrets(r);
  });

  it("keeps going when one site of a list fails, annotates it, and fails the step at the end", async () => {
    await fetch(`${fx.emu.url}/__emulator/health_checks`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ site_id: fx.sites.Down!.id, status: "failed" }),
    });
    const r = await run({ ...base(), command: "snapshot", site: "Blog\nDown\nShop" });
    expect(r.code).toBe(1);
    const ids = JSON.parse(r.outputs["snapshot-ids"]!) as Record<string, string>;
    expect(Object.keys(ids).sort()).toEqual([fx.sites.Blog!.id, fx.sites.Down!.id, fx.sites.Shop!.id].sort());
    expect(r.outputs.status).toBe("failed");
    const down = await fx.client.snapshots.get(fx.sites.Down!.id, ids[fx.sites.Down!.id]!);
    expect(down.status).toBe("failed");
    expect((await fx.client.snapshots.get(fx.sites.Shop!.id, ids[fx.sites.Shop!.id]!)).status).toBe("completed");
    // One annotation for the site, then the step's one failure line.
    expect(r.errors).toHaveLength(2);
    expect(r.errors[0]).toMatch(/^Down: Snapshot snap_\w+ failed/);
    expect(r.errors[1]).toMatch(/^1 of 3 snapshots failed: Down\. Snapshot snap_\w+ failed/);
    expect(r.summary).toContain("2 of 3 snapshots completed, 1 failed.");
    expectNoSecrets(r);
  });

  it("retries a transient server fault through the core and succeeds", async () => {
    await fetch(`${fx.emu.url}/__emulator/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rules: [{ method: "POST", path: "/api/v1/sites/*/snapshots", status: 503, count: 1 }] }),
    });
    try {
      const r = await run({ ...base(), command: "snapshot", site: "Shop" });
      expect(r.errors).toEqual([]);
      expect(r.code).toBe(0);
      expect(r.outputs.status).toBe("completed");
    } finally {
      await fetch(`${fx.emu.url}/__emulator/faults`, { method: "DELETE" });
    }
  });
});

describe("upgrade and approve", () => {
  it("opens a pipeline that awaits approval, then approves it and waits for success", async () => {
    const opened = await run({ ...base(), command: "upgrade", site: "Blog", "wp-version": "6.7" });
    expect(opened.errors).toEqual([]);
    expect(opened.code).toBe(0);
    const pipelineId = opened.outputs["pipeline-id"]!;
    expect(pipelineId).toMatch(/^upg_/);
    expect(opened.outputs.status).toBe("awaiting_approval");
    expect(opened.notices[0]).toContain(`Pipeline ${pipelineId} awaits approval`);
    expect(opened.summary).toContain("WordPress 6.5 → 6.7");
    expect((JSON.parse(opened.outputs.result!) as { pipeline: UpgradePipeline }).pipeline.requires_approval).toBe(true);

    const approved = await run({ ...base(), command: "approve", site: "Blog", "pipeline-id": pipelineId });
    expect(approved.errors).toEqual([]);
    // action.yml's defaults (set by the runner for every step) are no inputs the command ignores.
    expect([...opened.warnings, ...approved.warnings]).toEqual([]);
    expect(approved.code).toBe(0);
    expect(approved.outputs).toMatchObject({ "pipeline-id": pipelineId, status: "succeeded" });
    expect(approved.stdout).toMatch(new RegExp(`Blog: Pipeline ${pipelineId} succeeded after \\d`));
    expect(approved.visible).not.toContain("is succeeded");
    const pipeline = await fx.client.upgradePipelines.get(fx.sites.Blog!.id, pipelineId);
    expect(pipeline.status).toBe("succeeded");
    expect(pipeline.comment).toBe(`Approved by @octocat in acme/website (Deploy), run ${RUN_URL}`);
    expect((await fx.client.sites.get(fx.sites.Blog!.id)).wp_version).toBe("6.7");
    expect(approved.summary).toContain("<h3>Site Operations: approval</h3>");
    expectNoSecrets(opened);
    expectNoSecrets(approved);
  });

  it("fails the step when a pipeline without approval fails and rolls back", async () => {
    // The emulator's deterministic breakage: PHP 8.4 under WordPress below 6.7 fails verify and rolls back.
    const r = await run({ ...base(), command: "upgrade", site: "Legacy", "php-version": "8.4", "require-approval": "false" });
    expect(r.code).toBe(1);
    expect(r.outputs["pipeline-id"]).toMatch(/^upg_/);
    expect(r.outputs.status).toBe("rolled_back");
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatch(/^Upgrade pipeline upg_\w+ was rolled back: Verification failed/);
    expect(r.summary).toContain("rolled_back");
    expectNoSecrets(r);
  });

  it("fails the approve step when the approved pipeline fails", async () => {
    const opened = await run({ ...base(), command: "upgrade", site: "Legacy two", "php-version": "8.4" });
    expect(opened.code).toBe(0);
    expect(opened.outputs.status).toBe("awaiting_approval");
    const r = await run({ ...base(), command: "approve", site: "Legacy two", "pipeline-id": opened.outputs["pipeline-id"]!, comment: "Go" });
    expect(r.code).toBe(1);
    expect(r.outputs.status).toBe("rolled_back");
    expect(r.errors).toEqual([expect.stringMatching(/^Upgrade pipeline upg_\w+ was rolled back: Verification failed/)]);
    expect((await fx.client.upgradePipelines.get(fx.sites["Legacy two"]!.id, opened.outputs["pipeline-id"]!)).comment).toBe("Go");
  });

  it("passes on the service's 422 when a site already has an active pipeline", async () => {
    const first = await run({ ...base(), command: "upgrade", site: "Staging", "wp-version": "6.7" });
    expect(first.outputs.status).toBe("awaiting_approval");
    const second = await run({ ...base(), command: "upgrade", site: "Staging", "wp-version": "6.7" });
    expect(second.code).toBe(1);
    expect(second.errors).toEqual([expect.stringMatching(/^Site Operations API 422: .+\. Request id: \S+\.$/)]);
    expect(second.outputs).toEqual({});
  });

  it("says so in one line when the token's user may not open upgrades (403)", async () => {
    const r = await run({ ...base(), "api-token": MEMBER_TOKEN, command: "upgrade", site: "Shop", "wp-version": "6.7" });
    expect(r.code).toBe(1);
    expect(r.errors).toEqual([expect.stringMatching(/^Site Operations API 403: You are not authorized to perform this action\..*owner or admin role/)]);
    expectNoSecrets(r);
  });
});
