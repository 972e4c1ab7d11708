// The multi-step workflows the action and the CLI call: snapshot, upgrade, approve.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OperationFailedError, WaitTimeoutError, type OperationEvent, type UpgradePipeline } from "../../src/index.js";
import { startTestEmulator, type TestEmulator } from "./helpers.js";

let env: TestEmulator;

beforeAll(async () => {
  env = await startTestEmulator();
});
afterAll(async () => env.close());

describe("operations", () => {
  it("createSnapshot captures a snapshot and waits until completed", async () => {
    const site = (await env.so.sites.list()).data[0];
    const events: OperationEvent[] = [];
    const snap = await env.so.operations.createSnapshot(site.id, { description: "nightly", pollInterval: 50, onProgress: (e) => events.push(e) });
    expect(snap.status).toBe("completed");
    expect(snap.description).toBe("nightly");
    expect(events[0].type).toBe("snapshot.created");
  });

  it("createSnapshot uploads data, reporting upload progress", async () => {
    const site = (await env.so.sites.list()).data[0];
    const events: OperationEvent[] = [];
    const data = randomBytes(100_000);
    const snap = await env.so.operations.createSnapshot(site.id, { upload: data, pollInterval: 50, onProgress: (e) => events.push(e) });
    expect(snap).toMatchObject({ status: "completed", source: "upload", size_bytes: data.length });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(["snapshot.created", "upload.progress", "snapshot.uploaded"]));
  });

  it("openUpgrade waits for awaiting_approval, approveUpgrade for success", async () => {
    const site = await env.so.sites.create({ name: "To upgrade", url: "https://to-upgrade.acme.test", wp_version: "6.3" });
    const events: OperationEvent[] = [];
    const opened = await env.so.operations.openUpgrade(site.id, { to_wp_version: "6.4" }, { pollInterval: 50, onProgress: (e) => events.push(e) });
    expect(opened.status).toBe("awaiting_approval");
    expect(events[0].type).toBe("pipeline.created");
    const done = await env.so.operations.approveUpgrade(site.id, opened.id, { comment: "go", pollInterval: 50 });
    expect(done.status).toBe("succeeded");
    expect((await env.so.sites.get(site.id)).wp_version).toBe("6.4");
  });

  it("openUpgrade without approval runs to the end", async () => {
    const site = await env.so.sites.create({ name: "Auto upgrade", url: "https://auto-upgrade.acme.test", wp_version: "6.3" });
    const done = await env.so.operations.openUpgrade(site.id, { to_wp_version: "6.4", requires_approval: false }, { pollInterval: 50 });
    expect(done.status).toBe("succeeded");
  });

  it("followUpgrade follows a pipeline by the site the caller names, and says so when neither it nor the pipeline has one", async () => {
    const site = await env.so.sites.create({ name: "Followed", url: "https://followed.acme.test", wp_version: "6.3" });
    const opened = await env.so.upgradePipelines.create(site.id, { to_wp_version: "6.4", requires_approval: false });
    const { site_id: _siteId, ...withoutSite } = opened;
    const done = await env.so.operations.followUpgrade(withoutSite as UpgradePipeline, { siteId: site.id, pollInterval: 50 });
    expect(done.status).toBe("succeeded");
    const err = await env.so.operations.followUpgrade(withoutSite as UpgradePipeline).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "UNEXPECTED_RESPONSE", field: "site_id" });
  });

  it("a waiter gives up with WaitTimeoutError", async () => {
    const slow = await startTestEmulator({ stepSeconds: 3600 });
    try {
      const site = (await slow.so.sites.list()).data[0];
      const err = await slow.so.operations.createSnapshot(site.id, { waitTimeout: 200, pollInterval: 50 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(WaitTimeoutError);
      expect((err as Error).message).toMatch(/snapshot snap_\w+ is (requested|in_progress)/);
    } finally {
      await slow.close();
    }
  });
});

describe("operation failures", () => {
  it("createSnapshot throws OperationFailedError when the capture fails", async () => {
    const site = await env.so.sites.create({ name: "Down", url: "https://down.acme.test" });
    await env.control("POST", "health_checks", { site_id: site.id, status: "failed" });
    const err = await env.so.operations.createSnapshot(site.id, { pollInterval: 50 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OperationFailedError);
    expect((err as OperationFailedError).resource).toMatchObject({ status: "failed", site_id: site.id });
    expect((err as Error).message).toMatch(/^Snapshot snap_\w+ failed/);
  });

  it("a pipeline that fails verification is followed to rolled_back and throws", async () => {
    const site = await env.so.sites.create({ name: "PHP jump", url: "https://php-jump.acme.test", wp_version: "6.5", php_version: "8.1" });
    const events: OperationEvent[] = [];
    const err = await env.so.operations
      .openUpgrade(site.id, { to_php_version: "8.4", requires_approval: false }, { pollInterval: 50, onProgress: (e) => events.push(e) })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OperationFailedError);
    const pipeline = (err as OperationFailedError).resource as UpgradePipeline;
    expect(pipeline.status).toBe("rolled_back");
    expect(pipeline.error).toMatch(/PHP 8.4/);
    expect((err as Error).message).toMatch(/was rolled back: Verification failed/);
    expect((await env.so.sites.get(site.id)).php_version).toBe("8.1");
  });
});
