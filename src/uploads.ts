// Snapshot data uploads. Data is streamed, never held whole in memory: a file sent in one PUT is read twice
// (a hashing pass for its Content-Digest header, on a worker thread when large, then the send), a Readable is
// spooled to a temporary file while it is hashed, and inputs above `resumableThreshold` go in Content-Range
// chunks that resume from the server's offset, hashed as they are read for sending (one read of the file).

import type { Readable } from "node:stream";
import { APIPromise } from "./api-promise.js";
import { APIConnectionError, APIError, APIUserAbortError, SiteOpsError, UnexpectedResponseError } from "./errors.js";
import { builtin } from "./internal/builtins.js";
import { hashFile } from "./internal/hash-worker.js";
import { fileChunks, fileSize, guessContentType, RunningHash, spool, type FileInput } from "./internal/upload-data.js";
import { jitterServerDelay, RETRYABLE_STATUSES, RetryState, serverDelay } from "./internal/retry.js";
import { sleep } from "./internal/sleep.js";
import type { APIClient, APIResponse, RequestOptions } from "./request-types.js";

/** What an upload answers with: the snapshot (resources/snapshots.ts), of which this needs its checksum. */
export interface UploadedSnapshot {
  checksum_sha256: string | null;
}

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
/** Retries of one chunk after a failure, each resuming from the server's offset (within the client's retry
 * budget, counted from the chunk's first attempt). */
export const DEFAULT_CHUNK_RETRIES = 5;

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

/** Sends snapshot data; resolves with the snapshot (`.withResponse()`: the last response). */
export function uploadSnapshot<Snapshot extends UploadedSnapshot>(
  client: APIClient,
  urlPath: string,
  source: UploadSource,
  options: UploadOptions = {},
): APIPromise<Snapshot> {
  return new APIPromise(upload<Snapshot>(client, urlPath, source, options));
}

async function upload<Snapshot extends UploadedSnapshot>(
  client: APIClient,
  urlPath: string,
  source: UploadSource,
  options: UploadOptions,
): Promise<APIResponse<Snapshot>> {
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
    return response;
  }
  const input = typeof source === "string" ? { file: source, size: await fileSize(source) } : await spool(source, options.signal);
  try {
    const threshold = options.resumableThreshold ?? DEFAULT_RESUMABLE_THRESHOLD;
    if (input.size > threshold) return await uploadChunked<Snapshot>(client, urlPath, input, { ...options, timeout, contentType });
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
    return response;
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
async function uploadChunked<Snapshot extends UploadedSnapshot>(
  client: APIClient,
  urlPath: string,
  input: FileInput,
  options: UploadOptions & { contentType: string },
): Promise<APIResponse<Snapshot>> {
  const chunkSize = Math.max(1, options.chunkSize ?? DEFAULT_CHUNK_SIZE);
  const policy = { maxRetries: options.chunkRetries ?? DEFAULT_CHUNK_RETRIES, budgetMs: options.retryBudgetMs ?? client.retryBudgetMs };
  const hashing = input.digest === undefined ? new RunningHash(input.file) : undefined;
  const total = input.size;
  const digest = async (): Promise<string> => input.digest ?? (await hashing!.digestOf(total));
  const initial = await queryOffset<Snapshot>(client, urlPath, total, options);
  let offset = 0;
  if (typeof initial === "number") offset = initial;
  // Already complete: the same data is a no-op, as the service treats it; other data is sent so that the
  // service can refuse it (422) rather than this call claiming success.
  else if (initial.data.checksum_sha256 === Buffer.from(await digest(), "base64").toString("hex")) return initial;
  let retries = new RetryState(policy);
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
      if (response.status === 200) return response as APIResponse<Snapshot>;
      const received = receivedBytes(response.data);
      if (received === undefined) {
        const problem = `a ${response.status} answer to a chunk has no "received_bytes" (expected a number; the service may not take resumable uploads: raise resumableThreshold above the file size to send it in one request)`;
        throw new UnexpectedResponseError(`PUT ${urlPath}`, "received_bytes", problem, response.requestId);
      }
      if (received > start) retries = new RetryState(policy);
      // A server that accepts a chunk without moving forward would have us resend it forever.
      else if (retries.next(0) === undefined) throw new SiteOpsError(`Upload: the service stays at byte ${received} of ${total}.`);
      offset = received;
      continue;
    }
    const requested = error instanceof APIError ? serverDelay(error.headers) : undefined;
    const delay = retryable(error) ? retries.next(requested === undefined ? undefined : jitterServerDelay(requested)) : undefined;
    if (delay === undefined) throw error;
    await sleep(delay, { signal: options.signal });
    const resumed = await queryOffset<Snapshot>(client, urlPath, total, options);
    if (typeof resumed !== "number") return resumed;
    offset = resumed;
  }
}

/** Asks where the server is: a number to resume from, or the finished snapshot. */
async function queryOffset<Snapshot>(client: APIClient, urlPath: string, total: number, options: UploadOptions): Promise<number | APIResponse<Snapshot>> {
  const response = await client.request<unknown>({
    ...options,
    method: "PUT",
    path: urlPath,
    rawBody: () => Buffer.alloc(0),
    contentType: options.contentType,
    headers: { ...options.headers, "content-length": "0", "content-range": `bytes */${total}` },
  });
  if (response.status === 200 && response.data && typeof response.data === "object" && "id" in response.data) {
    return response as APIResponse<Snapshot>;
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
