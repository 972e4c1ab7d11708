// Snapshots: create (service capture or upload), list newest first, get, delete, roles, the pipeline
// that still needs its snapshot, a capture of a site that is down, and other accounts' snapshots.
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, api, startTestEmulator } from "./helpers.js";

let emu: RunningEmulator;
let siteId: string;

const snapshots = (p = "", token: string = TOKENS.owner, body?: unknown, method = body === undefined ? "GET" : "POST") =>
  api(emu, method, `/sites/${siteId}/snapshots${p}`, { token, body });

beforeAll(async () => {
  emu = await startTestEmulator();
  const site = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Snaps", url: "https://snaps.example.com", wp_version: "6.6" } });
  siteId = site.body.id;
});

afterAll(async () => {
  await emu?.close();
});

describe("creating snapshots", () => {
  it("a service snapshot starts requested and is captured with size and checksum", async () => {
    const res = await snapshots("", TOKENS.owner, { description: "nightly", trigger: "scheduled" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^snap_[A-Za-z0-9]{16,}$/),
      site_id: siteId,
      status: "requested",
      source: "service",
      trigger: "scheduled",
      description: "nightly",
      wp_version: "6.6",
      php_version: "8.3",
      size_bytes: null,
      checksum_sha256: null,
      error: null,
      created_at: expect.stringMatching(/Z$/),
      completed_at: null,
    });
    const got = await snapshots(`/${res.body.id}`);
    expect(got.body).toMatchObject({ status: "completed", error: null });
    expect(got.body.size_bytes).toBeGreaterThan(1024 * 1024);
    expect(got.body.checksum_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(got.body.completed_at).toMatch(/Z$/);
  });

  it("defaults: trigger manual, no description; upload:true waits for data", async () => {
    const plain = await snapshots("", TOKENS.owner, {});
    expect(plain.body).toMatchObject({ trigger: "manual", description: null, source: "service" });
    const upload = await snapshots("", TOKENS.owner, { upload: true });
    expect(upload.body).toMatchObject({ source: "upload", status: "requested" });
    expect((await snapshots(`/${upload.body.id}`)).body.status).toBe("requested");
  });

  it("a POST without any body is a service snapshot with the defaults", async () => {
    const res = await api(emu, "POST", `/sites/${siteId}/snapshots`, { token: TOKENS.owner });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ source: "service", trigger: "manual", description: null });
    // A body that is not a JSON object is refused.
    const arr = await api(emu, "POST", `/sites/${siteId}/snapshots`, { token: TOKENS.owner, raw: "[1]", headers: { "content-type": "application/json" } });
    expect(arr.status).toBe(422);
  });

  it("validates the body with field errors and ignores unknown fields", async () => {
    const bad = await snapshots("", TOKENS.owner, { trigger: "whenever", description: "x".repeat(1001), upload: "yes" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["description", "trigger", "upload"]);
    expect(bad.body.error).toMatch(/^Validation failed: /);
    const extra = await snapshots("", TOKENS.owner, { description: "ok", size_bytes: 5, status: "completed", id: "snap_mine000000000000000" });
    expect(extra.status).toBe(201);
    expect(extra.body).toMatchObject({ description: "ok", status: "requested", size_bytes: null });
    expect(extra.body.id).not.toBe("snap_mine000000000000000");
  });

  it("members may create snapshots; the activity log and webhooks record it", async () => {
    const res = await snapshots("", TOKENS.member, { description: "by a member" });
    expect(res.status).toBe(201);
    const logs = (await api(emu, "GET", `/activity_logs?site_id=${siteId}&action=snapshot.created`, { token: TOKENS.owner })).body;
    const entry = logs.find((l: { subject_id: string }) => l.subject_id === res.body.id);
    expect(entry).toMatchObject({ action: "snapshot.created", subject_type: "Snapshot", actor: { type: "api_token" } });
    const completed = (await api(emu, "GET", `/activity_logs?site_id=${siteId}&action=snapshot.completed`, { token: TOKENS.owner })).body;
    expect(completed.some((l: { subject_id: string; actor: { type: string } }) => l.subject_id === res.body.id && l.actor.type === "system")).toBe(true);
  });

  it("a capture fails when the site is down", async () => {
    await api(emu, "POST", "/__emulator/health_checks", { body: { site_id: siteId, status: "failed" } });
    const res = await snapshots("", TOKENS.owner, {});
    const got = (await snapshots(`/${res.body.id}`)).body;
    expect(got).toMatchObject({ status: "failed", size_bytes: null, completed_at: null });
    expect(got.error).toMatch(/could not be reached/);
    await api(emu, "POST", "/__emulator/health_checks", { body: { site_id: siteId, status: "passed" } });
  });
});

describe("listing and reading", () => {
  it("lists newest first with pagination headers", async () => {
    const a = (await snapshots("", TOKENS.owner, { description: "first" })).body.id;
    const b = (await snapshots("", TOKENS.owner, { description: "second" })).body.id;
    const list = await snapshots("?per_page=2");
    expect(list.status).toBe(200);
    expect(list.body.map((s: { id: string }) => s.id)).toEqual([b, a]);
    expect(Number(list.headers.get("total-count"))).toBeGreaterThan(2);
    expect(list.headers.get("link")).toContain('rel="next"');
    expect((await snapshots("?page=9999")).body).toEqual([]);
    expect((await snapshots("?page=0")).status).toBe(400);
  });

  it("404 for unknown, wrong-shaped and other accounts' snapshots", async () => {
    const id = (await snapshots("", TOKENS.owner, {})).body.id;
    expect(await snapshots("/snap_doesnotexist0000000")).toMatchObject({ status: 404, body: { error: "Record not found" } });
    expect((await snapshots("/'; DROP TABLE snapshots;--")).status).toBe(404);
    expect((await snapshots(`/${id}`, TOKENS.ownerB)).status).toBe(404);
    expect((await snapshots("", TOKENS.ownerB)).status).toBe(404);
    expect((await snapshots("", TOKENS.ownerB, {})).status).toBe(404);
    expect((await api(emu, "DELETE", `/sites/${siteId}/snapshots/${id}`, { token: TOKENS.ownerB })).status).toBe(404);
    // A snapshot is only reachable through its own site.
    const other = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Other", url: "https://other-snaps.example.com" } });
    expect((await api(emu, "GET", `/sites/${other.body.id}/snapshots/${id}`, { token: TOKENS.owner })).status).toBe(404);
    expect((await snapshots(`/${id}`)).status).toBe(200);
  });
});

describe("deleting", () => {
  it("204, gone afterwards, uploaded data removed, logged and announced", async () => {
    const up = (await snapshots("", TOKENS.owner, { upload: true })).body.id;
    const put = await api(emu, "PUT", `/sites/${siteId}/snapshots/${up}/upload`, {
      token: TOKENS.owner,
      raw: Buffer.from("archive bytes"),
      headers: { "content-type": "application/octet-stream" },
    });
    expect(put.status).toBe(200);
    const file = path.join(emu.context.dataDir, "snapshots", siteId, up);
    expect(existsSync(file)).toBe(true);

    const del = await api(emu, "DELETE", `/sites/${siteId}/snapshots/${up}`, { token: TOKENS.admin });
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect(existsSync(file)).toBe(false);
    expect((await snapshots(`/${up}`)).status).toBe(404);
    expect((await api(emu, "DELETE", `/sites/${siteId}/snapshots/${up}`, { token: TOKENS.admin })).status).toBe(404);
    const logs = (await api(emu, "GET", `/activity_logs?action=snapshot.deleted`, { token: TOKENS.owner })).body;
    expect(logs[0]).toMatchObject({ subject_id: up, site_id: siteId });
  });

  it("members may not delete (403)", async () => {
    const id = (await snapshots("", TOKENS.owner, {})).body.id;
    expect(await api(emu, "DELETE", `/sites/${siteId}/snapshots/${id}`, { token: TOKENS.member })).toMatchObject({
      status: 403,
      body: { error: "You are not authorized to perform this action." },
    });
    expect((await snapshots(`/${id}`)).status).toBe(200);
  });

  it("422 while a running pipeline uses the snapshot; allowed once the pipeline is done", async () => {
    const id = (await snapshots("", TOKENS.owner, {})).body.id;
    const pipe = await api(emu, "POST", `/sites/${siteId}/upgrade_pipelines`, { token: TOKENS.owner, body: { to_wp_version: "6.9", snapshot_id: id } });
    expect(pipe.status).toBe(201);
    const del = await api(emu, "DELETE", `/sites/${siteId}/snapshots/${id}`, { token: TOKENS.owner });
    expect(del).toMatchObject({ status: 422, body: { error: "Snapshot is in use by a running upgrade pipeline" } });
    const approved = await api(emu, "POST", `/sites/${siteId}/upgrade_pipelines/${pipe.body.id}/approve`, { token: TOKENS.owner, body: {} });
    expect(approved.status).toBe(200);
    expect((await api(emu, "GET", `/sites/${siteId}/upgrade_pipelines/${pipe.body.id}`, { token: TOKENS.owner })).body.status).toBe("succeeded");
    expect((await api(emu, "DELETE", `/sites/${siteId}/snapshots/${id}`, { token: TOKENS.owner })).status).toBe(204);
  });

  it("deleting the site removes its snapshots and their data", async () => {
    const site = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Doomed", url: "https://doomed.example.com" } });
    const id = (await api(emu, "POST", `/sites/${site.body.id}/snapshots`, { token: TOKENS.owner, body: { upload: true } })).body.id;
    await api(emu, "PUT", `/sites/${site.body.id}/snapshots/${id}/upload`, {
      token: TOKENS.owner,
      raw: Buffer.from("data"),
      headers: { "content-type": "application/octet-stream" },
    });
    const dir = path.join(emu.context.dataDir, "snapshots", site.body.id);
    expect(existsSync(dir)).toBe(true);
    expect((await api(emu, "DELETE", `/sites/${site.body.id}`, { token: TOKENS.owner })).status).toBe(204);
    expect(existsSync(dir)).toBe(false);
    expect((await api(emu, "GET", `/sites/${site.body.id}/snapshots/${id}`, { token: TOKENS.owner })).status).toBe(404);
  });
});
