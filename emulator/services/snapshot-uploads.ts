// The data of an `upload: true` snapshot, streamed to disk while hashed, never held whole in memory (docs/design.md section 2, Upload).
// The route parses the headers; this holds the rules and the state:
// - Whole body: the completed snapshot. Content-Digest (sha-256, sha-512) is checked; a mismatch is 422 `Checksum mismatch` and nothing is kept.
// - Resumable: each chunk at the current offset -> 202 `{"received_bytes":n}`, the last -> 200. A chunk elsewhere: 409 with `received_bytes` (the client
//   resumes from there). A Content-Digest on a chunk may cover that chunk or, on the last chunk, the whole data (what the siteops client sends); a
//   mismatch discards the chunk, or the whole upload when it was the last chunk (the corruption may be anywhere). A connection lost mid-chunk keeps the
//   bytes written so far (none when the chunk carried a digest that can no longer be checked).
// - The same data again on a completed snapshot: 200, no change; other data: 422.
// - A snapshot deleted or failed (its upload expired: services/snapshots.ts) while a body arrives keeps none of it: 404, or 422 as when failed.
import { createHash, type Hash } from "node:crypto";
import { createWriteStream, existsSync, renameSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import type { Readable } from "node:stream";
import type { EmulatorContext } from "../context.js";
import type { Origin } from "../auth/auth-context.js";
import { HttpError, MESSAGES, badRequest, notFound, unprocessable } from "../errors.js";
import { randomAlphanumeric } from "../ids.js";
import { UPLOAD_LIMIT } from "../options.js";
import type { SnapshotJson } from "../../wire/snapshots.js";
import { findSnapshot, setSnapshotDataPath, setUploadProgress, snapshotToJson, type SnapshotRow } from "../store/snapshots.js";
import { completeSnapshot } from "./snapshots.js";
import { DATA_FILE_MODE, makeSiteDataDir, snapshotDataPath } from "./snapshot-files.js";
import { HashingCounter, hashFileRange, type ExpectedDigest } from "./upload-digest.js";
import { Interrupted, UPLOAD_BUFFER_BYTES, devNull, digestOf, streamInto, wholeFileMatches } from "./upload-stream.js";

export interface ChunkRange {
  start: number;
  end: number;
  total: number;
}

export type UploadResult = { status: 200; body: SnapshotJson } | { status: 202; body: { received_bytes: number } };

const tooLarge = (): HttpError => new HttpError(413, MESSAGES.tooLarge, {}, { connection: "close" });
const mismatch = (): HttpError => unprocessable("Checksum mismatch");
const differentData = (): HttpError => unprocessable("Snapshot already has different data");
const failed = (): HttpError => unprocessable("Snapshot has failed and does not accept uploads");

export class SnapshotUploads {
  readonly #ctx: EmulatorContext;
  /** Uploads in flight (one per snapshot at a time). */
  readonly #busy = new Set<string>();
  /** Running SHA-256 of a resumable upload's bytes [0, offset), so the last chunk needs no re-read. */
  readonly #running = new Map<string, { offset: number; hash: Hash }>();

  constructor(ctx: EmulatorContext) {
    this.#ctx = ctx;
  }

  /** Checks the snapshot takes uploads at all (before any header is looked at). */
  accepting(row: SnapshotRow): SnapshotRow {
    if (row.source !== "upload") throw unprocessable("Snapshot is captured by the service and does not accept uploads");
    if (row.status === "failed") throw failed();
    return row;
  }

  /** `Content-Range: bytes *\/total`: the offset to resume from (202), or the snapshot when complete. */
  offset(row: SnapshotRow): UploadResult {
    if (row.status === "completed") return { status: 200, body: snapshotToJson(row) };
    return { status: 202, body: { received_bytes: row.upload_received } };
  }

  /** The whole body, or one chunk of a resumable upload. */
  async put(
    row: SnapshotRow,
    source: Readable | undefined,
    h: { declared?: number; range?: ChunkRange; digests: ExpectedDigest[] },
    origin: Origin,
  ): Promise<UploadResult> {
    if ((h.declared !== undefined && h.declared > UPLOAD_LIMIT) || (h.range && h.range.total > UPLOAD_LIMIT)) throw tooLarge();
    if (!source || h.declared === 0) throw badRequest("Upload body is empty");
    if (this.#busy.has(row.id)) throw new HttpError(409, "Another upload to this snapshot is in progress", { received_bytes: row.upload_received });
    this.#busy.add(row.id);
    try {
      if (!h.range) return { status: 200, body: await this.#whole(row, source, h.declared, h.digests, origin) };
      if (h.declared !== undefined && h.declared !== h.range.end - h.range.start + 1) throw badRequest("Content-Length does not match Content-Range");
      return await this.#chunk(row, source, h.range, h.digests, origin);
    } catch (err) {
      if (err instanceof HttpError && err.status === 413) throw tooLarge();
      if (err instanceof Interrupted) throw badRequest("Upload interrupted");
      throw err;
    } finally {
      this.#busy.delete(row.id);
    }
  }

  /** After a wait on the body or the disk: the snapshot may have been deleted or have expired meanwhile (then `file` goes). */
  #ensureOpen(id: string, file?: string): void {
    const now = findSnapshot(this.#ctx.db, id);
    if (now && now.status !== "failed") return;
    if (file) rmSync(file, { force: true });
    throw now ? failed() : notFound();
  }

  #progress(row: SnapshotRow, received: number, total: number | null, file: string): void {
    setUploadProgress(this.#ctx.db, row.id, received, total, file, this.#ctx.clock.iso());
  }

  async #whole(row: SnapshotRow, source: Readable, declared: number | undefined, digests: ExpectedDigest[], origin: Origin): Promise<SnapshotJson> {
    const ctx = this.#ctx;
    const counter = new HashingCounter(
      UPLOAD_LIMIT,
      digests.map((d) => d.algorithm),
      [],
      { highWaterMark: UPLOAD_BUFFER_BYTES },
    );
    if (row.status === "completed") {
      await streamInto(source, counter, devNull());
      if (!counter.matches(digests)) throw mismatch();
      if (counter.bytes !== row.size_bytes || digestOf(counter.hashes.get("sha256")!, "hex") !== row.checksum_sha256) throw differentData();
      return snapshotToJson(row);
    }
    const file = snapshotDataPath(ctx, row.site_id, row.id);
    const tmp = `${file}.${randomAlphanumeric(8)}.part`;
    makeSiteDataDir(ctx, row.site_id);
    try {
      await streamInto(source, counter, createWriteStream(tmp, { flags: "wx", mode: DATA_FILE_MODE, highWaterMark: UPLOAD_BUFFER_BYTES }));
      if (declared !== undefined && counter.bytes !== declared) throw badRequest("Body does not match Content-Length");
      if (counter.bytes === 0) throw badRequest("Upload body is empty");
      if (!counter.matches(digests)) throw mismatch();
      this.#ensureOpen(row.id);
      renameSync(tmp, file);
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
    this.#running.delete(row.id);
    setSnapshotDataPath(ctx.db, row.id, file);
    return completeSnapshot(ctx, row.id, counter.bytes, digestOf(counter.hashes.get("sha256")!, "hex"), ctx.clock.nowMs(), origin);
  }

  /** The same bytes again, for a completed snapshot: 200 when they match what is stored. */
  async #repeatChunk(row: SnapshotRow, source: Readable, { start, end, total }: ChunkRange, digests: ExpectedDigest[]): Promise<UploadResult> {
    const length = end - start + 1;
    if (total !== row.size_bytes || !row.data_path || !existsSync(row.data_path)) throw differentData();
    const counter = new HashingCounter(
      length,
      digests.map((d) => d.algorithm),
    );
    await streamInto(source, counter, devNull());
    if (counter.bytes !== length) throw badRequest("Body does not match Content-Range");
    const stored = digestOf(await hashFileRange(row.data_path, start, end + 1, createHash("sha256")), "hex");
    if (stored !== digestOf(counter.hashes.get("sha256")!, "hex")) throw differentData();
    return { status: 200, body: snapshotToJson(row) };
  }

  async #chunk(row: SnapshotRow, source: Readable, range: ChunkRange, digests: ExpectedDigest[], origin: Origin): Promise<UploadResult> {
    if (row.status === "completed") return this.#repeatChunk(row, source, range, digests);
    const ctx = this.#ctx;
    const { start, end, total } = range;
    const length = end - start + 1;
    const last = end + 1 === total;
    const file = snapshotDataPath(ctx, row.site_id, row.id);
    if (row.upload_received > 0 && row.upload_total !== null && row.upload_total !== total) {
      throw unprocessable(`Content-Range total does not match the upload in progress (${row.upload_total} bytes)`);
    }
    if (start !== row.upload_received) {
      throw new HttpError(409, `Upload offset mismatch: the upload continues at byte ${row.upload_received}`, { received_bytes: row.upload_received });
    }

    makeSiteDataDir(ctx, row.site_id);
    if (start === 0 || !existsSync(file)) writeFileSync(file, "", { mode: DATA_FILE_MODE });
    truncateSync(file, start); // drop any bytes past the offset left by an interrupted write
    const known = this.#running.get(row.id);
    const wholeHash = start === 0 ? createHash("sha256") : known?.offset === start ? known.hash.copy() : undefined;
    this.#running.delete(row.id);
    const counter = new HashingCounter(
      length,
      digests.map((d) => d.algorithm),
      wholeHash ? [wholeHash] : [],
      { sha256: false, highWaterMark: UPLOAD_BUFFER_BYTES },
    );
    const sink = createWriteStream(file, { flags: "r+", start, highWaterMark: UPLOAD_BUFFER_BYTES });
    try {
      await streamInto(source, counter, sink);
      if (counter.bytes !== length) throw badRequest("Body does not match Content-Range");
    } catch (err) {
      // Keep what reached the disk, unless a digest was sent that can no longer be checked.
      this.#ensureOpen(row.id, file);
      const kept = err instanceof Interrupted && digests.length === 0 ? Math.min(sink.bytesWritten, length) : 0;
      truncateSync(file, start + kept);
      this.#progress(row, start + kept, total, file);
      throw err instanceof Interrupted ? badRequest("Upload interrupted") : err;
    }

    let matches: boolean;
    let sha: Hash | undefined;
    try {
      matches = counter.matches(digests) || (last && (await wholeFileMatches(file, total, digests, wholeHash)));
      if (matches && last) sha = wholeHash ?? (await hashFileRange(file, 0, total, createHash("sha256")));
    } catch (err) {
      this.#ensureOpen(row.id, file);
      throw err;
    }
    this.#ensureOpen(row.id, file);
    if (!matches) {
      const keep = last ? 0 : start;
      truncateSync(file, keep);
      this.#progress(row, keep, keep ? total : null, file);
      throw mismatch();
    }
    if (!sha) {
      this.#progress(row, end + 1, total, file);
      if (wholeHash) this.#running.set(row.id, { offset: end + 1, hash: wholeHash });
      return { status: 202, body: { received_bytes: end + 1 } };
    }
    this.#progress(row, total, total, file);
    return { status: 200, body: completeSnapshot(ctx, row.id, total, sha.digest("hex"), ctx.clock.nowMs(), origin) };
  }
}
