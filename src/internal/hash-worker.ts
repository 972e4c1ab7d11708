// SHA-256 of a file in a first pass, for the Content-Digest header of an upload sent in one request: on a
// worker thread when the file is large, so that this thread's event loop is not held up meanwhile. (Chunked
// uploads hash the bytes they send instead: RunningHash in uploads.ts.)

import { createReadStream } from "node:fs";
import type { Worker } from "node:worker_threads";
import { builtin } from "./builtins.js";

export interface FileHashing {
  /** Base64 SHA-256 of bytes [0, size) of the file. */
  digest: Promise<string>;
  /** Stops the hashing (after an upload failed or was aborted). */
  stop(): void;
}

// Plain CommonJS run with `eval: true`: no file to ship next to the bundle, no loader involved.
// Blocking reads into one reused buffer: the worker has nothing else to do, and it allocates nothing per
// read, which keeps RSS flat (a read stream's fresh buffer per read piles up garbage until the next GC).
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const { openSync, readSync, closeSync } = require("node:fs");
try {
  const hash = createHash("sha256");
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  const fd = openSync(workerData.file, "r");
  try {
    for (let position = 0; position < workerData.size; ) {
      const n = readSync(fd, buffer, 0, Math.min(buffer.length, workerData.size - position), position);
      if (n === 0) throw new Error("file shorter than " + workerData.size + " bytes");
      hash.update(buffer.subarray(0, n));
      position += n;
    }
  } finally {
    closeSync(fd);
  }
  parentPort.postMessage({ digest: hash.digest("base64") });
} catch (err) {
  parentPort.postMessage({ error: err.message });
}
`;

/** Below this a worker's start-up costs more than hashing on this thread. */
const WORKER_MIN_BYTES = 16 * 1024 * 1024;

/** Hashes bytes [0, size) of `file`: on a worker thread when it is large, else on this one. */
export function hashFile(file: string, size: number): FileHashing {
  return size >= WORKER_MIN_BYTES ? hashFileInWorker(file, size) : hashOnThisThread(file, size);
}

function hashFileInWorker(file: string, size: number): FileHashing {
  let worker: Worker;
  try {
    worker = new (builtin("node:worker_threads").Worker)(WORKER_SOURCE, { eval: true, workerData: { file, size } });
  } catch {
    return hashOnThisThread(file, size);
  }
  const digest = new Promise<string>((resolve, reject) => {
    worker.once("message", (msg: { digest?: string; error?: string }) => {
      if (msg.digest !== undefined) resolve(msg.digest);
      else reject(new Error(`hashing ${file}: ${msg.error}`));
      void worker.terminate();
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`hash worker exited with ${code}`)));
  });
  digest.catch(() => undefined); // the caller awaits it later; never an unhandled rejection meanwhile
  return { digest, stop: () => void worker.terminate() };
}

function hashOnThisThread(file: string, size: number): FileHashing {
  const stream = size > 0 ? createReadStream(file, { start: 0, end: size - 1, highWaterMark: 1024 * 1024 }) : undefined;
  const digest = (async () => {
    const hash = builtin("node:crypto").createHash("sha256");
    if (stream) for await (const chunk of stream) hash.update(chunk as Buffer);
    return hash.digest("base64");
  })();
  digest.catch(() => undefined);
  return { digest, stop: () => stream?.destroy() };
}
