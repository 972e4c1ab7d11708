// Snapshot data uploads over real HTTP: whole body, resumable chunks with offset queries, digest checks, media
// types and size limits, interrupted chunks. Across a restart and at 100 MiB: uploads-lifecycle.test.ts.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, api, startTestEmulator, waitFor } from "./helpers.js";
import { bytes, chunkHeaders, digestHeader, octet, sha256hex } from "./upload-bytes.js";

let emu: RunningEmulator;
let siteId: string;

async function uploadSnapshot(token: string = TOKENS.owner): Promise<string> {
  const res = await api(emu, "POST", `/sites/${siteId}/snapshots`, { token, body: { upload: true, description: "upload" } });
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({ status: "requested", source: "upload" });
  return res.body.id;
}

const uploadPath = (snapId: string): string => `/sites/${siteId}/snapshots/${snapId}/upload`;

function put(snapId: string, data: Buffer, headers: Record<string, string> = {}, token: string = TOKENS.owner) {
  return api(emu, "PUT", uploadPath(snapId), { token, raw: data, headers: { ...octet, ...headers } });
}

function queryOffset(snapId: string, total: number) {
  return api(emu, "PUT", uploadPath(snapId), { token: TOKENS.owner, headers: { "content-range": `bytes */${total}` } });
}

/** A raw HTTP request whose body we control byte by byte (fetch cannot lie about lengths or hang up). */
function rawRequest(method: string, urlPath: string, headers: Record<string, string>) {
  const url = new URL(`${emu.url}/api/v1${urlPath}`);
  const req = http.request({ method, host: url.hostname, port: url.port, path: url.pathname, headers: { authorization: `token ${TOKENS.owner}`, ...headers } });
  const response = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
    });
    req.on("error", reject);
  });
  return { req, response };
}

beforeAll(async () => {
  emu = await startTestEmulator();
  const site = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Uploads", url: "https://uploads.example.com" } });
  siteId = site.body.id;
});

afterAll(async () => {
  await emu?.close();
});

describe("whole-body upload", () => {
  it("stores the data, completes the snapshot and reports size and checksum", async () => {
    const id = await uploadSnapshot();
    const data = bytes(300_000);
    const res = await put(id, data, { "content-digest": digestHeader(data) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: "completed", source: "upload", size_bytes: data.length, checksum_sha256: sha256hex(data) });
    expect(res.body.completed_at).toMatch(/Z$/);
    const file = path.join(emu.context.dataDir, "snapshots", siteId, id);
    expect(sha256hex(readFileSync(file))).toBe(sha256hex(data));
    expect((await api(emu, "GET", `/sites/${siteId}/snapshots/${id}`, { token: TOKENS.member })).body.status).toBe("completed");
  });

  it("accepts every archive media type and needs no digest", async () => {
    for (const type of ["application/gzip", "application/zip", "application/x-tar"]) {
      const id = await uploadSnapshot();
      const data = bytes(1000, type.length);
      const res = await put(id, data, { "content-type": type });
      expect([type, res.status, res.body.checksum_sha256]).toEqual([type, 200, sha256hex(data)]);
    }
  });

  it("is a no-op for the same data again and 422 for other data", async () => {
    const id = await uploadSnapshot();
    const data = bytes(5000, 7);
    const first = await put(id, data);
    expect(first.status).toBe(200);
    const again = await put(id, data);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const other = await put(id, bytes(5000, 8));
    expect(other).toMatchObject({ status: 422, body: { error: "Snapshot already has different data" } });
    expect((await api(emu, "GET", `/sites/${siteId}/snapshots/${id}`, { token: TOKENS.owner })).body).toEqual(first.body);
  });

  it("rejects a Content-Digest mismatch with 422 and keeps nothing", async () => {
    const id = await uploadSnapshot();
    const data = bytes(70_000, 3);
    const res = await put(id, data, { "content-digest": digestHeader(bytes(10, 4)) });
    expect(res).toMatchObject({ status: 422, body: { error: "Checksum mismatch" } });
    const snap = await api(emu, "GET", `/sites/${siteId}/snapshots/${id}`, { token: TOKENS.owner });
    expect(snap.body).toMatchObject({ status: "requested", size_bytes: null, checksum_sha256: null });
    const dir = path.join(emu.context.dataDir, "snapshots", siteId);
    expect(readdirSync(dir).filter((f) => f.startsWith(id))).toEqual([]);
    // The right data afterwards is accepted.
    expect((await put(id, data, { "content-digest": digestHeader(data) })).status).toBe(200);
  });

  it("answers 400 for a malformed Content-Digest and an empty body", async () => {
    const id = await uploadSnapshot();
    expect((await put(id, bytes(10), { "content-digest": "sha-256=nocolons" })).status).toBe(400);
    expect((await put(id, Buffer.alloc(0))).status).toBe(400);
  });
});

describe("media types and limits", () => {
  it("refuses other content types with 415", async () => {
    const id = await uploadSnapshot();
    for (const type of ["application/json", "text/plain", "multipart/form-data; boundary=x"]) {
      const res = await put(id, Buffer.from('{"a":1}'), { "content-type": type });
      expect([type, res.status, res.body]).toEqual([type, 415, { error: "Unsupported media type" }]);
    }
    const none = await api(emu, "PUT", uploadPath(id), { token: TOKENS.owner, raw: Buffer.from("data") });
    expect(none.status).toBe(415);
  });

  it("refuses a body declared over 5 GiB with 413 before reading it", async () => {
    const id = await uploadSnapshot();
    const { req, response } = rawRequest("PUT", uploadPath(id), { ...octet, "content-length": String(5 * 1024 ** 3 + 1) });
    req.write(bytes(1024));
    const res = await response;
    req.destroy();
    expect(res).toEqual({ status: 413, body: { error: "Payload too large" } });
    const chunked = await put(id, bytes(10), { "content-range": `bytes 0-9/${6 * 1024 ** 3}` });
    expect(chunked).toMatchObject({ status: 413, body: { error: "Payload too large" } });
  });

  it("refuses uploads to a service snapshot and to another account's snapshot", async () => {
    const service = await api(emu, "POST", `/sites/${siteId}/snapshots`, { token: TOKENS.owner, body: {} });
    expect((await put(service.body.id, bytes(10))).status).toBe(422);
    const id = await uploadSnapshot(TOKENS.member);
    expect(await put(id, bytes(10), {}, TOKENS.ownerB)).toMatchObject({ status: 404, body: { error: "Record not found" } });
    expect((await api(emu, "GET", `/sites/${siteId}/snapshots/${id}`, { token: TOKENS.owner })).body.status).toBe("requested");
  });

  it("lets a member send the data of a snapshot (creating snapshots is a member's right)", async () => {
    const id = await uploadSnapshot(TOKENS.member);
    expect(await put(id, bytes(10), {}, TOKENS.member)).toMatchObject({ status: 200, body: { id, status: "completed", size_bytes: 10 } });
  });
});

describe("resumable upload", () => {
  it("takes Content-Range chunks (202 with received_bytes) and completes on the last (200)", async () => {
    const id = await uploadSnapshot();
    const data = bytes(250_000, 11);
    const total = data.length;
    expect(await queryOffset(id, total)).toMatchObject({ status: 202, body: { received_bytes: 0 } });

    const c1 = data.subarray(0, 100_000);
    expect(await put(id, c1, chunkHeaders(0, c1, total))).toMatchObject({ status: 202, body: { received_bytes: 100_000 } });
    expect((await api(emu, "GET", `/sites/${siteId}/snapshots/${id}`, { token: TOKENS.owner })).body.status).toBe("in_progress");
    expect(await queryOffset(id, total)).toMatchObject({ status: 202, body: { received_bytes: 100_000 } });

    // A chunk that does not start at the offset: 409 with the offset to resume from.
    const wrong = data.subarray(150_000, 200_000);
    expect(await put(id, wrong, chunkHeaders(150_000, wrong, total))).toMatchObject({ status: 409, body: { received_bytes: 100_000 } });
    // Re-sending the first chunk is also at the wrong offset now.
    expect(await put(id, c1, chunkHeaders(0, c1, total))).toMatchObject({ status: 409, body: { received_bytes: 100_000 } });

    const c2 = data.subarray(100_000, 200_000);
    expect(await put(id, c2, chunkHeaders(100_000, c2, total))).toMatchObject({ status: 202, body: { received_bytes: 200_000 } });
    const c3 = data.subarray(200_000);
    // The last chunk carries the digest of the whole data, as the siteops client sends it.
    const done = await put(id, c3, { ...chunkHeaders(200_000, c3, total), "content-digest": digestHeader(data) });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id, status: "completed", size_bytes: total, checksum_sha256: sha256hex(data) });

    // The offset query of a completed upload returns the snapshot; resending a chunk of the same data is a no-op.
    expect(await queryOffset(id, total)).toMatchObject({ status: 200, body: { id, status: "completed" } });
    expect(await put(id, c2, chunkHeaders(100_000, c2, total))).toMatchObject({ status: 200, body: { id, checksum_sha256: sha256hex(data) } });
    const other = bytes(c2.length, 99);
    expect(await put(id, other, chunkHeaders(100_000, other, total))).toMatchObject({ status: 422 });
  });

  it("discards a chunk whose digest does not match, and the whole upload when the last chunk's does not", async () => {
    const id = await uploadSnapshot();
    const data = bytes(30_000, 21);
    const total = data.length;
    const c1 = data.subarray(0, 10_000);
    const bad = await put(id, c1, { ...chunkHeaders(0, c1, total), "content-digest": digestHeader(Buffer.from("x")) });
    expect(bad).toMatchObject({ status: 422, body: { error: "Checksum mismatch" } });
    expect(await queryOffset(id, total)).toMatchObject({ status: 202, body: { received_bytes: 0 } });
    // A digest of the chunk itself is accepted.
    expect(await put(id, c1, { ...chunkHeaders(0, c1, total), "content-digest": digestHeader(c1) })).toMatchObject({ status: 202 });
    const c2 = data.subarray(10_000);
    const last = await put(id, c2, { ...chunkHeaders(10_000, c2, total), "content-digest": digestHeader(bytes(total, 22)) });
    expect(last).toMatchObject({ status: 422, body: { error: "Checksum mismatch" } });
    expect(await queryOffset(id, total)).toMatchObject({ status: 202, body: { received_bytes: 0 } });
    expect((await api(emu, "GET", `/sites/${siteId}/snapshots/${id}`, { token: TOKENS.owner })).body.status).toBe("requested");
    // Starting over works.
    expect(await put(id, data, chunkHeaders(0, data, total))).toMatchObject({ status: 200, body: { checksum_sha256: sha256hex(data) } });
  });

  it("answers 400 for malformed ranges and a body that does not match its range", async () => {
    const id = await uploadSnapshot();
    for (const range of ["bytes 10-5/100", "bytes 0-100/100", "items 0-1/2", "bytes 0-1/*"]) {
      expect([range, (await put(id, bytes(2), { "content-range": range })).status]).toEqual([range, 400]);
    }
    expect((await put(id, bytes(5), { "content-range": "bytes 0-9/100" })).status).toBe(400);
  });

  it("keeps what reached the server before a connection reset, and resumes from a consistent offset", async () => {
    const id = await uploadSnapshot();
    const data = bytes(3 * 1024 * 1024, 31);
    const total = data.length;
    const first = data.subarray(0, 1024 * 1024);
    expect(await put(id, first, chunkHeaders(0, first, total))).toMatchObject({ status: 202 });

    // Second chunk: announce 1 MiB, send 512 KiB, then hang up.
    const { req, response } = rawRequest("PUT", uploadPath(id), {
      ...octet,
      "content-range": `bytes ${first.length}-${2 * first.length - 1}/${total}`,
      "content-length": String(first.length),
    });
    response.catch(() => undefined);
    await new Promise<void>((resolve) => req.write(data.subarray(first.length, first.length + 512 * 1024), () => resolve()));
    // Hang up only once the server is handling the chunk.
    await waitFor(async () => !(await isIdle(id)), "the server to start on the chunk");
    req.destroy();

    // The server settles on an offset between the end of the first chunk and what was sent.
    await waitFor(() => isIdle(id), "the interrupted chunk to settle");
    const q = await queryOffset(id, total);
    expect(q.status).toBe(202);
    const offset = q.body.received_bytes as number;
    expect(offset).toBeGreaterThanOrEqual(first.length);
    expect(offset).toBeLessThanOrEqual(first.length + 512 * 1024);

    const rest = data.subarray(offset);
    const done = await put(id, rest, { ...chunkHeaders(offset, rest, total), "content-digest": digestHeader(data) });
    expect(done).toMatchObject({ status: 200, body: { status: "completed", size_bytes: total, checksum_sha256: sha256hex(data) } });
    expect(existsSync(path.join(emu.context.dataDir, "snapshots", siteId, id))).toBe(true);
  });
});

/**
 * No upload request is being handled for this snapshot. The probe is a chunk whose total differs from
 * the upload in progress, so it never writes: 422 when idle, 409 "in progress" while busy.
 */
async function isIdle(id: string): Promise<boolean> {
  const probe = await put(id, Buffer.from("x"), { "content-range": "bytes 0-0/1" });
  return !(probe.status === 409 && /in progress/.test(probe.body.error));
}
