// Health checks: one at creation, one every healthCheckInterval of emulator clock, forced results
// through the control API, and the site status they drive.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, advanceClock, api } from "./helpers.js";
import { startTestEmulator } from "./helpers.js";

let emu: RunningEmulator;
let n = 0;

async function createSite(body: Record<string, unknown> = {}, token: string = TOKENS.owner): Promise<{ id: string; status: string }> {
  n++;
  const res = await api(emu, "POST", "/sites", { token, body: { name: `Site ${n}`, url: `https://hc${n}.example.com`, ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

const checks = async (siteId: string, token: string = TOKENS.owner, query = "") => api(emu, "GET", `/sites/${siteId}/health_checks${query}`, { token });
const site = async (siteId: string) => (await api(emu, "GET", `/sites/${siteId}`, { token: TOKENS.owner })).body;
const force = (body: Record<string, unknown>) => api(emu, "POST", "/__emulator/health_checks", { body });

beforeAll(async () => {
  emu = await startTestEmulator({ allowPrivateWebhookTargets: true }); // local receivers
});

afterAll(async () => {
  await emu?.close();
});

describe("health checks of a site", () => {
  it("are run once when the site is created, with realistic fields, and make it healthy", async () => {
    const s = await createSite();
    const list = await checks(s.id);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    const hc = list.body[0];
    expect(hc).toMatchObject({ site_id: s.id, status: "passed", http_status: 200, wp_version: "6.9", php_version: "8.3" });
    expect(hc.id).toMatch(/^hc_[A-Za-z0-9]{16,}$/);
    expect(hc.response_time_ms).toBeGreaterThan(0);
    expect(hc.checked_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(hc.checks.length).toBeGreaterThan(3);
    for (const c of hc.checks) {
      expect(Object.keys(c).sort()).toEqual(["description", "label", "status", "test"]);
      expect(["good", "recommended", "critical"]).toContain(c.status);
    }
    expect(hc.checks.every((c: { status: string }) => c.status !== "critical")).toBe(true);
    expect((await site(s.id)).status).toBe("healthy");
    expect(await api(emu, "GET", `/sites/${s.id}/health_checks/${hc.id}`, { token: TOKENS.member })).toMatchObject({ status: 200, body: hc });
  });

  it("warn about an outdated PHP and open critical vulnerabilities, and the site is degraded", async () => {
    const s = await createSite({ wp_version: "6.3", php_version: "7.4" });
    const hc = (await checks(s.id)).body[0];
    expect(hc.status).toBe("warning");
    const byTest = Object.fromEntries(hc.checks.map((c: { test: string; status: string }) => [c.test, c.status]));
    expect(byTest).toMatchObject({ php_version: "critical", wordpress_version: "recommended", vulnerabilities: "critical" });
    expect((await site(s.id)).status).toBe("degraded");
  });

  it("run again every 300 s of emulator clock, listed newest first; a long jump gives one check, not one per interval", async () => {
    const s = await createSite();
    await advanceClock(emu, 300);
    let list = (await checks(s.id)).body;
    expect(list).toHaveLength(2);
    expect(Date.parse(list[0].checked_at)).toBeGreaterThan(Date.parse(list[1].checked_at));
    await advanceClock(emu, 3600);
    list = (await checks(s.id)).body;
    expect(list).toHaveLength(3);
    const page = await checks(s.id, TOKENS.owner, "?per_page=1&page=2");
    expect(page.body).toEqual([list[1]]);
    expect(page.headers.get("total-count")).toBe("3");
  });

  it("404 for another site's check, a wrong-shaped id, and another account's site", async () => {
    const a = await createSite();
    const b = await createSite();
    const hcA = (await checks(a.id)).body[0].id;
    expect(await api(emu, "GET", `/sites/${b.id}/health_checks/${hcA}`, { token: TOKENS.owner })).toMatchObject({
      status: 404,
      body: { error: "Record not found" },
    });
    expect((await api(emu, "GET", `/sites/${a.id}/health_checks/nope`, { token: TOKENS.owner })).status).toBe(404);
    expect((await api(emu, "GET", `/sites/${a.id}/health_checks/${hcA}`, { token: TOKENS.ownerB })).status).toBe(404);
    expect((await checks(a.id, TOKENS.ownerB)).status).toBe(404);
  });
});

describe("forced results (control API)", () => {
  it("force a site down, the status sticks across automatic checks until the next forced call", async () => {
    const s = await createSite();
    const res = await force({ site_id: s.id, status: "failed" });
    expect(res.status).toBe(200);
    expect(res.body.health_checks).toHaveLength(1);
    expect(res.body.health_checks[0]).toMatchObject({ site_id: s.id, status: "failed", http_status: 503 });
    expect((await site(s.id)).status).toBe("down");

    await advanceClock(emu, 300);
    expect((await checks(s.id)).body[0].status).toBe("failed");
    expect((await site(s.id)).status).toBe("down");

    await force({ site_id: s.id, status: "warning" });
    expect((await site(s.id)).status).toBe("degraded");
    await force({ site_id: s.id, status: "passed" });
    expect((await site(s.id)).status).toBe("healthy");

    // The changes after the first are in the activity log, by the system.
    const logs = (await api(emu, "GET", `/activity_logs?site_id=${s.id}&action=site.status_changed`, { token: TOKENS.owner })).body;
    expect(logs.map((l: { changes: unknown }) => l.changes)).toEqual([
      { status: ["degraded", "healthy"] },
      { status: ["down", "degraded"] },
      { status: ["healthy", "down"] },
    ]);
    expect(logs[0].actor.type).toBe("system");
  });

  it("without site_id checks every site of every account", async () => {
    const a = await createSite();
    const b = await createSite({}, TOKENS.ownerB);
    const res = await force({ status: "warning" });
    const ids = res.body.health_checks.map((c: { site_id: string }) => c.site_id);
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id]));
    expect((await site(a.id)).status).toBe("degraded");
    expect((await api(emu, "GET", `/sites/${b.id}`, { token: TOKENS.ownerB })).body.status).toBe("degraded");
    await force({ status: "passed" });
  });

  it("an unknown site is 404", async () => {
    expect((await force({ site_id: "site_doesnotexist00000000" })).status).toBe(404);
  });

  it("announce health_check.completed and site.status_changed to webhooks", async () => {
    const ep = await api(emu, "POST", "/webhook_endpoints", {
      token: TOKENS.owner,
      body: { url: "http://127.0.0.1:9/hooks", enabled_events: ["health_check.completed", "site.status_changed"] },
    });
    expect(ep.status).toBe(201);
    const s = await createSite();
    await force({ site_id: s.id, status: "failed" });
    const deliveries = (await api(emu, "GET", `/__emulator/webhook_deliveries?endpoint_id=${ep.body.id}`)).body.deliveries as {
      event_type: string;
      payload: { data: { id?: string; site_id?: string; status: string } };
    }[];
    const mine = deliveries.filter((d) => d.payload.data.site_id === s.id || d.payload.data.id === s.id);
    expect(mine.map((d) => [d.event_type, d.payload.data.status])).toEqual([
      ["health_check.completed", "passed"],
      ["site.status_changed", "healthy"],
      ["health_check.completed", "failed"],
      ["site.status_changed", "down"],
    ]);
    // Each check's event carries the check as stored, the last status change the site as it is.
    const stored = (await checks(s.id)).body.reverse();
    expect([mine[0]!.payload.data, mine[2]!.payload.data, mine[3]!.payload.data]).toEqual([stored[0], stored[1], await site(s.id)]);
    await api(emu, "DELETE", `/webhook_endpoints/${ep.body.id}`, { token: TOKENS.owner });
  });
});
