// Reading upload data: a file's byte range through a small ring of reused buffers, a stream spooled to a
// temporary file while it is hashed, and the running SHA-256 a resumable upload keeps of what it sent.

import type { Hash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdtemp, open, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { APIUserAbortError, SiteOpsError } from "../errors.js";
import { builtin } from "./builtins.js";

/** Read size, and how many read buffers are reused in turn (see fileChunks). 256 KiB stays in the CPU's
 * cache between the read, the hashing and the socket write; larger buffers cost more CPU (bench/results/core.md). */
const READ_BUFFER_BYTES = 256 * 1024;
const RING_BUFFERS = 4;

/** An upload's data as a file on disk (the caller's, or a spooled stream's with its cleanup). */
export interface FileInput {
  file: string;
  size: number;
  cleanup?: () => Promise<void>;
  /** Base64 SHA-256 when already known (spooled streams). */
  digest?: string;
}

/**
 * SHA-256 of a file's bytes [0, n), fed mostly by the bytes read for sending (`feeder`), and otherwise by
 * reading the file (`catchUp`): after a resume at an offset the hash has passed, it goes back to the state
 * kept at the start of the last chunk it was fed (or to the start of the file) and reads forward. Hashing
 * here, between reads, measured faster than on a worker thread: on two cores the copies and messages to a
 * worker cost more than they overlap (bench/core-upload.bench.ts).
 */
export class RunningHash {
  #hash = builtin("node:crypto").createHash("sha256");
  /** Bytes [0, #at) are in #hash. */
  #at = 0;
  #mark: { at: number; hash: Hash } | undefined;

  constructor(readonly file: string) {}

  /** Brings the hash to exactly [0, offset). */
  async catchUp(offset: number): Promise<void> {
    if (offset < this.#at) {
      if (this.#mark && this.#mark.at <= offset) {
        this.#hash = this.#mark.hash.copy();
        this.#at = this.#mark.at;
      } else {
        this.#hash = builtin("node:crypto").createHash("sha256");
        this.#at = 0;
      }
    }
    if (offset > this.#at) {
      for await (const chunk of fileChunks(this.file, this.#at, offset, () => undefined)) this.#hash.update(chunk);
      this.#at = offset;
    }
  }

  /** Feeds the bytes of a chunk starting at `start` as they are read for sending, when the hash is at
   * `start` (else catchUp reads them when needed). The state at `start` is kept for a resume inside it. */
  feeder(start: number): ((bytes: Uint8Array) => void) | undefined {
    if (this.#at !== start) return undefined;
    this.#mark = { at: start, hash: this.#hash.copy() };
    let next = start;
    return (bytes) => {
      if (this.#at === next) {
        this.#hash.update(bytes);
        this.#at += bytes.byteLength;
      }
      next += bytes.byteLength;
    };
  }

  async digestOf(total: number): Promise<string> {
    await this.catchUp(total);
    return this.#hash.copy().digest("base64");
  }
}

/**
 * Bytes [start, end) of `file` as an async iterable for undici, read into a small ring of reused buffers.
 * undici pulls the next chunk only once the previous one was handed to the socket (written, or after
 * 'drain'), so a buffer is free again long before the ring comes back to it; a fresh buffer per read would
 * instead pile up garbage between two GCs. Must not be wrapped in a Readable (it would read
 * ahead and overwrite buffers not yet sent). The whole-data Content-Digest guards against any mix-up.
 */
export async function* fileChunks(
  file: string,
  start: number,
  end: number,
  onProgress: (sent: number) => void,
  onRead?: (bytes: Uint8Array) => void,
): AsyncGenerator<Uint8Array> {
  if (end <= start) return;
  const handle = await open(file, "r");
  const ring: Buffer[] = [];
  try {
    let position = start;
    for (let i = 0; position < end; i++) {
      const buffer = (ring[i % RING_BUFFERS] ??= Buffer.allocUnsafeSlow(READ_BUFFER_BYTES));
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, end - position), position);
      if (bytesRead === 0) throw new SiteOpsError(`Upload: ${file} is shorter than the ${end} bytes announced.`);
      position += bytesRead;
      const bytes = buffer.subarray(0, bytesRead);
      onRead?.(bytes);
      yield bytes;
      onProgress(position - start);
    }
  } finally {
    await handle.close();
  }
}

/** Writes a stream to a temporary file, hashing it on the way. */
export async function spool(source: Readable | AsyncIterable<Uint8Array>, signal?: AbortSignal): Promise<FileInput> {
  const dir = await mkdtemp(path.join(tmpdir(), "siteops-upload-"));
  const file = path.join(dir, "data");
  const hash = builtin("node:crypto").createHash("sha256");
  let size = 0;
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    await pipeline(
      source,
      new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          hash.update(chunk);
          callback(null, chunk);
        },
      }),
      createWriteStream(file),
      { signal },
    );
  } catch (err) {
    await cleanup();
    if (signal?.aborted) throw new APIUserAbortError(undefined, { cause: err });
    throw err;
  }
  return { file, size, digest: hash.digest("base64"), cleanup };
}

export async function fileSize(file: string): Promise<number> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new Error("not a regular file");
    return info.size;
  } catch (err) {
    throw new SiteOpsError(`Cannot upload ${file}: ${(err as Error).message}`, { cause: err });
  }
}

export function guessContentType(file: string): string {
  const lower = file.toLowerCase();
  if (lower.endsWith(".gz") || lower.endsWith(".tgz")) return "application/gzip";
  if (lower.endsWith(".zip")) return "application/zip";
  if (lower.endsWith(".tar")) return "application/x-tar";
  return "application/octet-stream";
}
