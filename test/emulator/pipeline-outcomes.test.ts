// Pipeline outcomes set through the control API (/__emulator/pipeline-outcomes): chosen sites' pipelines fail
// before applying, roll back after apply or verify, or succeed where the catalogue says they break, and the
// health check at their end reports the status asked for; rules by site id or URL glob, counted, listed,
// cleared, refused when they make no sense.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, advanceClock, api, startTestEmulator } from "./helpers.js";

let emu: RunningEmulator;
let n = 0;

async function createSite(url = `https://outcome-${++n}.example.com`, wp = "6.5", php = "8.2"): Promise<string> {
  const res = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: `Outcome ${++n}`, url, wp_version: wp, php_version: php } });
  expect(res.status).toBe(201);
  return res.body.id;
}

const setRules = (rules: unknown[]) => api(emu, "POST", "/__emulator/pipeline-outcomes", { body: { rules } });

/** Opens a pipeline without approval; with the clock still (stepSeconds 0) it has ended by the next request. */
async function upgrade(siteId: string, body: Record<string, unknown> = { to_wp_version: "6.8" }) {
  const res = await api(emu, "POST", `/sites/${siteId}/upgrade_pipelines`, { token: TOKENS.owner, body: { requires_approval: false, ...body } });
  expect(res.status).toBe(201);
  return (await api(emu, "GET", `/sites/${siteId}/upgrade_pipelines/${res.body.id}`, { token: TOKENS.owner })).body;
}

const steps = (p: { steps: { name: string; status: string }[] }) => p.steps.map((s) => `${s.name}:${s.status}`);
const site = async (id: string) => (await api(emu, "GET", `/sites/${id}`, { token: TOKENS.owner })).body;
const latestCheck = async (id: string) => (await api(emu, "GET", `/sites/${id}/health_checks`, { token: TOKENS.owner })).body[0];

beforeAll(async () => {
  emu = await startTestEmulator();
});

beforeEach(async () => {
  expect((await api(emu, "DELETE", "/__emulator/pipeline-outcomes")).status).toBe(204);
});

afterAll(async () => {
  await emu?.close();
});

describe("outcomes", () => {
  it("roll_back (at verify by default): failed at verify, then rolled_back; the site keeps its versions; other sites upgrade", async () => {
    const [chosen, other] = [await createSite(), await createSite()];
    expect((await setRules([{ site_id: chosen, outcome: "roll_back" }])).status).toBe(200);
    const p = await upgrade(chosen);
    expect(p).toMatchObject({ status: "rolled_back", error: expect.stringMatching(/^Verification failed: /) });
    expect(steps(p)).toEqual(["snapshot:passed", "preflight:passed", "apply:passed", "verify:failed"]);
    expect(await site(chosen)).toMatchObject({ wp_version: "6.5", status: "healthy" });
    expect((await upgrade(other)).status).toBe("succeeded");
    expect((await site(other)).wp_version).toBe("6.8");
  });

  it("roll_back at apply: the apply step fails and the pipeline rolls back", async () => {
    const id = await createSite();
    await setRules([{ site_id: id, outcome: "roll_back", at_step: "apply" }]);
    const p = await upgrade(id);
    expect(p).toMatchObject({ status: "rolled_back", error: expect.stringMatching(/^Apply failed: /) });
    expect(steps(p)).toEqual(["snapshot:passed", "preflight:passed", "apply:failed", "verify:pending"]);
  });

  it("fail (at preflight by default, or at snapshot): ends failed with nothing applied and no rollback", async () => {
    const [a, b] = [await createSite(), await createSite()];
    await setRules([
      { site_id: a, outcome: "fail" },
      { site_id: b, outcome: "fail", at_step: "snapshot" },
    ]);
    const pa = await upgrade(a);
    expect(pa).toMatchObject({ status: "failed", error: expect.stringMatching(/^Preflight failed: /), completed_at: expect.any(String) });
    expect(steps(pa)).toEqual(["snapshot:passed", "preflight:failed", "apply:pending", "verify:pending"]);
    const pb = await upgrade(b);
    expect(pb).toMatchObject({ status: "failed", error: expect.stringMatching(/^Pre-upgrade snapshot failed/) });
    expect(steps(pb)).toEqual(["snapshot:failed", "preflight:pending", "apply:pending", "verify:pending"]);
    expect((await site(a)).wp_version).toBe("6.5");
  });

  it("succeed: an upgrade the catalogue breaks (PHP 8.4 below WordPress 6.7) succeeds for the chosen site only", async () => {
    const [chosen, other] = [await createSite(), await createSite()];
    await setRules([{ site_id: chosen, outcome: "succeed" }]);
    expect((await upgrade(chosen, { to_php_version: "8.4" })).status).toBe("succeeded");
    expect((await site(chosen)).php_version).toBe("8.4");
    expect((await upgrade(other, { to_php_version: "8.4" })).status).toBe("rolled_back");
  });

  it("health: the check at the pipeline's end reports it, after completion, and it sticks to later checks", async () => {
    const id = await createSite();
    await setRules([{ site_id: id, outcome: "succeed", health: "failed" }]);
    const p = await upgrade(id);
    expect(p.status).toBe("succeeded");
    const check = await latestCheck(id);
    expect(check).toMatchObject({ status: "failed", wp_version: "6.8" });
    expect(Date.parse(check.checked_at)).toBeGreaterThanOrEqual(Date.parse(p.completed_at));
    expect((await site(id)).status).toBe("down");
    await advanceClock(emu, 300); // the next periodic check
    const next = await latestCheck(id);
    expect(next.id).not.toBe(check.id);
    expect(next.status).toBe("failed");

    const rolled = await createSite();
    await setRules([{ site_id: rolled, outcome: "roll_back", health: "warning" }]);
    expect((await upgrade(rolled)).status).toBe("rolled_back");
    expect(await latestCheck(rolled)).toMatchObject({ status: "warning", wp_version: "6.5" });
  });

  it("hang (at preflight by default, or at any step): the pipeline stays there, that step running, and never ends", async () => {
    const [a, b] = [await createSite(), await createSite()];
    await setRules([
      { site_id: a, outcome: "hang" },
      { site_id: b, outcome: "hang", at_step: "verify" },
    ]);
    const pa = await upgrade(a);
    expect(pa).toMatchObject({ status: "running", completed_at: null });
    expect(steps(pa)).toEqual(["snapshot:passed", "preflight:running", "apply:pending", "verify:pending"]);
    const pb = await upgrade(b);
    expect(steps(pb)).toEqual(["snapshot:passed", "preflight:passed", "apply:passed", "verify:running"]);
    await advanceClock(emu, 3600);
    const later = (await api(emu, "GET", `/sites/${a}/upgrade_pipelines/${pa.id}`, { token: TOKENS.owner })).body;
    expect([later.status, steps(later)[1]]).toEqual(["running", "preflight:running"]);
    expect((await site(a)).wp_version).toBe("6.5");
    // The service allows one active pipeline per site: the hanging one holds the site.
    const again = await api(emu, "POST", `/sites/${a}/upgrade_pipelines`, { token: TOKENS.owner, body: { to_wp_version: "6.8", requires_approval: false } });
    expect(again.status).toBe(422);
  });

  it("a decision made when the pipeline starts holds through approval and a stepped clock", async () => {
    const stepped = await startTestEmulator({ stepSeconds: 2 });
    try {
      const created = await api(stepped, "POST", "/sites", {
        token: TOKENS.owner,
        body: { name: "Stepped", url: "https://stepped.example.com", wp_version: "6.5" },
      });
      const id = created.body.id;
      await api(stepped, "POST", "/__emulator/pipeline-outcomes", { body: { rules: [{ site_id: id, outcome: "roll_back" }] } });
      const p = (await api(stepped, "POST", `/sites/${id}/upgrade_pipelines`, { token: TOKENS.owner, body: { to_wp_version: "6.8" } })).body;
      const path = `/sites/${id}/upgrade_pipelines/${p.id}`;
      await advanceClock(stepped, 60);
      expect((await api(stepped, "GET", path, { token: TOKENS.owner })).body.status).toBe("awaiting_approval");
      expect((await api(stepped, "POST", `${path}/approve`, { token: TOKENS.owner, body: {} })).status).toBe(200);
      await advanceClock(stepped, 60);
      expect((await api(stepped, "GET", path, { token: TOKENS.owner })).body.status).toBe("rolled_back");
    } finally {
      await stepped.close();
    }
  });
});

describe("rules", () => {
  it("match by URL glob, first rule first, at most count pipelines; GET lists hits and what remains", async () => {
    const canary = await createSite("https://canary-1.fleet.example");
    const second = await createSite("https://canary-2.fleet.example");
    const elsewhere = await createSite("https://shop.other.example");
    await setRules([
      { site_id: second, outcome: "succeed" },
      { url: "https://canary-*.fleet.example", outcome: "roll_back", count: 1 },
    ]);
    expect((await upgrade(canary)).status).toBe("rolled_back");
    expect((await upgrade(second)).status).toBe("succeeded"); // the site_id rule comes first
    expect((await upgrade(elsewhere)).status).toBe("succeeded");
    expect((await upgrade(canary)).status).toBe("succeeded"); // count 1 is spent
    const listed = await api(emu, "GET", "/__emulator/pipeline-outcomes");
    expect(listed.body.rules).toEqual([
      { site_id: second, outcome: "succeed", hits: 1, remaining: null },
      { url: "https://canary-*.fleet.example", outcome: "roll_back", count: 1, hits: 1, remaining: 0 },
    ]);
  });

  it("DELETE and reset clear them: pipelines run as the emulator's own again", async () => {
    const id = await createSite();
    await setRules([{ site_id: id, outcome: "roll_back" }]);
    expect((await api(emu, "DELETE", "/__emulator/pipeline-outcomes")).status).toBe(204);
    expect((await api(emu, "GET", "/__emulator/pipeline-outcomes")).body).toEqual({ rules: [] });
    expect((await upgrade(id)).status).toBe("succeeded");

    const other = await startTestEmulator();
    try {
      await api(other, "POST", "/__emulator/pipeline-outcomes", { body: { rules: [{ url: "**", outcome: "fail" }] } });
      expect((await api(other, "POST", "/__emulator/reset")).status).toBe(200);
      expect((await api(other, "GET", "/__emulator/pipeline-outcomes")).body).toEqual({ rules: [] });
    } finally {
      await other.close();
    }
  });

  it("refuses a rule that makes no sense, naming it, and adds none of the batch", async () => {
    const cases: [unknown, RegExp][] = [
      [{ outcome: "fail" }, /rules\[0\]: give exactly one of site_id and url/],
      [{ site_id: "site_x", url: "https://*", outcome: "fail" }, /give exactly one of site_id and url/],
      [{ site_id: "site_x", outcome: "fail", at_step: "verify" }, /"fail" fails at snapshot or preflight, not at verify/],
      [{ site_id: "site_x", outcome: "roll_back", at_step: "preflight" }, /"roll_back" fails at apply or verify, not at preflight/],
      [{ site_id: "site_x", outcome: "succeed", at_step: "verify" }, /at_step applies to "fail", "roll_back" and "hang" only/],
      [{ site_id: "site_x", outcome: "fail", health: "failed" }, /health applies to "succeed" and "roll_back"/],
      [{ site_id: "site_x", outcome: "hang", health: "passed" }, /health applies to "succeed" and "roll_back"/],
    ];
    for (const [rule, message] of cases) {
      const res = await setRules([{ site_id: "site_ok", outcome: "succeed" }, rule]);
      expect(res.status).toBe(422);
      expect(res.body.error.replace("rules[1]", "rules[0]")).toMatch(message);
    }
    expect((await setRules([{ site_id: "site_x", outcome: "explode" }])).status).toBe(422); // the schema
    expect((await api(emu, "GET", "/__emulator/pipeline-outcomes")).body).toEqual({ rules: [] });
    const many = Array.from({ length: 60 }, () => ({ url: "**", outcome: "succeed" }));
    expect((await setRules(many)).status).toBe(200);
    expect((await setRules(many)).body.error).toMatch(/At most 100 pipeline outcome rules/);
  });
});
