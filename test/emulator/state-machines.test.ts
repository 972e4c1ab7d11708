// The snapshot and pipeline state machines on the emulator's clock (stepSeconds 2), driven by
// POST /__emulator/clock: every intermediate state is observed, then the end state. Steps are due at
// fixed clock times from creation, so the real time a test takes (well under 2 s) never adds a step.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, advanceClock, api, startTestEmulator } from "./helpers.js";

let emu: RunningEmulator;
let n = 0;

async function createSite(wp: string, php = "8.3"): Promise<string> {
  n++;
  const res = await api(emu, "POST", "/sites", {
    token: TOKENS.owner,
    body: { name: `SM ${n}`, url: `https://sm${n}.example.com`, wp_version: wp, php_version: php },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

const get = async (p: string) => (await api(emu, "GET", p, { token: TOKENS.owner })).body;
const steps = (p: { steps: { name: string; status: string }[] }) => p.steps.map((s) => s.status).join(",");

beforeAll(async () => {
  emu = await startTestEmulator({ stepSeconds: 2 });
});

afterAll(async () => {
  await emu?.close();
});

describe("service snapshot", () => {
  it("requested -> in_progress -> completed, one step per 2 s of emulator clock", async () => {
    const site = await createSite("6.9");
    const created = await api(emu, "POST", `/sites/${site}/snapshots`, { token: TOKENS.owner, body: { description: "sm" } });
    const path = `/sites/${site}/snapshots/${created.body.id}`;
    expect((await get(path)).status).toBe("requested");
    await advanceClock(emu, 2);
    expect(await get(path)).toMatchObject({ status: "in_progress", size_bytes: null, completed_at: null });
    await advanceClock(emu, 2);
    const done = await get(path);
    expect(done.status).toBe("completed");
    expect(done.size_bytes).toBeGreaterThan(0);
    expect(Date.parse(done.completed_at) - Date.parse(done.created_at)).toBe(4000);
  });

  it("upload snapshot: requested -> in_progress (first chunk) -> completed (last chunk), independent of the clock", async () => {
    const site = await createSite("6.9");
    const id = (await api(emu, "POST", `/sites/${site}/snapshots`, { token: TOKENS.owner, body: { upload: true } })).body.id;
    const path = `/sites/${site}/snapshots/${id}`;
    await advanceClock(emu, 60);
    expect((await get(path)).status).toBe("requested");
    const put = (range: string, data: string) =>
      api(emu, "PUT", `${path}/upload`, {
        token: TOKENS.owner,
        raw: Buffer.from(data),
        headers: { "content-type": "application/octet-stream", "content-range": range },
      });
    expect((await put("bytes 0-3/8", "abcd")).status).toBe(202);
    expect((await get(path)).status).toBe("in_progress");
    expect((await put("bytes 4-7/8", "efgh")).status).toBe(200);
    expect(await get(path)).toMatchObject({ status: "completed", size_bytes: 8 });
  });
});

describe("upgrade pipeline", () => {
  it("pending -> running (snapshot, preflight) -> awaiting_approval -> applying (apply, verify) -> succeeded", async () => {
    const site = await createSite("6.3", "8.2");
    const created = (await api(emu, "POST", `/sites/${site}/upgrade_pipelines`, { token: TOKENS.owner, body: { to_wp_version: "6.9" } })).body;
    const path = `/sites/${site}/upgrade_pipelines/${created.id}`;
    let p = await get(path);
    expect([p.status, steps(p)]).toEqual(["pending", "pending,pending,pending,pending"]);

    await advanceClock(emu, 2);
    p = await get(path);
    expect([p.status, steps(p)]).toEqual(["running", "running,pending,pending,pending"]);
    const snapPath = `/sites/${site}/snapshots/${p.snapshot_id}`;
    expect(await get(snapPath)).toMatchObject({ status: "requested", trigger: "pre_upgrade" });

    await advanceClock(emu, 2);
    expect((await get(snapPath)).status).toBe("in_progress");
    expect(steps(await get(path))).toBe("running,pending,pending,pending");

    await advanceClock(emu, 2);
    expect((await get(snapPath)).status).toBe("completed");
    p = await get(path);
    expect([p.status, steps(p)]).toEqual(["running", "passed,running,pending,pending"]);

    await advanceClock(emu, 2);
    p = await get(path);
    expect([p.status, steps(p)]).toEqual(["awaiting_approval", "passed,passed,pending,pending"]);
    // It waits for approval however long it takes.
    await advanceClock(emu, 3600);
    expect((await get(path)).status).toBe("awaiting_approval");
    expect((await get(`/sites/${site}`)).status).not.toBe("maintenance");

    const approved = await api(emu, "POST", `${path}/approve`, { token: TOKENS.owner, body: { comment: "ok" } });
    expect([approved.body.status, steps(approved.body)]).toEqual(["applying", "passed,passed,running,pending"]);
    expect((await get(`/sites/${site}`)).status).toBe("maintenance");

    await advanceClock(emu, 2);
    p = await get(path);
    expect([p.status, steps(p)]).toEqual(["applying", "passed,passed,passed,running"]);
    expect((await get(`/sites/${site}`)).status).toBe("maintenance");

    await advanceClock(emu, 2);
    p = await get(path);
    expect([p.status, steps(p)]).toEqual(["succeeded", "passed,passed,passed,passed"]);
    expect(await get(`/sites/${site}`)).toMatchObject({ status: "healthy", wp_version: "6.9", php_version: "8.2" });
  });

  it("without approval: running -> applying -> failed -> rolled_back on a broken upgrade", async () => {
    const site = await createSite("6.4", "8.3");
    const snap = (await api(emu, "POST", `/sites/${site}/snapshots`, { token: TOKENS.owner, body: {} })).body.id;
    await advanceClock(emu, 4);
    const created = (
      await api(emu, "POST", `/sites/${site}/upgrade_pipelines`, {
        token: TOKENS.owner,
        body: { to_php_version: "8.4", requires_approval: false, snapshot_id: snap },
      })
    ).body;
    const path = `/sites/${site}/upgrade_pipelines/${created.id}`;
    const seen: string[] = [(await get(path)).status];
    const siteStatus: string[] = [];
    for (let i = 0; i < 5; i++) {
      await advanceClock(emu, 2);
      const p = await get(path);
      seen.push(`${p.status}:${steps(p)}`);
      siteStatus.push((await get(`/sites/${site}`)).status);
    }
    expect(seen).toEqual([
      "pending",
      "running:skipped,running,pending,pending",
      "applying:skipped,passed,running,pending",
      "applying:skipped,passed,passed,running",
      "failed:skipped,passed,passed,failed",
      "rolled_back:skipped,passed,passed,failed",
    ]);
    expect(siteStatus.slice(1, 3)).toEqual(["maintenance", "maintenance"]);
    expect(siteStatus[4]).not.toBe("maintenance");
    expect(await get(`/sites/${site}`)).toMatchObject({ php_version: "8.3" });
    // Snapshot deletion is refused until the rollback is over, which it now is.
    expect((await api(emu, "DELETE", `/sites/${site}/snapshots/${snap}`, { token: TOKENS.owner })).status).toBe(204);
  });

  it("a clock jump of an hour finishes everything that is due, in order", async () => {
    const site = await createSite("6.6");
    const snap = (await api(emu, "POST", `/sites/${site}/snapshots`, { token: TOKENS.owner, body: {} })).body.id;
    const pipe = (await api(emu, "POST", `/sites/${site}/upgrade_pipelines`, { token: TOKENS.owner, body: { to_wp_version: "6.8", requires_approval: false } }))
      .body.id;
    await advanceClock(emu, 3600);
    expect((await get(`/sites/${site}/snapshots/${snap}`)).status).toBe("completed");
    const p = await get(`/sites/${site}/upgrade_pipelines/${pipe}`);
    expect([p.status, steps(p)]).toEqual(["succeeded", "passed,passed,passed,passed"]);
    // Steps carry the clock times they were due at, two seconds apart.
    const times = p.steps.flatMap((s: { started_at: string; finished_at: string }) => [s.started_at, s.finished_at]).map((t: string) => Date.parse(t));
    expect(times[1] - times[0]).toBe(4000); // the snapshot step waits for a two-step capture
    expect(Date.parse(p.completed_at) - Date.parse(p.created_at)).toBe(12_000);
    expect((await get(`/sites/${site}`)).wp_version).toBe("6.8");
  });
});
