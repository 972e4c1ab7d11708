// Upgrade pipelines (stepSeconds 0: each state machine runs to its next stop before the next request):
// validation, one active pipeline per site, approval, the site's new versions and fixed records,
// the deterministic failure and its rollback, roles and other accounts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, api, startTestEmulator } from "./helpers.js";

let emu: RunningEmulator;
let n = 0;

async function createSite(wp: string, php = "8.3", token: string = TOKENS.owner): Promise<string> {
  n++;
  const res = await api(emu, "POST", "/sites", { token, body: { name: `Upg ${n}`, url: `https://upg${n}.example.com`, wp_version: wp, php_version: php } });
  expect(res.status).toBe(201);
  return res.body.id;
}

const pipelines = (siteId: string) => `/sites/${siteId}/upgrade_pipelines`;
const open = (siteId: string, body: unknown, token: string = TOKENS.owner) => api(emu, "POST", pipelines(siteId), { token, body });
const get = async (siteId: string, id: string) => (await api(emu, "GET", `${pipelines(siteId)}/${id}`, { token: TOKENS.owner })).body;
const approve = (siteId: string, id: string, body: unknown = {}, token: string = TOKENS.owner) =>
  api(emu, "POST", `${pipelines(siteId)}/${id}/approve`, { token, body });
const stepStatuses = (p: { steps: { name: string; status: string }[] }) => p.steps.map((s) => `${s.name}:${s.status}`);

beforeAll(async () => {
  emu = await startTestEmulator({ allowPrivateWebhookTargets: true }); // local receivers
});

afterAll(async () => {
  await emu?.close();
});

describe("creating a pipeline", () => {
  it("returns the pending pipeline with every field", async () => {
    const site = await createSite("6.4", "8.1");
    const res = await open(site, { to_wp_version: "6.9", to_php_version: "8.3" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^upg_[A-Za-z0-9]{16,}$/),
      site_id: site,
      status: "pending",
      from_wp_version: "6.4",
      to_wp_version: "6.9",
      from_php_version: "8.1",
      to_php_version: "8.3",
      snapshot_id: null,
      requires_approval: true,
      approved_at: null,
      approved_by: null,
      comment: null,
      error: null,
      steps: ["snapshot", "preflight", "apply", "verify"].map((name) => ({ name, status: "pending", started_at: null, finished_at: null })),
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
      completed_at: null,
    });
  });

  it("validates targets: at least one, known versions, no downgrade, something to do, a completed snapshot of this site", async () => {
    const site = await createSite("6.5", "8.2");
    const cases: [unknown, string, string][] = [
      [{}, "to_wp_version", "can't be blank when to_php_version is not given"],
      [{ to_wp_version: "7.9" }, "to_wp_version", "is not included in the list"],
      [{ to_wp_version: "6.3" }, "to_wp_version", "can't be lower than the current version (6.5)"],
      [{ to_php_version: "8.1" }, "to_php_version", "can't be lower than the current version (8.2)"],
      [{ to_php_version: "8.2" }, "to_php_version", "is already the site's version"],
      [{ to_wp_version: "6.9", snapshot_id: "snap_doesnotexist0000000" }, "snapshot_id", "must be a completed snapshot of this site"],
    ];
    for (const [body, field, message] of cases) {
      const res = await open(site, body);
      expect([body, res.status, res.body.errors?.[field]]).toEqual([body, 422, [message]]);
    }
    const wrongType = await open(site, { to_wp_version: 6.9, requires_approval: "no" });
    expect(wrongType.status).toBe(422);
    expect(Object.keys(wrongType.body.errors).sort()).toEqual(["requires_approval", "to_wp_version"]);

    // A snapshot that is not completed (an upload still waiting) or belongs to another site is refused.
    const waiting = await api(emu, "POST", `/sites/${site}/snapshots`, { token: TOKENS.owner, body: { upload: true } });
    expect((await open(site, { to_wp_version: "6.9", snapshot_id: waiting.body.id })).body.errors).toEqual({
      snapshot_id: ["must be a completed snapshot of this site"],
    });
    const other = await createSite("6.5");
    const otherSnap = await api(emu, "POST", `/sites/${other}/snapshots`, { token: TOKENS.owner, body: {} });
    expect((await open(site, { to_wp_version: "6.9", snapshot_id: otherSnap.body.id })).status).toBe(422);
    expect((await api(emu, "GET", pipelines(site), { token: TOKENS.owner })).body).toEqual([]);
  });

  it("allows one active pipeline per site", async () => {
    const site = await createSite("6.6");
    const first = await open(site, { to_wp_version: "6.8" });
    expect(first.status).toBe(201);
    expect(await open(site, { to_wp_version: "6.9" })).toMatchObject({ status: 422, body: { error: "Site already has an active upgrade pipeline" } });
    // Another site is independent.
    expect((await open(await createSite("6.6"), { to_wp_version: "6.9" })).status).toBe(201);
  });
});

describe("running a pipeline", () => {
  it("takes a pre-upgrade snapshot, waits for approval, applies, and the site moves to the new versions", async () => {
    const site = await createSite("6.2", "8.1");
    const openVulns = (await api(emu, "GET", `/sites/${site}/vulnerability_records?status=open`, { token: TOKENS.owner })).body;
    expect(openVulns.length).toBeGreaterThan(3);

    const created = (await open(site, { to_wp_version: "6.9", to_php_version: "8.3" })).body;
    const waiting = await get(site, created.id);
    expect(waiting.status).toBe("awaiting_approval");
    expect(stepStatuses(waiting)).toEqual(["snapshot:passed", "preflight:passed", "apply:pending", "verify:pending"]);
    const snap = (await api(emu, "GET", `/sites/${site}/snapshots/${waiting.snapshot_id}`, { token: TOKENS.owner })).body;
    expect(snap).toMatchObject({ status: "completed", trigger: "pre_upgrade", source: "service", wp_version: "6.2" });

    // Approving twice: the second is not awaiting approval any more.
    const approved = await approve(site, created.id, { comment: "Ship it" }, TOKENS.admin);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: "applying", comment: "Ship it", approved_by: expect.stringMatching(/^usr_/) });
    expect(approved.body.approved_at).toMatch(/Z$/);
    expect(await approve(site, created.id)).toMatchObject({ status: 422, body: { error: "Pipeline is not awaiting approval" } });

    const done = await get(site, created.id);
    expect(done.status).toBe("succeeded");
    expect(stepStatuses(done)).toEqual(["snapshot:passed", "preflight:passed", "apply:passed", "verify:passed"]);
    expect(done.completed_at).toMatch(/Z$/);
    const s = (await api(emu, "GET", `/sites/${site}`, { token: TOKENS.owner })).body;
    expect(s).toMatchObject({ wp_version: "6.9", php_version: "8.3", status: "healthy" });

    // Every record fixed by 6.9 is fixed, with fixed_at.
    const records = (await api(emu, "GET", `/sites/${site}/vulnerability_records`, { token: TOKENS.owner })).body;
    expect(records.length).toBe(openVulns.length);
    expect(records.every((r: { status: string; fixed_at: string | null }) => r.status === "fixed" && r.fixed_at)).toBe(true);

    const actions = (await api(emu, "GET", `/activity_logs?site_id=${site}&per_page=100`, { token: TOKENS.owner })).body.map(
      (l: { action: string }) => l.action,
    );
    for (const a of [
      "upgrade_pipeline.created",
      "upgrade_pipeline.awaiting_approval",
      "upgrade_pipeline.approved",
      "site.updated",
      "upgrade_pipeline.succeeded",
    ]) {
      expect(actions).toContain(a);
    }
    const siteUpdated = (await api(emu, "GET", `/activity_logs?site_id=${site}&action=site.updated`, { token: TOKENS.owner })).body[0];
    expect(siteUpdated.changes).toEqual({ wp_version: ["6.2", "6.9"], php_version: ["8.1", "8.3"] });

    // The site may have a new pipeline now.
    expect((await open(site, { to_php_version: "8.4" })).status).toBe(201);
  });

  it("without approval runs straight through; a given snapshot skips the snapshot step", async () => {
    const site = await createSite("6.7");
    const snap = await api(emu, "POST", `/sites/${site}/snapshots`, { token: TOKENS.owner, body: {} });
    const created = (await open(site, { to_wp_version: "6.8", requires_approval: false, snapshot_id: snap.body.id })).body;
    expect(created.requires_approval).toBe(false);
    const done = await get(site, created.id);
    expect(done).toMatchObject({ status: "succeeded", snapshot_id: snap.body.id, approved_at: null });
    expect(stepStatuses(done)).toEqual(["snapshot:skipped", "preflight:passed", "apply:passed", "verify:passed"]);
    expect((await api(emu, "GET", `/sites/${site}`, { token: TOKENS.owner })).body.wp_version).toBe("6.8");
  });

  it("approves with no request body at all", async () => {
    const site = await createSite("6.8");
    const created = (await open(site, { to_wp_version: "6.9" })).body;
    const res = await api(emu, "POST", `${pipelines(site)}/${created.id}/approve`, { token: TOKENS.owner });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "applying", comment: null });
    expect((await get(site, created.id)).status).toBe("succeeded");
  });

  it("fails at verify and rolls back when the upgrade is known to break (PHP 8.4 on WordPress below 6.7)", async () => {
    const site = await createSite("6.5", "8.2");
    const created = (await open(site, { to_php_version: "8.4" })).body;
    expect((await approve(site, created.id)).status).toBe(200);
    const done = await get(site, created.id);
    expect(done.status).toBe("rolled_back");
    expect(done.error).toMatch(/PHP 8\.4/);
    expect(stepStatuses(done)).toEqual(["snapshot:passed", "preflight:passed", "apply:passed", "verify:failed"]);
    expect(done.completed_at).toMatch(/Z$/);
    const s = (await api(emu, "GET", `/sites/${site}`, { token: TOKENS.owner })).body;
    expect(s).toMatchObject({ wp_version: "6.5", php_version: "8.2" });
    expect(s.status).not.toBe("maintenance");
    // The same target with a WordPress that supports it works.
    const ok = (await open(site, { to_wp_version: "6.7", to_php_version: "8.4", requires_approval: false })).body;
    expect((await get(site, ok.id)).status).toBe("succeeded");
  });

  it("fails at preflight (no rollback needed) when the site is down", async () => {
    const site = await createSite("6.6");
    await api(emu, "POST", "/__emulator/health_checks", { body: { site_id: site, status: "failed" } });
    const snap = await api(emu, "POST", `/sites/${site}/snapshots`, { token: TOKENS.owner, body: { upload: true } });
    await api(emu, "PUT", `/sites/${site}/snapshots/${snap.body.id}/upload`, {
      token: TOKENS.owner,
      raw: Buffer.from("backup"),
      headers: { "content-type": "application/octet-stream" },
    });
    const created = (await open(site, { to_wp_version: "6.9", snapshot_id: snap.body.id })).body;
    const done = await get(site, created.id);
    expect(done).toMatchObject({ status: "failed", error: "Preflight failed: the site is not reachable" });
    expect(stepStatuses(done)).toEqual(["snapshot:skipped", "preflight:failed", "apply:pending", "verify:pending"]);
    // Failed before applying: the site may open another pipeline at once.
    expect((await open(site, { to_wp_version: "6.9", snapshot_id: snap.body.id })).status).toBe(201);
  });

  it("fails when the pre-upgrade snapshot cannot be captured", async () => {
    const site = await createSite("6.6");
    await api(emu, "POST", "/__emulator/health_checks", { body: { site_id: site, status: "failed" } });
    const created = (await open(site, { to_wp_version: "6.9" })).body;
    const done = await get(site, created.id);
    expect(done.status).toBe("failed");
    expect(done.error).toMatch(/^Pre-upgrade snapshot failed/);
    expect(stepStatuses(done)[0]).toBe("snapshot:failed");
  });
});

describe("events", () => {
  it("announces each transition, the snapshot it takes, the site's new versions and the fixed records", async () => {
    const ep = await api(emu, "POST", "/webhook_endpoints", { token: TOKENS.owner, body: { url: "http://127.0.0.1:9/hooks", enabled_events: ["*"] } });
    expect(ep.status).toBe(201);
    const site = await createSite("6.8");
    const created = (await open(site, { to_wp_version: "6.9" })).body;
    await approve(site, created.id, { comment: "go" });
    expect((await get(site, created.id)).status).toBe("succeeded");
    const deliveries = (await api(emu, "GET", `/__emulator/webhook_deliveries?endpoint_id=${ep.body.id}`)).body.deliveries as {
      event_type: string;
      payload: { type: string; data: { id: string; site_id?: string; status?: string } };
    }[];
    const mine = deliveries.filter((d) => d.payload.data.id === site || d.payload.data.site_id === site).map((d) => d.event_type);
    const pipelineEvents = mine.filter((t) => t.startsWith("upgrade_pipeline."));
    expect(pipelineEvents).toEqual([
      "upgrade_pipeline.created",
      "upgrade_pipeline.awaiting_approval",
      "upgrade_pipeline.approved",
      "upgrade_pipeline.succeeded",
    ]);
    for (const t of ["snapshot.created", "snapshot.completed", "site.updated", "vulnerability_record.fixed", "site.status_changed"]) expect(mine).toContain(t);
    const succeeded = deliveries.find((d) => d.event_type === "upgrade_pipeline.succeeded" && d.payload.data.id === created.id)!;
    expect(succeeded.payload.data.status).toBe("succeeded");
    await api(emu, "DELETE", `/webhook_endpoints/${ep.body.id}`, { token: TOKENS.owner });
  });
});

describe("access", () => {
  it("members may read pipelines but not create or approve them", async () => {
    const site = await createSite("6.6");
    const forbidden = { status: 403, body: { error: "You are not authorized to perform this action." } };
    expect(await open(site, { to_wp_version: "6.9" }, TOKENS.member)).toMatchObject(forbidden);
    const created = (await open(site, { to_wp_version: "6.9" })).body;
    expect(await approve(site, created.id, {}, TOKENS.member)).toMatchObject(forbidden);
    expect((await api(emu, "GET", `${pipelines(site)}/${created.id}`, { token: TOKENS.member })).body.status).toBe("awaiting_approval");
    expect((await api(emu, "GET", pipelines(site), { token: TOKENS.member })).body).toHaveLength(1);
  });

  it("another account's site and pipelines are 404, and wrong-shaped ids too", async () => {
    const site = await createSite("6.6");
    const created = (await open(site, { to_wp_version: "6.9" })).body;
    const notFound = { status: 404, body: { error: "Record not found" } };
    expect(await api(emu, "GET", pipelines(site), { token: TOKENS.ownerB })).toMatchObject(notFound);
    expect(await api(emu, "GET", `${pipelines(site)}/${created.id}`, { token: TOKENS.ownerB })).toMatchObject(notFound);
    expect(await open(site, { to_wp_version: "6.9" }, TOKENS.ownerB)).toMatchObject(notFound);
    expect(await approve(site, created.id, {}, TOKENS.ownerB)).toMatchObject(notFound);
    expect(await api(emu, "GET", `${pipelines(site)}/upg_nope`, { token: TOKENS.owner })).toMatchObject(notFound);
    expect(await approve(site, "upg_doesnotexist00000000")).toMatchObject(notFound);
    expect((await get(site, created.id)).status).toBe("awaiting_approval");
  });

  it("lists newest first", async () => {
    const site = await createSite("6.5");
    const a = (await open(site, { to_wp_version: "6.6", requires_approval: false })).body.id;
    const b = (await open(site, { to_wp_version: "6.7", requires_approval: false })).body.id;
    const list = await api(emu, "GET", pipelines(site), { token: TOKENS.owner });
    expect(list.body.map((p: { id: string }) => p.id)).toEqual([b, a]);
    expect(list.headers.get("total-count")).toBe("2");
  });
});
