// The fleet operations against the emulator: site selection (ids, names, all, status, shard, the errors naming
// what was not found), snapshotFleet (per-site outcomes, events, a credential failure stopping the run, abort,
// the whole run's deadline, adopting an earlier run's requests) and describeError.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthenticationError, type Site } from "../../src/index.js";
import {
  describeError,
  type FleetSnapshotEvent,
  inShard,
  lookupSites,
  selectSites,
  siteIdOf,
  SiteSelectionError,
  snapshotFleet,
  type SnapshotRequestRecord,
} from "../../src/fleet.js";
import { startTestEmulator, type TestEmulator } from "./helpers.js";

let env: TestEmulator;
let blog: Site;
let shop: Site;

beforeAll(async () => {
  env = await startTestEmulator();
  [blog, shop] = (await env.so.sites.list()).data as [Site, Site];
});
afterAll(async () => env.close());

/** The responses the client had since `from` (an index into env.events). */
function requestsSince(from: number): string[] {
  return env.events.slice(from).flatMap((e) => (e.kind === "response" ? [`${e.method} ${e.path.split("?")[0]}`] : []));
}

describe("selectSites", () => {
  it("fetches a few ids one by one, and answers any name from one listing", async () => {
    let from = env.events.length;
    expect((await selectSites(env.so, { refs: [shop.id, blog.id] })).map((s) => s.name)).toEqual(["Shop", "Blog"]);
    expect(requestsSince(from)).toEqual([`GET /api/v1/sites/${shop.id}`, `GET /api/v1/sites/${blog.id}`]);
    from = env.events.length;
    expect((await selectSites(env.so, { refs: ["Shop", blog.id, "Blog"] })).map((s) => s.id)).toEqual([shop.id, blog.id]);
    expect(requestsSince(from)).toEqual(["GET /api/v1/sites"]);
    expect(await siteIdOf(env.so, blog.id)).toBe(blog.id);
    expect(await siteIdOf(env.so, "Blog")).toBe(blog.id);
  });

  it("selects all sites, by status and by shard", async () => {
    const all = await selectSites(env.so, { all: true });
    expect(all.map((s) => s.id)).toEqual(expect.arrayContaining([blog.id, shop.id]));
    const healthy = await selectSites(env.so, { all: true, statuses: ["healthy"] });
    expect(healthy.every((s) => s.status === "healthy")).toBe(true);
    const shard = { index: 1, count: 2 };
    expect(await selectSites(env.so, { all: true, shard })).toEqual(all.filter((s) => inShard(s.id, shard)));
  });

  it("names every ref that matches no site, with a suggestion for a name in the wrong case", async () => {
    const missing = await selectSites(env.so, { refs: ["blog"] }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(SiteSelectionError);
    expect(missing).toMatchObject({ code: "SITE_NOT_FOUND", missing: ["blog"], suggestion: "Blog" });
    expect((missing as Error).message).toMatch(/^no site with the exact name "blog" in this account \(it has \d+ sites\); did you mean "Blog"\?$/);
    const ids = await selectSites(env.so, { refs: ["site_0000000000000000", blog.id, "site_1111111111111111"] }).catch((e: unknown) => e);
    expect(ids).toMatchObject({ code: "SITE_NOT_FOUND", missing: ["site_0000000000000000", "site_1111111111111111"] });
    expect((ids as Error).message).toMatch(
      /^no site with the id or exact name "site_0000000000000000", or the id or exact name "site_1111111111111111" in this account \(it has \d+ sites\)$/,
    );
  });

  it("takes a name shaped like an id as a name when no site has that id; an exact id match wins over a name", async () => {
    const named = await env.so.sites.create({ name: "site_blog", url: "https://id-shaped-name.acme.test" });
    const lookalike = await env.so.sites.create({ name: blog.id, url: "https://lookalike.acme.test" });
    try {
      expect((await selectSites(env.so, { refs: ["site_blog"] })).map((s) => s.id)).toEqual([named.id]);
      expect((await selectSites(env.so, { refs: [blog.id] })).map((s) => s.id)).toEqual([blog.id]);
      expect((await selectSites(env.so, { refs: ["site_blog", blog.id, shop.id, "Shop"] })).map((s) => s.id)).toEqual([named.id, blog.id, shop.id]);
      expect(await siteIdOf(env.so, "site_blog")).toBe(named.id);
    } finally {
      await Promise.all([named, lookalike].map((s) => env.so.sites.delete(s.id)));
    }
  });

  it("refuses a name several sites have, listing their ids", async () => {
    const twins = await Promise.all([1, 2].map((n) => env.so.sites.create({ name: "Twin", url: `https://twin${n}.acme.test` })));
    const err = await selectSites(env.so, { refs: ["Twin"] }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "SITE_AMBIGUOUS", ambiguous: { name: "Twin", ids: twins.map((t) => t.id) } });
    expect(await lookupSites(env.so, "name", "Twin")).toHaveLength(2);
    expect((await lookupSites(env.so, "url", "https://twin1.acme.test")).map((s) => s.id)).toEqual([twins[0]!.id]);
    await Promise.all(twins.map((t) => env.so.sites.delete(t.id)));
  });
});

describe("snapshotFleet", () => {
  it("snapshots every site, reporting events and a per-site outcome; one failing site does not stop the others", async () => {
    await env.control("POST", "faults", { rules: [{ method: "POST", path: `/api/v1/sites/${shop.id}/snapshots`, status: 422, count: 1 }] });
    const events: FleetSnapshotEvent[] = [];
    const results = await snapshotFleet(env.so, [blog, shop], { concurrency: 2, pollInterval: 20, onProgress: (e) => events.push(e) });
    expect(results.map((r) => [r.site.id, r.outcome, r.started])).toEqual([
      [blog.id, "completed", true],
      [shop.id, "failed", true],
    ]);
    expect(results[0]!.snapshot).toMatchObject({ site_id: blog.id, status: "completed" });
    expect(results[1]).toMatchObject({ snapshot: null, requestId: expect.stringMatching(/^req_/) });
    expect(describeError(results[1]!.error)).toMatch(/\[HTTP 422, request req_\w+\]\.$/);
    const of = (id: string) => events.filter((e) => (e.type === "site.finished" ? e.result.site.id : e.site.id) === id).map((e) => e.type);
    expect(of(blog.id)[0]).toBe("site.started");
    expect(of(blog.id)).toContain("site.progress");
    expect(of(blog.id).at(-1)).toBe("site.finished");
  });

  it("skips the sites after a credential failure, naming it", async () => {
    const refused = env.client({ apiToken: "sot_revokedOrWrong000000001", maxRetries: 0 });
    const results = await snapshotFleet(refused, [blog, shop], { concurrency: 1, pollInterval: 20 });
    expect(results.map((r) => r.outcome)).toEqual(["failed", "skipped"]);
    expect(results[0]!.error).toBeInstanceOf(AuthenticationError);
    expect(results[1]).toMatchObject({ started: false, error: results[0]!.error, durationMs: 0 });
  });

  it("does not wait past the run's deadline, and starts nothing after an abort", async () => {
    const late = await snapshotFleet(env.so, [blog, shop], { concurrency: 1, timeout: 0 });
    expect(late.map((r) => [r.outcome, r.started])).toEqual([
      ["timed_out", false],
      ["timed_out", false],
    ]);
    const requested = await snapshotFleet(env.so, [blog], { wait: false, timeout: 0 });
    expect(requested[0]).toMatchObject({ outcome: "requested", snapshot: { site_id: blog.id } });
    const aborted = await snapshotFleet(env.so, [blog, shop], { signal: AbortSignal.abort() });
    expect(aborted.map((r) => r.outcome)).toEqual(["not_started", "not_started"]);
  });

  it("adopts an earlier run's requests: completed ones are not made again, an unanswered one is sent again with its key", async () => {
    const recorded: SnapshotRequestRecord[] = [];
    const first = await snapshotFleet(env.so, [blog, shop], { pollInterval: 20, onRequest: (r) => recorded.push(r) });
    // Each request is recorded before it is sent (no snapshot yet), then with its snapshot.
    expect(recorded.map((r) => [r.siteId, r.snapshotId])).toEqual(
      expect.arrayContaining([
        [blog.id, null],
        [shop.id, null],
        [blog.id, first[0]!.snapshot!.id],
        [shop.id, first[1]!.snapshot!.id],
      ]),
    );
    expect(recorded.every((r) => /^siteops-[0-9a-f-]{36}$/.test(r.idempotencyKey))).toBe(true);
    const [blogSent, shopDone] = [recorded.find((r) => r.siteId === blog.id && !r.snapshotId)!, recorded.findLast((r) => r.siteId === shop.id)!];

    const since = env.events.length;
    const events: FleetSnapshotEvent[] = [];
    const again: SnapshotRequestRecord[] = [];
    const rerun = await snapshotFleet(env.so, [blog, shop], {
      pollInterval: 20,
      adopt: [blogSent, shopDone],
      onRequest: (r) => again.push(r),
      onProgress: (e) => events.push(e),
    });
    expect(rerun.map((r) => [r.outcome, r.adopted, r.snapshot!.id])).toEqual([
      ["completed", true, first[0]!.snapshot!.id],
      ["completed", true, first[1]!.snapshot!.id],
    ]);
    expect(events.filter((e) => e.type === "site.adopted")).toHaveLength(2);
    // Blog's request sent again is answered with the first snapshot as it was then (the service replays the
    // answer), which is then read until completed; Shop's is read.
    expect(requestsSince(since).sort()).toEqual(
      [
        `GET /api/v1/sites/${blog.id}/snapshots/${first[0]!.snapshot!.id}`,
        `GET /api/v1/sites/${shop.id}/snapshots/${shopDone.snapshotId}`,
        `POST /api/v1/sites/${blog.id}/snapshots`,
      ].sort(),
    );
    expect(again).toEqual([{ ...blogSent, snapshotId: first[0]!.snapshot!.id }]);
  });

  it("makes a new snapshot when the earlier one is gone or its request is refused when sent again", async () => {
    const gone: SnapshotRequestRecord = { siteId: blog.id, idempotencyKey: "siteops-gone", params: {}, snapshotId: "snap_doesNotExist00000" };
    // The key of an earlier request with another body: the service refuses it (422), and a new request is made.
    const [{ snapshot }] = await snapshotFleet(env.so, [shop], { wait: false, description: "first" });
    const reused = await env.so.snapshots.create(shop.id, { description: "other" }, { idempotencyKey: "siteops-reused" });
    const refused: SnapshotRequestRecord = { siteId: shop.id, idempotencyKey: "siteops-reused", params: { description: "not the same" }, snapshotId: null };
    const results = await snapshotFleet(env.so, [blog, shop], { wait: false, adopt: [gone, refused] });
    expect(results.map((r) => [r.outcome, r.adopted])).toEqual([
      ["requested", false],
      ["requested", false],
    ]);
    expect(results[1]!.snapshot!.id).not.toBe(reused.id);
    expect(results[1]!.snapshot!.id).not.toBe(snapshot!.id);
  });

  it("refuses one upload for several sites", async () => {
    await expect(snapshotFleet(env.so, [blog, shop], { upload: Buffer.from("x") })).rejects.toThrow(/one site's snapshot, not of 2/);
  });
});

describe("describeError", () => {
  it("adds the caller's advice per kind of error and hides secrets", () => {
    const err = new AuthenticationError(401, { error: "Invalid password hunter2x" }, { "x-request-id": "req_1" });
    expect(describeError(err, { advice: { authentication: "Log in again." }, secrets: ["hunter2x"] })).toBe(
      "Invalid password [REDACTED] [HTTP 401, request req_1]. Log in again.",
    );
    expect(describeError(err, { apiStatus: "before", mask: "***", secrets: ["hunter2x"] })).toBe(
      "Site Operations API 401: Invalid password ***. Request id: req_1.",
    );
  });
});
