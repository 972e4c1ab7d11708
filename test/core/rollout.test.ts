// The core's rollout (siteops/fleet): the plan (waves, a stable order, the failure budget), the gates (the
// pipeline's outcome, a health check after the upgrade, HTTP checks of the site itself against loopback servers
// that answer as WordPress does after an upgrade), and rolloutUpgrade's adoption of a request whose answer was
// lost: the same idempotency key, never a second pipeline.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  allowedFailures,
  checkHttp,
  judgePipeline,
  parseFailureBudget,
  parseWaves,
  planWaves,
  rolloutOrder,
  RolloutSpecError,
  rolloutUpgrade,
  type PipelineRequestRecord,
} from "../../src/fleet.js";
import type { Site, UpgradePipeline } from "../../src/index.js";
import { startWordPressSites, type WordPressSites } from "../support/wordpress-sites.js";
import { startTestEmulator, type TestEmulator } from "./helpers.js";

const site = (n: number) => ({ id: `site_${n.toString(36)}x${n}` });
const FLEET = Array.from({ length: 40 }, (_, i) => site(i + 1));

describe("the plan", () => {
  it("reads waves as cumulative counts or shares, the last 100%, and refuses anything else naming the wave", () => {
    expect(parseWaves("1,10%,100%")).toEqual([{ count: 1 }, { percent: 10 }, { percent: 100 }]);
    expect(parseWaves(" 2 , 50% ,100%")).toEqual([{ count: 2 }, { percent: 50 }, { percent: 100 }]);
    for (const [text, message] of [
      ["1,10%", /the last wave must be 100% \(got 10%\)/],
      ["5,2,100%", /wave 2 \(2\) must cover more sites than wave 1 \(5\)/],
      ["1,abc,100%", /wave 2 "abc" is not a number of sites \(10\) or a percentage \(10%\)/],
      ["0,100%", /wave 1 "0": a whole number of sites, at least 1/],
      ["1,150%", /wave 2 "150%": a percentage above 0 and at most 100/],
    ] as const) {
      expect(() => parseWaves(text)).toThrow(RolloutSpecError);
      expect(() => parseWaves(text)).toThrow(message);
    }
  });

  it("puts sites in a stable order: the same waves whatever the listing's order, other canaries for another target", () => {
    const waves = planWaves(FLEET, parseWaves("1,10%,100%"), { wp: "6.8" });
    expect(waves.map((w) => w.length)).toEqual([1, 3, 36]);
    expect(planWaves([...FLEET].reverse(), parseWaves("1,10%,100%"), { wp: "6.8" })).toEqual(waves);
    expect(new Set(waves.flat().map((s) => s.id)).size).toBe(40);
    const orders = ["6.8", "6.9", "7.0", "7.1"].map((wp) => rolloutOrder(FLEET, { wp })[0]!.id);
    expect(new Set(orders).size).toBeGreaterThan(1);
  });

  it("drops a wave left with no site, and caps counts at the fleet", () => {
    expect(planWaves(FLEET.slice(0, 5), parseWaves("1,10%,20%,100%"), { php: "8.3" }).map((w) => w.length)).toEqual([1, 4]);
    expect(planWaves(FLEET.slice(0, 3), parseWaves("5,100%"), { php: "8.3" }).map((w) => w.length)).toEqual([3]);
    expect(planWaves([], parseWaves("1,100%"), { php: "8.3" })).toEqual([]);
  });

  it("allows a wave's failures by count or by share rounded down", () => {
    expect(allowedFailures(parseFailureBudget("10%"), 10)).toBe(1);
    expect(allowedFailures(parseFailureBudget("10%"), 9)).toBe(0);
    expect(allowedFailures(parseFailureBudget("2"), 1)).toBe(2);
    expect(allowedFailures(parseFailureBudget("0"), 100)).toBe(0);
    expect(() => parseFailureBudget("ten")).toThrow(/failure budget "ten"/);
  });
});

describe("the gates", () => {
  let wordpress: WordPressSites;
  beforeAll(async () => {
    wordpress = await startWordPressSites(["healthy", "fatal", "error500", "slow"], { slowMs: 20_000 });
  });
  afterAll(() => wordpress.close());

  it("passes a healthy WordPress page and fails a fatal-error page with 200, a 500 and an answer over budget", async () => {
    const [healthy, fatal, error500, slow] = wordpress;
    expect(await checkHttp(healthy!.url, "/")).toMatchObject({ gate: "http", ok: true, status: 200, path: "/" });
    const page = await checkHttp(fatal!.url, "/");
    expect(page).toMatchObject({ ok: false, status: 200 });
    expect(page.detail).toMatch(/with a fatal-error page \("There has been a critical error on this website"\)/);
    expect(await checkHttp(error500!.url, "/")).toMatchObject({ ok: false, status: 500 });
    expect(await checkHttp(slow!.url, "/", { budgetMs: 300 })).toMatchObject({ ok: false, status: null, detail: "GET /: no answer within the 300 ms budget" });
    // A host that does not resolve from here: named, with the gates to keep when the sites cannot be reached.
    const unreachable = await checkHttp("https://client-002.invalid", "/shop");
    expect(unreachable.detail).toBe(
      "GET https://client-002.invalid/shop: its host name does not resolve from here (ENOTFOUND); where the sites cannot be reached from this machine, judge them without the http gate (gates pipeline,health)",
    );
    expect(unreachable.reason).toMatch(/^GET \/shop: its host name does not resolve from here \(ENOTFOUND\)/);
  });

  it("asks for each path on the site's own URL, its path kept", async () => {
    const [healthy] = wordpress;
    healthy!.paths.set("/blog/shop", "error500");
    expect(await checkHttp(`${healthy!.url}/blog`, "/shop")).toMatchObject({ ok: false, status: 500, path: "/shop" });
    expect(healthy!.requests.at(-1)).toEqual({ method: "GET", path: "/blog/shop" });
  });

  it("fails a pipeline that failed or was rolled back, with its error", () => {
    const p = { id: "upg_1", status: "rolled_back", error: "Verification failed" } as UpgradePipeline;
    expect(judgePipeline(p)).toEqual({
      gate: "pipeline",
      ok: false,
      detail: "pipeline upg_1 was rolled back: Verification failed",
      reason: "pipeline rolled back: Verification failed",
    });
    expect(judgePipeline({ ...p, status: "succeeded", error: null })).toMatchObject({ ok: true });
  });
});

describe("rolloutUpgrade against the emulator", () => {
  let emu: TestEmulator;
  let sites: Site[];
  beforeAll(async () => {
    emu = await startTestEmulator();
    sites = [];
    for (let i = 1; i <= 2; i++) sites.push(await emu.so.sites.create({ name: `Core ${i}`, url: `https://core${i}.acme.test`, wp_version: "6.5" }));
  });
  afterAll(() => emu.close());

  it("fails a site whose health check after the upgrade is not healthy, though its pipeline succeeded", async () => {
    const [one] = sites;
    await emu.control("POST", "pipeline-outcomes", { rules: [{ site_id: one!.id, outcome: "succeed", health: "failed" }] });
    const result = await rolloutUpgrade(emu.so, [one!], { target: { wp: "6.6" }, waves: parseWaves("100%"), gates: ["pipeline", "health"], pollInterval: 20 });
    expect(result.outcome).toBe("stopped");
    expect(result.sites[0]).toMatchObject({ outcome: "failed", pipeline: { status: "succeeded" } });
    expect(result.sites[0]!.failure).toMatchObject({ code: "GATE_FAILED", reason: "health check after the upgrade: failed" });
    expect(result.sites[0]!.failure!.message).toMatch(/^health check hc_\w+ after the upgrade: failed$/);
    await emu.control("DELETE", "pipeline-outcomes");
  });

  it("sends a request whose answer was lost again with its key: the service's pipeline is adopted, none opened", async () => {
    const [, two] = sites;
    const record: PipelineRequestRecord = {
      siteId: two!.id,
      idempotencyKey: "siteops-lost-answer-1",
      params: { to_wp_version: "6.7", requires_approval: false },
      pipelineId: null,
    };
    // The first run's request reached the service; its answer never reached the run (kill -9).
    const first = await emu.so.upgradePipelines.create(two!.id, record.params, { idempotencyKey: record.idempotencyKey });
    await emu.so.operations.followUpgrade(first, { siteId: two!.id, pollInterval: 20 });
    const recorded: PipelineRequestRecord[] = [];
    const result = await rolloutUpgrade(emu.so, [two!], {
      target: { wp: "6.7" },
      waves: parseWaves("100%"),
      gates: ["pipeline"],
      adopt: [record],
      onRequest: (r) => recorded.push(r),
      pollInterval: 20,
    });
    expect(result.sites[0]).toMatchObject({ outcome: "passed", adopted: true, pipeline: { id: first.id, status: "succeeded" } });
    expect(recorded).toEqual([{ ...record, pipelineId: first.id }]);
    expect((await emu.so.upgradePipelines.list(two!.id).toArray()).map((p) => p.id)).toEqual([first.id]);
  });

  it("a site whose recorded pipeline was rolled back is judged failed again, until it is at the target: then already upgraded", async () => {
    const site = await emu.so.sites.create({ name: "Core rollback", url: "https://rollback.acme.test", wp_version: "6.5" });
    await emu.control("POST", "pipeline-outcomes", { rules: [{ site_id: site.id, outcome: "roll_back" }] });
    const records: PipelineRequestRecord[] = [];
    const options = { target: { wp: "6.9" }, waves: parseWaves("100%"), gates: ["pipeline" as const], pollInterval: 20 };
    const first = await rolloutUpgrade(emu.so, [site], { ...options, onRequest: (r) => records.push(r) });
    expect(first.sites[0]).toMatchObject({ outcome: "failed", pipeline: { status: "rolled_back" } });
    await emu.control("DELETE", "pipeline-outcomes");
    const again = await rolloutUpgrade(emu.so, [site], { ...options, adopt: [records.at(-1)!] });
    expect(again.sites[0]).toMatchObject({ outcome: "failed", adopted: true, pipeline: { id: first.sites[0]!.pipeline!.id } });
    // Dealt with by hand: the site now runs the target.
    const fixed = await emu.so.sites.update(site.id, { wp_version: "6.9" });
    const third = await rolloutUpgrade(emu.so, [fixed], { ...options, adopt: [records.at(-1)!] });
    expect(third.sites[0]).toMatchObject({ outcome: "already_upgraded" });
    expect(third.outcome).toBe("done");
    expect(await emu.so.upgradePipelines.list(site.id).toArray()).toHaveLength(1);
  });

  it("a wave over its budget opens no more pipelines: its sites not yet started stay untouched", async () => {
    const fleet: Site[] = [];
    for (let i = 1; i <= 4; i++) fleet.push(await emu.so.sites.create({ name: `Wave ${i}`, url: `https://wave${i}.acme.test`, wp_version: "6.5" }));
    const target = { wp: "6.6" };
    const [first] = planWaves(fleet, parseWaves("100%"), target)[0]!;
    await emu.control("POST", "pipeline-outcomes", { rules: [{ site_id: first!.id, outcome: "fail" }] });
    const result = await rolloutUpgrade(emu.so, fleet, { target, waves: parseWaves("100%"), gates: ["pipeline"], concurrency: 1, pollInterval: 20 });
    await emu.control("DELETE", "pipeline-outcomes");
    expect(result.outcome).toBe("stopped");
    expect(result.waves[0]).toMatchObject({ verdict: "stopped", size: 4, allowed: 0, counts: { failed: 1, untouched: 3, opened: 1 } });
    expect(result.sites.map((r) => [r.site.id, r.outcome])).toEqual([[first!.id, "failed"], ...result.sites.slice(1).map((r) => [r.site.id, "untouched"])]);
    for (const r of result.sites.slice(1)) expect(await emu.so.upgradePipelines.list(r.site.id).toArray()).toEqual([]);
  });

  it("adopts the site's active pipeline to the target, and fails a site whose active pipeline goes elsewhere", async () => {
    const slow = await startTestEmulator({ stepSeconds: 3600 });
    try {
      const target = await slow.so.sites.create({ name: "Slow", url: "https://slow.acme.test", wp_version: "6.5" });
      const other = await slow.so.sites.create({ name: "Other", url: "https://other.acme.test", wp_version: "6.5" });
      const active = await slow.so.upgradePipelines.create(target.id, { to_wp_version: "6.8", requires_approval: false });
      await slow.so.upgradePipelines.create(other.id, { to_wp_version: "6.6", requires_approval: false });
      const controller = new AbortController();
      const seen: string[] = [];
      const run = rolloutUpgrade(slow.so, [target, other], {
        target: { wp: "6.8" },
        waves: parseWaves("100%"),
        maxFailures: parseFailureBudget("1"),
        signal: controller.signal,
        pollInterval: 20,
        // Slow's pipeline would take hours of the emulator's clock: the run is aborted once both sites are known.
        onProgress: (e) => {
          if (e.type === "site.adopted") seen.push(`${e.site.name} ${e.pipeline.id}`);
          if (e.type === "site.finished" && e.result.site.id === other.id) seen.push("Other finished");
          if (seen.length === 2) controller.abort();
        },
      });
      const result = await run;
      expect(seen.filter((x) => x.startsWith("Slow"))).toEqual([`Slow ${active.id}`]);
      const byName = Object.fromEntries(result.sites.map((s) => [s.site.name, s]));
      expect(byName.Other).toMatchObject({ outcome: "failed" });
      expect(byName.Other!.failure!.message).toMatch(/already has pipeline upg_\w+ \(\w+\) to WordPress 6.6 .*not this rollout's target/);
      expect(byName.Slow).toMatchObject({ outcome: "interrupted", adopted: true, pipeline: { id: active.id } });
      expect((await slow.so.upgradePipelines.list(target.id).toArray()).length).toBe(1);
    } finally {
      await slow.close();
    }
  });
});
