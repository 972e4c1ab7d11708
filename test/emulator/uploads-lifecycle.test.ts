// Snapshot data uploads beyond one process's life and at size: a resumable upload continued after the emulator
// restarts on the same database and data directory, and 100 MiB streamed to disk with bounded emulator memory.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, api, startTestEmulator } from "./helpers.js";
import { bytes, chunkHeaders, digestHeader, octet, sha256hex } from "./upload-bytes.js";
import { removeDir, tempDir } from "../support/temp.js";

describe("resumable upload across a restart", () => {
  it("continues from the stored offset on the same database and data directory", async () => {
    const dir = tempDir("upload-restart");
    const options = { db: path.join(dir, "emulator.db"), dataDir: path.join(dir, "data") };
    let first: RunningEmulator | undefined = await startTestEmulator(options);
    let second: RunningEmulator | undefined;
    try {
      const site = await api(first, "POST", "/sites", { token: TOKENS.owner, body: { name: "Restart", url: "https://restart.example.com" } });
      const snap = await api(first, "POST", `/sites/${site.body.id}/snapshots`, { token: TOKENS.owner, body: { upload: true } });
      const p = `/sites/${site.body.id}/snapshots/${snap.body.id}/upload`;
      const data = bytes(200_000, 51);
      const head = data.subarray(0, 120_000);
      const sent = await api(first, "PUT", p, { token: TOKENS.owner, raw: head, headers: { ...octet, ...chunkHeaders(0, head, data.length) } });
      expect(sent.status).toBe(202);
      await first.close();
      first = undefined;

      second = await startTestEmulator(options);
      const q = await api(second, "PUT", p, { token: TOKENS.owner, headers: { "content-range": `bytes */${data.length}` } });
      expect(q).toMatchObject({ status: 202, body: { received_bytes: 120_000 } });
      const rest = data.subarray(120_000);
      const done = await api(second, "PUT", p, {
        token: TOKENS.owner,
        raw: rest,
        headers: { ...octet, ...chunkHeaders(120_000, rest, data.length), "content-digest": digestHeader(data) },
      });
      expect(done).toMatchObject({ status: 200, body: { status: "completed", size_bytes: data.length, checksum_sha256: sha256hex(data) } });
    } finally {
      await first?.close();
      await second?.close();
      removeDir(dir);
    }
  });
});

describe("large uploads", () => {
  it("streams 100 MiB to disk with bounded emulator memory", async () => {
    // The emulator runs in its own process so that its RSS is measured apart from this client's.
    const fixture = fileURLToPath(new URL("./fixtures/memory-emulator.ts", import.meta.url));
    const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", fixture], { stdio: ["pipe", "pipe", "inherit"] });
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const next = async (): Promise<any> => JSON.parse((await lines.next()).value as string);
    try {
      const { url } = (await next()) as { url: string };
      const call = async (method: string, p: string, body?: unknown) => {
        const res = await fetch(`${url}/api/v1${p}`, {
          method,
          headers: { authorization: `token ${TOKENS.owner}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        return (await res.json()) as any;
      };
      const site = await call("POST", "/sites", { name: "Big", url: "https://big.example.com" });
      const snap = await call("POST", `/sites/${site.id}/snapshots`, { upload: true });

      const CHUNK = 1024 * 1024;
      const COUNT = 100;
      const block = bytes(CHUNK, 41);
      const expected = createHash("sha256");
      for (let i = 0; i < COUNT; i++) expected.update(block.subarray(0, CHUNK - 1)).update(Buffer.from([i]));
      const digest = expected.digest();

      child.stdin!.write("baseline\n");
      await next();
      let i = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (i === COUNT) return controller.close();
          const out = Buffer.allocUnsafe(CHUNK);
          block.copy(out, 0, 0, CHUNK - 1);
          out[CHUNK - 1] = i++;
          controller.enqueue(out);
        },
      });
      const res = await fetch(`${url}/api/v1/sites/${site.id}/snapshots/${snap.id}/upload`, {
        method: "PUT",
        headers: { authorization: `token ${TOKENS.owner}`, ...octet, "content-digest": `sha-256=:${digest.toString("base64")}:` },
        body,
        duplex: "half",
      } as RequestInit);
      const done = (await res.json()) as { status: string; size_bytes: number; checksum_sha256: string };
      expect(res.status).toBe(200);
      expect(done).toMatchObject({ status: "completed", size_bytes: CHUNK * COUNT, checksum_sha256: digest.toString("hex") });

      child.stdin!.write("report\n");
      const { baseline, peak } = (await next()) as { baseline: number; peak: number };
      // Held whole, the body alone would add 100 MiB; streamed, the emulator grows by a fraction of it (Node 24
      // keeps more of the freed chunks resident than Node 20 did: 50 MiB measured here on Node 24).
      expect(peak - baseline).toBeLessThan(72 * 1024 * 1024);
    } finally {
      child.kill();
    }
  });
});
