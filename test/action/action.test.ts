// The bundled action, run as the runner runs it, against the emulator: each command end to end, its outputs,
// job summary and annotations, and every way it fails (bad input, 401, 404, failed pipeline, timeout).
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator, type SeedFile } from "../../emulator/index.js";
import { SiteOps, type Site, type Snapshot, type UpgradePipeline } from "../../src/index.js";
import { RUN_URL, runAction, type ActionRun } from "./run-action.js";

const TOKEN = "sot_actionTestOwnerToken000001";
const MEMBER_TOKEN = "sot_actionTestMemberToken00001";
const FLEET_TOKEN = "sot_actionTestFleetToken000001";
const WRONG_TOKEN = "sot_actionTestWrongToken000001";
const FLEET_SIZE = 50;

const SEED: SeedFile = {
  accounts: [
    {
      name: "Agency",
      users: [
        { email: "owner@example.com", password: "owner-password-1", name: "Owner", role: "owner" },
        { email: "member@example.com", password: "member-password-1", name: "Member", role: "member" },
      ],
      api_tokens: [
        { token: TOKEN, user_email: "owner@example.com" },
        { token: MEMBER_TOKEN, user_email: "member@example.com" },
      ],
      sites: [
        { name: "Blog", url: "https://blog.example.com", wp_version: "6.5", php_version: "8.2" },
        { name: "Shop", url: "https://shop.example.com", wp_version: "6.6", php_version: "8.2" },
        { name: "Legacy", url: "https://legacy.example.com", wp_version: "6.5", php_version: "8.2" },
        { name: "Legacy two", url: "https://legacy2.example.com", wp_version: "6.5", php_version: "8.2" },
        { name: "Down", url: "https://down.example.com" },
        { name: "Staging", url: "https://staging.example.com", wp_version: "6.5", php_version: "8.2" },
        { name: "Twin", url: "https://twin-a.example.com" },
        { name: "Twin", url: "https://twin-b.example.com" },
      ],
    },
    {
      name: "Fleet",
      users: [{ email: "fleet@example.com", password: "fleet-password-1", name: "Fleet", role: "owner" }],
      api_tokens: [{ token: FLEET_TOKEN, user_email: "fleet@example.com" }],
      sites: Array.from({ length: FLEET_SIZE }, (_, i) => ({ name: `Fleet ${i + 1}`, url: `https://fleet-${i + 1}.example.com` })),
    },
  ],
};

// Polls every 20 ms instead of 2 s: the emulator completes steps at once (stepSeconds 0).
const FAST = { SITEOPS_POLL_INTERVAL_MS: "20" };

let emu: RunningEmulator;
let client: SiteOps;
let sites: Record<string, Site>;
let dir: string;

const base = (): Record<string, string> => ({ "api-token": TOKEN, "base-url": emu.url });
const run = (inputs: Record<string, string>, env: Record<string, string> = {}): Promise<ActionRun> => runAction(inputs, { ...FAST, ...env });

/** Nothing a user of the run sees contains a token (the runner consumes the ::add-mask:: line itself). */
function expectNoSecrets(r: ActionRun): void {
  for (const token of [TOKEN, MEMBER_TOKEN, FLEET_TOKEN, WRONG_TOKEN]) expect(r.visible).not.toContain(token);
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, stepSeconds: 0, seed: SEED });
  client = new SiteOps({ baseUrl: emu.url, apiToken: TOKEN });
  sites = {};
  for await (const site of client.sites.list({ per_page: 100 })) sites[site.name] ??= site;
  dir = mkdtempSync(path.join(tmpdir(), "siteops-action-test-"));
});

afterAll(async () => {
  await client?.close();
  await emu?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("snapshot", () => {
  it("snapshots one site by name, records the GitHub run, and writes outputs and a summary", async () => {
    const r = await run({ ...base(), command: "snapshot", site: "Blog" });
    expect(r.errors).toEqual([]);
    expect(r.code).toBe(0);
    const id = r.outputs["snapshot-id"]!;
    expect(id).toMatch(/^snap_/);
    expect(JSON.parse(r.outputs["snapshot-ids"]!)).toEqual({ [sites.Blog!.id]: id });
    expect(r.outputs.status).toBe("completed");
    const result = JSON.parse(r.outputs.result!) as { snapshots: { site: { name: string }; snapshot: Snapshot; error: null }[] };
    expect(result.snapshots[0]).toMatchObject({ site: { name: "Blog" }, snapshot: { id, status: "completed" }, error: null });

    const snapshot = await client.snapshots.get(sites.Blog!.id, id);
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
    const file = path.join(dir, "database.sql.gz");
    const data = Buffer.alloc(300 * 1024, "INSERT INTO wp_posts VALUES (1);\n");
    writeFileSync(file, data);
    const r = await run({ ...base(), command: "snapshot", site: sites.Shop!.id, "upload-file": file, description: "Before deploy" });
    expect(r.errors).toEqual([]);
    expect(r.code).toBe(0);
    const snapshot = await client.snapshots.get(sites.Shop!.id, r.outputs["snapshot-id"]!);
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
      { SITEOPS_BASE_URL: emu.url, GITHUB_EVENT_NAME: "schedule" },
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

    const fleet = new SiteOps({ baseUrl: emu.url, apiToken: FLEET_TOKEN });
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
    await fetch(`${emu.url}/__emulator/health_checks`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ site_id: sites.Down!.id, status: "failed" }),
    });
    const r = await run({ ...base(), command: "snapshot", site: "Blog\nDown\nShop" });
    expect(r.code).toBe(1);
    const ids = JSON.parse(r.outputs["snapshot-ids"]!) as Record<string, string>;
    expect(Object.keys(ids).sort()).toEqual([sites.Blog!.id, sites.Down!.id, sites.Shop!.id].sort());
    expect(r.outputs.status).toBe("failed");
    const down = await client.snapshots.get(sites.Down!.id, ids[sites.Down!.id]!);
    expect(down.status).toBe("failed");
    expect((await client.snapshots.get(sites.Shop!.id, ids[sites.Shop!.id]!)).status).toBe("completed");
    // One annotation for the site, then the step's one failure line.
    expect(r.errors).toHaveLength(2);
    expect(r.errors[0]).toMatch(/^Down: Snapshot snap_\w+ failed/);
    expect(r.errors[1]).toMatch(/^1 of 3 snapshots failed: Down\. Snapshot snap_\w+ failed/);
    expect(r.summary).toContain("2 of 3 snapshots completed, 1 failed.");
    expectNoSecrets(r);
  });

  it("retries a transient server fault through the core and succeeds", async () => {
    await fetch(`${emu.url}/__emulator/faults`, {
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
      await fetch(`${emu.url}/__emulator/faults`, { method: "DELETE" });
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
    const pipeline = await client.upgradePipelines.get(sites.Blog!.id, pipelineId);
    expect(pipeline.status).toBe("succeeded");
    expect(pipeline.comment).toBe(`Approved by @octocat in acme/website (Deploy), run ${RUN_URL}`);
    expect((await client.sites.get(sites.Blog!.id)).wp_version).toBe("6.7");
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
    expect((await client.upgradePipelines.get(sites["Legacy two"]!.id, opened.outputs["pipeline-id"]!)).comment).toBe("Go");
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

describe("failures", () => {
  it("reports every missing or malformed input at once, before any request", async () => {
    const r = await run({
      "api-token": TOKEN,
      "base-url": "ftp://example.com",
      command: "snapshot",
      site: "all",
      "upload-file": path.join(dir, "missing.sql"),
      concurrency: "0",
      wait: "yes",
      "timeout-minutes": "-1",
      "pipeline-id": "upg_ignored",
    });
    expect(r.code).toBe(1);
    expect(r.errors).toHaveLength(1);
    const line = r.errors[0]!;
    expect(line).toMatch(/^Invalid input: /);
    for (const fragment of [
      `'base-url' must be an http or https URL (got "ftp:")`,
      `'wait' must be true or false (got "yes")`,
      `'timeout-minutes' must be a number of minutes above 0 and at most 1440 (got "-1")`,
      "'upload-file' \"",
      "does not exist",
      "'upload-file' needs exactly one site",
      `'concurrency' must be a whole number from 1 to 64 (got "0")`,
    ]) {
      expect(line).toContain(fragment);
    }
    expect(r.warnings).toEqual(["Input 'pipeline-id' is ignored by the snapshot command (it is read by approve)."]);
    expect(r.outputs).toEqual({});
    expectNoSecrets(r);
  });

  it("requires a command, a token and a base URL", async () => {
    const r = await run({ site: "Blog" });
    expect(r.code).toBe(1);
    expect(r.errors).toEqual([
      "Invalid input: 'api-token' is required (or set SITEOPS_API_TOKEN); 'command' is required: one of snapshot, upgrade, approve; 'base-url' is required (or set SITEOPS_BASE_URL).",
    ]);
  });

  it("checks each command's own inputs", async () => {
    const upgrade = await run({ ...base(), command: "upgrade", site: "Blog\nShop", "wp-version": "6.7.1" });
    expect(upgrade.errors).toEqual([
      "Invalid input: 'site' must be one site for the upgrade command (lists and 'all' are for snapshot); 'wp-version' must be a major.minor version such as 6.5 (got \"6.7.1\").",
    ]);
    const approve = await run({ ...base(), command: "approve", site: "Blog" });
    expect(approve.errors).toEqual(["Invalid input: 'pipeline-id' is required by the approve command (the pipeline-id output of the upgrade command)."]);
  });

  it("fails with one line on a wrong token (401), without retrying and without printing it", async () => {
    const r = await run({ ...base(), "api-token": WRONG_TOKEN, command: "snapshot", site: "Blog" });
    expect(r.code).toBe(1);
    expect(r.errors).toEqual([
      expect.stringMatching(/^Site Operations API 401: You need to sign in or sign up before continuing\. Request id: \S+\. Check 'api-token'/),
    ]);
    expect(r.stdout).toContain(`::add-mask::${WRONG_TOKEN}`);
    expectNoSecrets(r);
  });

  it("names the site it cannot find, and the twins it cannot tell apart", async () => {
    const missing = await run({ ...base(), command: "snapshot", site: "Blog, Nope" });
    expect(missing.code).toBe(1);
    expect(missing.errors).toEqual([`No site with the id or exact name "Nope" in this account (it has 8 sites).`]);
    const byId = await run({ ...base(), command: "upgrade", site: "site_0000000000000000", "wp-version": "6.7" });
    expect(byId.errors).toEqual([`No site with the id or exact name "site_0000000000000000" in this account.`]);
    const twins = await run({ ...base(), command: "snapshot", site: "Twin" });
    expect(twins.errors).toEqual([expect.stringMatching(/^2 sites are named "Twin": give one of their ids instead \(site_\w+, site_\w+\)\.$/)]);
  });

  it("fails with the API's 404 and a hint for an unknown pipeline", async () => {
    const r = await run({ ...base(), command: "approve", site: "Shop", "pipeline-id": "upg_0000000000000000" });
    expect(r.code).toBe(1);
    expect(r.errors).toEqual([
      expect.stringMatching(
        /^Site Operations API 404: Record not found\. Request id: \S+\. Site Shop has no pipeline upg_0000000000000000: check 'pipeline-id' and 'site'\.$/,
      ),
    ]);
  });

  it("cannot reach a service that is not there", async () => {
    const r = await run({ ...base(), "base-url": "http://127.0.0.1:9", command: "snapshot", site: "Blog" }, { SITEOPS_MAX_RETRIES: "0" });
    expect(r.code).toBe(1);
    expect(r.errors).toEqual([expect.stringMatching(/^Cannot reach the Site Operations service: Connection error \(ECONNREFUSED\)/)]);
  });
});

describe("timeout", () => {
  let slow: RunningEmulator;
  beforeAll(async () => {
    // An hour per step: nothing completes while the action waits.
    slow = await startEmulator({ port: 0, stepSeconds: 3600, seed: SEED });
  });
  afterAll(async () => {
    await slow?.close();
  });

  it("gives up after timeout-minutes and still reports the snapshot it started", async () => {
    const r = await run({ "api-token": TOKEN, "base-url": slow.url, command: "snapshot", site: "Shop", "timeout-minutes": "0.01" });
    expect(r.code).toBe(1);
    expect(r.outputs["snapshot-id"]).toMatch(/^snap_/);
    expect(r.outputs.status).toBe("failed");
    expect(r.errors).toEqual([expect.stringMatching(/^Timed out waiting: snapshot snap_\w+ is requested\. Raise 'timeout-minutes', or set 'wait: false'\.$/)]);
  });

  it("gives up waiting for a pipeline and outputs its id and last status", async () => {
    const r = await run({ "api-token": TOKEN, "base-url": slow.url, command: "upgrade", site: "Shop", "wp-version": "6.7", "timeout-minutes": "0.01" });
    expect(r.code).toBe(1);
    expect(r.outputs["pipeline-id"]).toMatch(/^upg_/);
    expect(r.outputs.status).toBe("pending");
    expect(r.errors).toEqual([expect.stringMatching(/^Timed out waiting: upgrade pipeline upg_\w+ is pending\./)]);
  });

  it("stops waiting when the workflow run is cancelled (SIGINT) and still writes what it started", async () => {
    const r = await runAction({ "api-token": TOKEN, "base-url": slow.url, command: "snapshot", site: "Blog, Shop" }, FAST, {
      interrupt: { when: /Shop: snapshot snap_\w+ created/, signal: "SIGINT" },
    });
    expect(r.code).toBe(1);
    const ids = JSON.parse(r.outputs["snapshot-ids"]!) as Record<string, string>;
    expect(Object.keys(ids)).toHaveLength(2);
    expect(r.outputs.status).toBe("failed");
    expect(r.errors.at(-1)).toMatch(/^2 of 2 snapshots failed: Blog, Shop\. Cancelled: the workflow run was cancelled while waiting/);
    expect(r.summary).toContain("0 of 2 snapshots completed, 2 failed.");
  });

  it("returns at once with wait: false", async () => {
    const r = await run({ "api-token": TOKEN, "base-url": slow.url, command: "snapshot", site: "Blog", wait: "false" });
    expect(r.errors).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.outputs.status).toBe("requested");
  });
});
