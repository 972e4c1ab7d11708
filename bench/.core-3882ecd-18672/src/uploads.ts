// Snapshot data uploads. Data is streamed, never held whole in memory: a file sent in one PUT is read twice
// (a hashing pass for its Content-Digest header, on a worker thread when large, then the send), a Readable is
// spooled to a temporary file while it is hashed, and inputs above `resumableThreshold` go in Content-Range
// chunks that resume from the server's offset, hashed as they are read for sending (one read of the file).

import type { Hash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdtemp, open, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { APIResponse, RequestOptions, SiteOps } from "./client.js";
import { APIConnectionError, APIError, APIUserAbortError, SiteOpsError } from "./errors.js";
import { backoffDelay, RETRYABLE_STATUSES, retryDelay, sleep } from "./internal/backoff.js";
import { builtin } from "./internal/builtins.js";
import { hashFile } from "./internal/hash-worker.js";
import type { Snapshot } from "./resources/snapshots.js";

/** Inputs larger than this are sent in resumable chunks. */
export const DEFAULT_RESUMABLE_THRESHOLD = 64 * 1024 * 1024;
/** Size of one resumable chunk: large enough that the round trip between chunks costs little, and a
 * retry resumes from the server's offset (bytes already written are kept), not from the chunk start. */
export const DEFAULT_CHUNK_SIZE = 64 * 1024 * 1024;
/** The last chunk is kept this small: it carries the whole-data Content-Digest, so its bytes are read and
 * hashed before it is sent; everything before it is hashed as it is sent. */
const TAIL_BYTES = 1024 * 1024;
/** Per-attempt timeout of an upload request (a whole body or one chunk). */
export const DEFAULT_UPLOAD_TIMEOUT_MS = 10 * 60_000;
/** Retries of one chunk after a failure, each resuming from the server's offset. */
export const DEFAULT_CHUNK_RETRIES = 5;

/** Read size, and how many read buffers are reused in turn (see fileChunks). 256 KiB stays in the CPU's
 * cache between the read, the hashing and the socket write; 4 MiB buffers measured ~10% more CPU. */
const READ_BUFFER_BYTES = 256 * 1024;
const RING_BUFFERS = 4;

/** A file path, the data itself, or a stream of it. */
export type UploadSource = string | Buffer | Uint8Array | Readable | AsyncIterable<Uint8Array>;

export interface UploadProgress {
  /** Bytes the service has acknowledged or that were sent in the current request. */
  sent: number;
  total: number;
}

export interface UploadOptions extends RequestOptions {
  /** Called as data is sent. */
  onProgress?: (progress: UploadProgress) => void;
  /** Default from the file extension (.gz, .tgz, .zip, .tar), else application/octet-stream. */
  contentType?: string;
  /** Sizes above this use resumable chunks. Default DEFAULT_RESUMABLE_THRESHOLD (64 MiB). */
  resumableThreshold?: number;
  /** Default DEFAULT_CHUNK_SIZE (64 MiB). */
  chunkSize?: number;
  /** Retries per chunk, each resuming from the server's offset. Default DEFAULT_CHUNK_RETRIES (5). */
  chunkRetries?: number;
}

interface FileInput {
  file: string;
  size: number;
  cleanup?: () => Promise<void>;
  /** Base64 SHA-256 when already known (spooled streams). */
  digest?: string;
}

export async function uploadSnapshot(client: SiteOps, urlPath: string, source: UploadSource, options: UploadOptions = {}): Promise<Snapshot> {
  const contentType = options.contentType ?? guessContentType(typeof source === "string" ? source : "");
  const timeout = options.timeout ?? DEFAULT_UPLOAD_TIMEOUT_MS;
  if (typeof source !== "string" && (Buffer.isBuffer(source) || source instanceof Uint8Array)) {
    const data = Buffer.isBuffer(source) ? source : Buffer.from(source.buffer, source.byteOffset, source.byteLength);
    const digest = builtin("node:crypto").createHash("sha256").update(data).digest("base64");
    const response = await client.request<Snapshot>({
      ...options,
      timeout,
      method: "PUT",
      path: urlPath,
      rawBody: () => data,
      contentType,
      headers: { ...options.headers, "content-digest": `sha-256=:${digest}:` },
    });
    options.onProgress?.({ sent: data.length, total: data.length });
    return response.data;
  }
  const input = typeof source === "string" ? { file: source, size: await fileSize(source) } : await spool(source, options.signal);
  try {
    const threshold = options.resumableThreshold ?? DEFAULT_RESUMABLE_THRESHOLD;
    if (input.size > threshold) return await uploadChunked(client, urlPath, input, { ...options, timeout, contentType });
    let digest = input.digest;
    if (digest === undefined) {
      const hashing = hashFile(input.file, input.size);
      const onAbort = () => hashing.stop();
      options.signal?.addEventListener("abort", onAbort, { once: true });
      try {
        digest = await hashing.digest;
      } catch (err) {
        if (options.signal?.aborted) throw new APIUserAbortError(undefined, { cause: err });
        throw err;
      } finally {
        options.signal?.removeEventListener("abort", onAbort);
      }
    }
    const response = await client.request<Snapshot>({
      ...options,
      timeout,
      method: "PUT",
      path: urlPath,
      rawBody: () => fileChunks(input.file, 0, input.size, (n) => options.onProgress?.({ sent: n, total: input.size })),
      contentType,
      headers: { ...options.headers, "content-length": String(input.size), "content-digest": `sha-256=:${digest}:` },
    });
    return response.data;
  } finally {
    await input.cleanup?.();
  }
}

/**
 * Resumable mode: `Content-Range: bytes a-b/total` per chunk (202 `{received_bytes}` until the last, then
 * 200 with the snapshot). After a failure, `bytes * /total` with an empty body asks the server where to go
 * on. The SHA-256 of the whole data is sent with the last chunk: the file is hashed as its bytes are read
 * for sending (one read of the file, on this thread), and a resume from an offset the hash has passed
 * re-hashes from the start of the chunk it fell in.
 */
async function uploadChunked(client: SiteOps, urlPath: string, input: FileInput, options: UploadOptions & { contentType: string }): Promise<Snapshot> {
  const chunkSize = Math.max(1, options.chunkSize ?? DEFAULT_CHUNK_SIZE);
  const maxRetries = options.chunkRetries ?? DEFAULT_CHUNK_RETRIES;
  const hashing = input.digest === undefined ? new RunningHash(input.file) : undefined;
  const total = input.size;
  const digest = async (): Promise<string> => input.digest ?? (await hashing!.digestOf(total));
  const initial = await queryOffset(client, urlPath, total, options);
  let offset = 0;
  if (typeof initial === "number") offset = initial;
  // Already complete: the same data is a no-op, as the service treats it; other data is sent so that the
  // service can refuse it (422) rather than this call claiming success.
  else if (initial.checksum_sha256 === Buffer.from(await digest(), "base64").toString("hex")) return initial;
  let failures = 0;
  for (;;) {
    const start = offset;
    let end = Math.min(start + chunkSize, total);
    if (end === total && end - start > TAIL_BYTES) end = total - TAIL_BYTES;
    const headers: Record<string, string> = {
      ...options.headers,
      "content-length": String(end - start),
      "content-range": `bytes ${start}-${end - 1}/${total}`,
    };
    if (end === total) headers["content-digest"] = `sha-256=:${await digest()}:`;
    else await hashing?.catchUp(start);
    let response: APIResponse<unknown> | undefined;
    let error: unknown;
    try {
      response = await client.request<unknown>({
        ...options,
        maxRetries: 0, // retried below, from the server's offset
        method: "PUT",
        path: urlPath,
        rawBody: () =>
          fileChunks(input.file, start, end, (n) => options.onProgress?.({ sent: start + n, total }), end === total ? undefined : hashing?.feeder(start)),
        contentType: options.contentType,
        headers,
      });
    } catch (err) {
      error = err;
    }
    if (response) {
      if (response.status === 200) return response.data as Snapshot;
      const received = receivedBytes(response.data);
      if (received === undefined) throw new SiteOpsError(`Upload: unexpected ${response.status} response without received_bytes.`);
      if (received > start) failures = 0;
      // A server that accepts a chunk without moving forward would have us resend it forever.
      else if (++failures > maxRetries) throw new SiteOpsError(`Upload: the service stays at byte ${received} of ${total}.`);
      offset = received;
      continue;
    }
    const delay = retryable(error) && failures < maxRetries ? (error instanceof APIError ? retryDelay(error.headers, failures) : backoffDelay(failures)) : undefined;
    if (delay === undefined) throw error;
    failures++;
    try {
      await sleep(delay, options.signal);
    } catch (reason) {
      throw new APIUserAbortError(undefined, { cause: reason });
    }
    const resumed = await queryOffset(client, urlPath, total, options);
    if (typeof resumed !== "number") return resumed;
    offset = resumed;
  }
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

/** Asks where the server is: a number to resume from, or the finished snapshot. */
async function queryOffset(client: SiteOps, urlPath: string, total: number, options: UploadOptions): Promise<number | Snapshot> {
  const response = await client.request<unknown>({
    ...options,
    method: "PUT",
    path: urlPath,
    rawBody: () => Buffer.alloc(0),
    contentType: options.contentType,
    headers: { ...options.headers, "content-length": "0", "content-range": `bytes */${total}` },
  });
  if (response.status === 200 && response.data && typeof response.data === "object" && "id" in response.data) {
    return response.data as Snapshot;
  }
  return receivedBytes(response.data) ?? 0;
}

function receivedBytes(data: unknown): number | undefined {
  if (data && typeof data === "object" && "received_bytes" in data) {
    const n = (data as { received_bytes: unknown }).received_bytes;
    if (typeof n === "number" && Number.isInteger(n) && n >= 0) return n;
  }
  return undefined;
}

function retryable(error: unknown): boolean {
  // 409: the chunk did not start at the server's offset, or the server still finishes an interrupted
  // request to the same snapshot; both are settled by asking for the offset again.
  if (error instanceof APIError) return RETRYABLE_STATUSES.has(error.status) || error.status === 409;
  return error instanceof APIConnectionError;
}

/**
 * Bytes [start, end) of `file` as an async iterable for undici, read into a small ring of reused buffers.
 * undici pulls the next chunk only once the previous one was handed to the socket (written, or after
 * 'drain'), so a buffer is free again long before the ring comes back to it; a fresh buffer per read would
 * instead pile up ~64 MiB of garbage between two GCs. Must not be wrapped in a Readable (it would read
 * ahead and overwrite buffers not yet sent). The whole-data Content-Digest guards against any mix-up.
 */
async function* fileChunks(
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
async function spool(source: Readable | AsyncIterable<Uint8Array>, signal?: AbortSignal): Promise<FileInput> {
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

async function fileSize(file: string): Promise<number> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new Error("not a regular file");
    return info.size;
  } catch (err) {
    throw new SiteOpsError(`Cannot upload ${file}: ${(err as Error).message}`, { cause: err });
  }
}

function guessContentType(file: string): string {
  const lower = file.toLowerCase();
  if (lower.endsWith(".gz") || lower.endsWith(".tgz")) return "application/gzip";
  if (lower.endsWith(".zip")) return "application/zip";
  if (lower.endsWith(".tar")) return "application/x-tar";
  return "application/octet-stream";
}
