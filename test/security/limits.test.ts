// Issue 26 findings 6, 7 and 9: a request body sent a byte at a time is cut off (408) once the request
// timeout passes; an account's webhook endpoints and open upload snapshots are capped, and an abandoned
// upload expires with its partial data; and two spellings of one URL (`%62log`, a host's trailing dot) are
// one site URL.
import { existsSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, advanceClock, api, startTestEmulator } from "../emulator/helpers.js";
import { removeDir, tempDir } from "../support/temp.js";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ requestTimeout: 1 });
});
afterAll(async () => emu?.close());

/** A POST that declares 100,000 bytes and sends one every 200 ms; resolves with what the server answered when it closes. */
function drip(localAddress: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port: emu.port, host: "127.0.0.1", localAddress });
    let answer = "";
    let timer: NodeJS.Timeout | undefined;
    socket.on("connect", () => {
      socket.write(
        `POST /api/v1/sites HTTP/1.1\r\nHost: 127.0.0.1:${emu.port}\r\nAuthorization: token ${TOKENS.owner}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`,
      );
      timer = setInterval(() => socket.write(" "), 200);
    });
    socket.on("data", (c: Buffer) => (answer += c.toString()));
    socket.on("error", (err: NodeJS.ErrnoException) => (err.code === "ECONNRESET" || err.code === "EPIPE" ? undefined : reject(err)));
    socket.on("close", () => {
      clearInterval(timer);
      resolve(answer);
    });
  });
}

describe("slow request bodies", () => {
  it("50 connections dripping a body are all answered 408 and closed once the request timeout passes", async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => drip(`127.9.0.${i + 1}`)));
    for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  }, 15_000);
});

describe("webhook endpoints per account", () => {
  it("the 101st endpoint of an account is refused with the limit named", async () => {
    const existing = await api(emu, "GET", "/webhook_endpoints?per_page=100", { token: TOKENS.ownerB });
    const have = Array.isArray(existing.body) ? existing.body.length : existing.body.data.length;
    for (let i = have; i < 100; i++) {
      const res = await api(emu, "POST", "/webhook_endpoints", {
        token: TOKENS.ownerB,
        body: { url: `https://hooks.example/b${i}`, enabled_events: ["site.created"] },
      });
      expect(res.status).toBe(201);
    }
    const over = await api(emu, "POST", "/webhook_endpoints", {
      token: TOKENS.ownerB,
      body: { url: "https://hooks.example/over", enabled_events: ["site.created"] },
    });
    expect(over.status).toBe(422);
    expect(over.body.error).toBe("An account can have at most 100 webhook endpoints; delete one first");
  });
});

describe("site URL spellings", () => {
  it("a percent-encoded unreserved character and a host's trailing dot are the same URL", async () => {
    const first = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Uniq", url: "https://uniq.example/blog" } });
    expect(first.status).toBe(201);
    for (const url of ["https://uniq.example/%62log", "https://uniq.example./blog", "https://UNIQ.example.:443/%62%6C%6Fg/"]) {
      const res = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Uniq again", url } });
      expect({ url, status: res.status, errors: res.body.errors }).toEqual({ url, status: 422, errors: { url: ["has already been taken"] } });
    }
    // A reserved character stays encoded: `%2F` is not a path separator.
    expect((await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Other", url: "https://uniq.example/a%2Fb" } })).status).toBe(201);
  });
});

describe("upload snapshots", () => {
  let up: RunningEmulator;
  let dataDir: string;
  let siteA: string;
  let siteB: string;
  beforeAll(async () => {
    dataDir = tempDir("limits");
    up = await startTestEmulator({ dataDir });
    siteA = (await api(up, "POST", "/sites", { token: TOKENS.owner, body: { name: "Uploads A", url: "https://uploads-a.example" } })).body.id;
    siteB = (await api(up, "POST", "/sites", { token: TOKENS.ownerB, body: { name: "Uploads B", url: "https://uploads-b.example" } })).body.id;
  });
  afterAll(async () => {
    await up?.close();
    removeDir(dataDir);
  });

  const open = (siteId: string, token: string) => api(up, "POST", `/sites/${siteId}/snapshots`, { token, body: { upload: true } });
  const chunk = (siteId: string, id: string, data: Buffer, range: string) =>
    api(up, "PUT", `/sites/${siteId}/snapshots/${id}/upload`, {
      token: TOKENS.member,
      raw: data,
      headers: { "content-type": "application/octet-stream", "content-range": range },
    });

  it("an upload not completed 24 h after its snapshot was created fails, and its partial file is deleted", async () => {
    const id = (await open(siteA, TOKENS.member)).body.id;
    expect((await chunk(siteA, id, Buffer.alloc(1024, 7), "bytes 0-1023/1048576")).body).toEqual({ received_bytes: 1024 });
    const file = path.join(dataDir, "snapshots", siteA, id);
    expect(existsSync(file)).toBe(true);

    await advanceClock(up, 23 * 3600);
    expect((await api(up, "GET", `/sites/${siteA}/snapshots/${id}`, { token: TOKENS.member })).body.status).toBe("in_progress");
    await advanceClock(up, 3600);
    const after = (await api(up, "GET", `/sites/${siteA}/snapshots/${id}`, { token: TOKENS.member })).body;
    expect({ status: after.status, error: after.error }).toEqual({
      status: "failed",
      error: "Upload not completed within 24 hours: the partial data was deleted",
    });
    expect(existsSync(file)).toBe(false);
    const more = await chunk(siteA, id, Buffer.alloc(1024, 7), "bytes 1024-2047/1048576");
    expect([more.status, more.body.error]).toEqual([422, "Snapshot has failed and does not accept uploads"]);
    expect(existsSync(file)).toBe(false);
    const logs = (await api(up, "GET", "/activity_logs?action=snapshot.failed", { token: TOKENS.owner })).body;
    expect(logs[0]).toMatchObject({ subject_id: id, site_id: siteA });
  });

  it("an account's 101st upload snapshot waiting for data is refused; other accounts, service captures and a freed slot are not", async () => {
    for (let i = 0; i < 100; i++) expect((await open(siteA, TOKENS.member)).status).toBe(201);
    const over = await open(siteA, TOKENS.member);
    expect([over.status, over.body.error]).toEqual([422, "An account can have at most 100 upload snapshots waiting for data; finish or delete one first"]);
    expect((await open(siteA, TOKENS.owner)).status).toBe(422);
    expect((await open(siteB, TOKENS.ownerB)).status).toBe(201);
    expect((await api(up, "POST", `/sites/${siteA}/snapshots`, { token: TOKENS.member, body: {} })).status).toBe(201);

    // A completed upload frees its slot.
    const waiting = (await api(up, "GET", `/sites/${siteA}/snapshots?per_page=5`, { token: TOKENS.member })).body.find(
      (s: { status: string; source: string }) => s.source === "upload" && s.status === "requested",
    );
    expect((await chunk(siteA, waiting.id, Buffer.from("data"), "bytes 0-3/4")).status).toBe(200);
    expect((await open(siteA, TOKENS.member)).status).toBe(201);
    expect((await open(siteA, TOKENS.member)).status).toBe(422);
  });
});
