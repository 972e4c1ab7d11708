// Snapshot uploads: sources, digests, progress, resumable chunks surviving a reset, and memory on 200 MiB; on
// each HTTP stack.
import { createHash, randomBytes } from "node:crypto";
import { createReadStream, rmSync, writeFileSync, openSync, writeSync, closeSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APIUserAbortError, SiteOps, SiteOpsError, UnprocessableEntityError, type Site, type UploadProgress } from "../../src/index.js";
import { RunningHash } from "../../src/internal/upload-data.js";
import { OWNER_TOKEN, spawnEmulator, startTestEmulator, TRANSPORTS, type TestEmulator } from "./helpers.js";
import { removeDir, tempDir } from "../support/temp.js";

describe.each(TRANSPORTS)("over %s", (transport) => {
  let env: TestEmulator;
  let site: Site;
  let dir: string;

  beforeAll(async () => {
    env = await startTestEmulator({}, { transport });
    site = (await env.so.sites.list()).data[0];
    dir = tempDir("upload-test");
  });
  afterAll(async () => {
    removeDir(dir);
    await env.close();
  });

  const sha256hex = (data: Buffer) => createHash("sha256").update(data).digest("hex");

  async function uploadable(so: SiteOps = env.so): Promise<string> {
    return (await so.snapshots.create(site.id, { upload: true, description: "upload test" })).id;
  }

  describe("uploads", () => {
    it("uploads a Buffer and the service records its size and checksum", async () => {
      const data = randomBytes(300_000);
      const snap = await env.so.snapshots.upload(site.id, await uploadable(), data);
      expect(snap.size_bytes).toBe(data.length);
      expect(snap.checksum_sha256).toBe(sha256hex(data));
    });

    it("uploads a file path with progress up to the total", async () => {
      const data = randomBytes(3 * 1024 * 1024 + 17);
      const file = path.join(dir, "site.tar.gz");
      writeFileSync(file, data);
      const progress: UploadProgress[] = [];
      const snap = await env.so.snapshots.upload(site.id, await uploadable(), file, { onProgress: (p) => progress.push(p) });
      expect(snap.checksum_sha256).toBe(sha256hex(data));
      expect(progress.at(-1)).toEqual({ sent: data.length, total: data.length });
      expect(progress.every((p, i) => i === 0 || p.sent >= progress[i - 1].sent)).toBe(true);
    });

    it("uploads a Readable of unknown length", async () => {
      const data = randomBytes(2 * 1024 * 1024);
      const file = path.join(dir, "stream.bin");
      writeFileSync(file, data);
      const snap = await env.so.snapshots.upload(site.id, await uploadable(), createReadStream(file, { highWaterMark: 64 * 1024 }));
      expect(snap.checksum_sha256).toBe(sha256hex(data));
      const generated = Readable.from(
        (function* () {
          for (let i = 0; i < 10; i++) yield data.subarray(i * 1000, (i + 1) * 1000);
        })(),
      );
      const snap2 = await env.so.snapshots.upload(site.id, await uploadable(), generated);
      expect(snap2.size_bytes).toBe(10_000);
    });

    it("sends chunks with Content-Range and resumes from the server's offset after a reset mid-file", async () => {
      const data = randomBytes(4 * 1024 * 1024);
      const file = path.join(dir, "chunked.bin");
      writeFileSync(file, data);
      const id = await uploadable();
      let armed: Promise<unknown> | undefined;
      const snap = await env.so.snapshots.upload(site.id, id, file, {
        resumableThreshold: 1024 * 1024,
        chunkSize: 256 * 1024,
        onProgress: (p) => {
          if (!armed && p.sent >= 512 * 1024) {
            armed = env.control("POST", "faults", { rules: [{ method: "PUT", path: "/api/v1/sites/*/snapshots/*/upload", reset_connection: true, count: 1 }] });
          }
        },
      });
      await armed;
      expect(snap.status === "completed" || snap.status === "in_progress").toBe(true);
      expect(snap.checksum_sha256).toBe(sha256hex(data));
      const puts = env.events.filter((e) => e.kind === "response" && e.method === "PUT" && e.path.endsWith(`${id}/upload`));
      expect(puts.some((e) => e.kind === "response" && e.status === undefined)).toBe(true); // the reset
      expect(puts.filter((e) => e.kind === "response" && e.status === 202).length).toBeGreaterThanOrEqual(15);
      await env.control("DELETE", "faults");
    });

    it("keeps the whole-data hash right when a resume goes back inside a chunk, or before it", async () => {
      // What uploadChunked does around a failed chunk, without a server: bytes fed as read for sending, then the
      // hash brought to the offset the server answers, which the feeding may have passed.
      const data = randomBytes(3 * 1024 * 1024 + 123);
      const file = path.join(dir, "running-hash.bin");
      writeFileSync(file, data);
      const b64 = (buf: Buffer) => createHash("sha256").update(buf).digest("base64");
      const feedChunk = async (h: RunningHash, start: number, upTo: number) => {
        const feed = h.feeder(start)!;
        for (let at = start; at < upTo; at += 100_000) feed(data.subarray(at, Math.min(at + 100_000, upTo)));
      };
      const inside = new RunningHash(file);
      await inside.catchUp(1024 * 1024);
      await feedChunk(inside, 1024 * 1024, 2_500_000); // the request failed after these bytes were read
      await inside.catchUp(1_700_000); // the server kept fewer
      await feedChunk(inside, 1_700_000, data.length);
      expect(await inside.digestOf(data.length)).toBe(b64(data));

      const before = new RunningHash(file);
      await before.catchUp(2 * 1024 * 1024);
      await feedChunk(before, 2 * 1024 * 1024, 2_200_000);
      await before.catchUp(500_000); // before the chunk's start: hashed again from the file's start
      expect(await before.digestOf(data.length)).toBe(b64(data));
      expect(before.feeder(123)).toBeUndefined(); // not at that offset: the bytes are read when needed
    });

    it("refuses other data for a completed snapshot, in both modes; the same data again is a no-op", async () => {
      const id = await uploadable();
      await env.so.snapshots.upload(site.id, id, Buffer.from("first"));
      await expect(env.so.snapshots.upload(site.id, id, Buffer.from("second"))).rejects.toBeInstanceOf(UnprocessableEntityError);

      const first = path.join(dir, "first.bin");
      const second = path.join(dir, "second.bin");
      writeFileSync(first, randomBytes(600_000));
      writeFileSync(second, randomBytes(600_000));
      const chunked = { resumableThreshold: 100_000, chunkSize: 200_000 };
      const id2 = await uploadable();
      const done = await env.so.snapshots.upload(site.id, id2, first, chunked);
      expect((await env.so.snapshots.upload(site.id, id2, first, chunked)).checksum_sha256).toBe(done.checksum_sha256);
      await expect(env.so.snapshots.upload(site.id, id2, second, chunked)).rejects.toBeInstanceOf(UnprocessableEntityError);
    });
  });

  describe("a 200 MiB upload", () => {
    it("streams with peak RSS growth under 64 MiB", async () => {
      const emulator = await spawnEmulator();
      const so = new SiteOps({ baseUrl: emulator.url, apiToken: OWNER_TOKEN, transport });
      const file = path.join(dir, "big.bin");
      const hash = createHash("sha256");
      const block = randomBytes(1024 * 1024);
      const fd = openSync(file, "w");
      for (let i = 0; i < 200; i++) {
        block.writeUInt32BE(i, 0);
        hash.update(block);
        writeSync(fd, block);
      }
      closeSync(fd);
      try {
        const bigSite = (await so.sites.list()).data[0];
        const id = (await so.snapshots.create(bigSite.id, { upload: true })).id;
        (globalThis as { gc?: () => void }).gc?.();
        const baseline = process.memoryUsage.rss();
        let peak = baseline;
        const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
        const snap = await so.snapshots.upload(bigSite.id, id, file, {
          onProgress: () => (peak = Math.max(peak, process.memoryUsage.rss())),
        });
        clearInterval(timer);
        expect(snap.size_bytes).toBe(200 * 1024 * 1024);
        expect(snap.checksum_sha256).toBe(hash.digest("hex"));
        const growth = (peak - baseline) / 1024 / 1024;
        expect(growth, `peak RSS growth ${growth.toFixed(1)} MiB`).toBeLessThan(64);
      } finally {
        await so.close();
        await emulator.close();
        rmSync(file, { force: true });
      }
    });
  });

  describe("upload cancellation", () => {
    it("stops a resumable upload when the signal aborts", async () => {
      const file = path.join(dir, "abort.bin");
      writeFileSync(file, randomBytes(4 * 1024 * 1024));
      const controller = new AbortController();
      const id = await uploadable();
      const err = await env.so.snapshots
        .upload(site.id, id, file, {
          resumableThreshold: 1024 * 1024,
          chunkSize: 256 * 1024,
          signal: controller.signal,
          onProgress: (p) => p.sent >= 1024 * 1024 && controller.abort(),
        })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(APIUserAbortError);
      expect((await env.so.snapshots.get(site.id, id)).status).not.toBe("completed");
    });
  });

  describe("upload input errors", () => {
    it("names a missing file in a SiteOpsError before any request", async () => {
      const before = env.events.length;
      const err = await env.so.snapshots.upload(site.id, "snap_whatever00000000", path.join(dir, "missing.tar.gz")).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SiteOpsError);
      expect((err as Error).message).toMatch(/^Cannot upload .*missing\.tar\.gz/);
      expect(env.events.length).toBe(before);
    });
  });
});
