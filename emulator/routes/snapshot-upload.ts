// PUT /api/v1/sites/:site_id/snapshots/:id/upload: the data of an `upload: true` snapshot, streamed to
// disk while hashed, never held whole in memory (DESIGN.md section 2, Upload).
//
// - Whole body: 200 with the completed snapshot. `Content-Digest: sha-256=:<b64>:` (sha-512 too) is
//   checked; a mismatch is 422 `Checksum mismatch` and nothing is kept.
// - Resumable: `Content-Range: bytes a-b/total` per chunk -> 202 `{"received_bytes":n}`, the last -> 200.
//   `Content-Range: bytes */total` with an empty body answers the offset (202), or 200 when complete.
//   A chunk that does not start at the current offset: 409 `{"error", "received_bytes"}` (the client
//   resumes from there). A Content-Digest on a chunk may cover that chunk or, on the last chunk, the
//   whole data (what the siteops client sends); a mismatch discards the chunk, or the whole upload when
//   it was the last chunk (the corruption may be anywhere). A connection lost mid-chunk keeps the bytes
//   written so far (none when the chunk carried a digest that can no longer be checked).
// - The same data again on a completed snapshot: 200, no change; other data: 422.
// - Members may upload: they may create snapshots, and the data is part of creating one.
import { createHash, type Hash } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { Writable, type Readable, pipeline as pipelineCb } from "node:stream";
import { Type } from "typebox";
import type { App } from "../app.js";
import type { EmulatorContext } from "../context.js";
import { requireAuth } from "../app.js";
import { HttpError, MESSAGES, badRequest, notFound, unprocessable } from "../errors.js";
import { randomAlphanumeric } from "../ids.js";
import { UPLOAD_LIMIT } from "../options.js";
import { stmt } from "../store/db.js";
import { loadSite } from "../services/sites.js";
import {
  SnapshotSchema,
  completeSnapshot,
  getSnapshotRow,
  loadSnapshot,
  serializeSnapshot,
  siteDataDir,
  snapshotDataPath,
  type Origin,
  type SnapshotRow,
} from "../services/snapshots.js";
import { HashingCounter, hashFileRange, parseContentDigest, type ExpectedDigest } from "../services/upload-digest.js";
import { originOf } from "./common.js";

export const UPLOAD_CONTENT_TYPES = ["application/octet-stream", "application/gzip", "application/zip", "application/x-tar"];

const Params = Type.Object({ site_id: Type.String(), id: Type.String() });
const Received = Type.Object({ received_bytes: Type.Integer() });

type Range = { kind: "query"; total: number } | { kind: "chunk"; start: number; end: number; total: number };

function parseContentRange(header: string | undefined): Range | undefined {
  if (header === undefined) return undefined;
  let m = /^\s*bytes\s+\*\/(\d{1,16})\s*$/i.exec(header);
  if (m) return { kind: "query", total: Number(m[1]) };
  m = /^\s*bytes\s+(\d{1,16})-(\d{1,16})\/(\d{1,16})\s*$/i.exec(header);
  if (m) {
    const [start, end, total] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (start > end || end >= total) throw badRequest("Invalid Content-Range header");
    return { kind: "chunk", start, end, total };
  }
  throw badRequest("Invalid Content-Range header");
}

function parseLength(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  if (!/^\d{1,16}$/.test(header)) throw badRequest("Invalid Content-Length header");
  return Number(header);
}

const tooLarge = (): HttpError => new HttpError(413, MESSAGES.tooLarge, {}, { connection: "close" });
const mismatch = (): HttpError => unprocessable("Checksum mismatch");
const differentData = (): HttpError => unprocessable("Snapshot already has different data");

class Interrupted extends Error {}

/**
 * Pipes the request into counter -> sink. Unlike stream.pipeline, a failure does not destroy the
 * request (so an error response can still be sent); a request that ends early rejects with Interrupted.
 */
function streamInto(source: Readable, counter: HashingCounter, sink: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = source as IncomingMessage;
    const onGone = (): void => {
      if (!req.complete) counter.destroy(new Interrupted("the connection closed before the body was complete"));
    };
    source.once("error", onGone);
    source.once("close", onGone);
    pipelineCb(counter, sink, (err) => {
      source.off("error", onGone);
      source.off("close", onGone);
      source.unpipe(counter);
      if (err) reject(err);
      else resolve();
    });
    source.pipe(counter);
  });
}

const devNull = (): Writable => new Writable({ write: (_c, _e, done) => done() });

/** Stream buffers on the upload path: the 16 KiB default makes the socket pause and resume every few
 * reads, and the file get one small write per network read (through the thread pool): ~30% of the CPU an
 * upload costs the emulator. With 4 MiB the file gets large writev batches. */
const UPLOAD_BUFFER_BYTES = 4 * 1024 * 1024;

function digestOf(hash: Hash, algorithm: "base64" | "hex"): string {
  return hash.copy().digest(algorithm);
}

/** True when every expected digest is the digest of bytes [0, total) of the file. */
async function wholeFileMatches(file: string, total: number, digests: ExpectedDigest[], sha256: Hash | undefined): Promise<boolean> {
  for (const d of digests) {
    const hash = d.algorithm === "sha256" && sha256 ? sha256.copy() : await hashFileRange(file, 0, total, createHash(d.algorithm));
    if (hash.digest("base64") !== d.base64) return false;
  }
  return true;
}

export async function registerSnapshotUploadRoutes(app: App, ctx: EmulatorContext): Promise<void> {
  /** Uploads in flight (one per snapshot at a time). */
  const busy = new Set<string>();
  /** Running SHA-256 of a resumable upload's bytes [0, offset), so the last chunk needs no re-read. */
  const running = new Map<string, { offset: number; hash: Hash }>();

  const setProgress = (row: SnapshotRow, received: number, total: number | null, file: string): void => {
    stmt(
      ctx.db,
      `UPDATE snapshots SET upload_received = ?, upload_total = ?, data_path = ?,
         status = CASE WHEN status IN ('requested','in_progress') THEN (CASE WHEN ? > 0 THEN 'in_progress' ELSE 'requested' END) ELSE status END,
         updated_at = ? WHERE id = ?`,
    ).run(received, total, file, received, ctx.clock.iso(), row.id);
  };

  async function whole(origin: Origin, row: SnapshotRow, source: Readable, declared: number | undefined, digests: ExpectedDigest[]) {
    const counter = new HashingCounter(UPLOAD_LIMIT, digests.map((d) => d.algorithm), [], { highWaterMark: UPLOAD_BUFFER_BYTES });
    if (row.status === "completed") {
      await streamInto(source, counter, devNull());
      if (!counter.matches(digests)) throw mismatch();
      if (counter.bytes !== row.size_bytes || digestOf(counter.hashes.get("sha256")!, "hex") !== row.checksum_sha256) throw differentData();
      return serializeSnapshot(row);
    }
    const file = snapshotDataPath(ctx, row.site_id, row.id);
    const tmp = `${file}.${randomAlphanumeric(8)}.part`;
    mkdirSync(siteDataDir(ctx, row.site_id), { recursive: true });
    try {
      await streamInto(source, counter, createWriteStream(tmp, { highWaterMark: UPLOAD_BUFFER_BYTES }));
      if (declared !== undefined && counter.bytes !== declared) throw badRequest("Body does not match Content-Length");
      if (counter.bytes === 0) throw badRequest("Upload body is empty");
      if (!counter.matches(digests)) throw mismatch();
      if (!getSnapshotRow(ctx, row.id)) throw notFound(); // deleted meanwhile
      renameSync(tmp, file);
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
    running.delete(row.id);
    stmt(ctx.db, "UPDATE snapshots SET data_path = ? WHERE id = ?").run(file, row.id);
    return completeSnapshot(ctx, row.id, counter.bytes, digestOf(counter.hashes.get("sha256")!, "hex"), ctx.clock.nowMs(), origin);
  }

  async function chunk(
    origin: Origin,
    row: SnapshotRow,
    source: Readable,
    range: Extract<Range, { kind: "chunk" }>,
    digests: ExpectedDigest[],
  ): Promise<{ status: 200 | 202; body: unknown }> {
    const { start, end, total } = range;
    const length = end - start + 1;
    const last = end + 1 === total;
    const file = snapshotDataPath(ctx, row.site_id, row.id);
    const counter = new HashingCounter(length, digests.map((d) => d.algorithm));

    if (row.status === "completed") {
      if (total !== row.size_bytes || !row.data_path || !existsSync(row.data_path)) throw differentData();
      await streamInto(source, counter, devNull());
      if (counter.bytes !== length) throw badRequest("Body does not match Content-Range");
      const stored = digestOf(await hashFileRange(row.data_path, start, end + 1, createHash("sha256")), "hex");
      if (stored !== digestOf(counter.hashes.get("sha256")!, "hex")) throw differentData();
      return { status: 200, body: serializeSnapshot(row) };
    }
    if (row.upload_received > 0 && row.upload_total !== null && row.upload_total !== total) {
      throw unprocessable(`Content-Range total does not match the upload in progress (${row.upload_total} bytes)`);
    }
    if (start !== row.upload_received) {
      throw new HttpError(409, `Upload offset mismatch: the upload continues at byte ${row.upload_received}`, { received_bytes: row.upload_received });
    }

    mkdirSync(siteDataDir(ctx, row.site_id), { recursive: true });
    if (start === 0 || !existsSync(file)) writeFileSync(file, "");
    truncateSync(file, start); // drop any bytes past the offset left by an interrupted write
    const known = running.get(row.id);
    const wholeHash = start === 0 ? createHash("sha256") : known?.offset === start ? known.hash.copy() : undefined;
    running.delete(row.id);
    const counterWithWhole = new HashingCounter(length, digests.map((d) => d.algorithm), wholeHash ? [wholeHash] : [], {
      sha256: false,
      highWaterMark: UPLOAD_BUFFER_BYTES,
    });
    const sink = createWriteStream(file, { flags: "r+", start, highWaterMark: UPLOAD_BUFFER_BYTES });
    try {
      await streamInto(source, counterWithWhole, sink);
      if (counterWithWhole.bytes !== length) throw badRequest("Body does not match Content-Range");
    } catch (err) {
      // Keep what reached the disk, unless a digest was sent that can no longer be checked.
      const kept = err instanceof Interrupted && digests.length === 0 ? Math.min(sink.bytesWritten, length) : 0;
      truncateSync(file, start + kept);
      setProgress(row, start + kept, total, file);
      throw err instanceof Interrupted ? badRequest("Upload interrupted") : err;
    }

    if (!counterWithWhole.matches(digests)) {
      const wholeOk = last && (await wholeFileMatches(file, total, digests, wholeHash));
      if (!wholeOk) {
        const keep = last ? 0 : start;
        truncateSync(file, keep);
        setProgress(row, keep, keep ? total : null, file);
        throw mismatch();
      }
    }
    if (!getSnapshotRow(ctx, row.id)) {
      rmSync(file, { force: true });
      throw notFound();
    }
    if (!last) {
      setProgress(row, end + 1, total, file);
      if (wholeHash) running.set(row.id, { offset: end + 1, hash: wholeHash });
      return { status: 202, body: { received_bytes: end + 1 } };
    }
    const sha = wholeHash ?? (await hashFileRange(file, 0, total, createHash("sha256")));
    setProgress(row, total, total, file);
    return { status: 200, body: completeSnapshot(ctx, row.id, total, sha.digest("hex"), ctx.clock.nowMs(), origin) };
  }

  await app.register(async (instance) => {
    const scope = instance as unknown as App;
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(UPLOAD_CONTENT_TYPES, (_req, payload, done) => done(null, payload));

    scope.put(
      "/sites/:site_id/snapshots/:id/upload",
      {
        schema: {
          operationId: "uploadSnapshotData",
          summary: "Upload the data of an upload snapshot: whole body, or resumable with Content-Range",
          description:
            "Body: application/octet-stream, application/gzip, application/zip or application/x-tar (up to 5 GiB). Optional Content-Digest (sha-256). " +
            "Resumable: Content-Range `bytes a-b/total` per chunk (202 until the last), `bytes */total` with an empty body asks for the offset; " +
            "a chunk at the wrong offset is 409 with received_bytes.",
          tags: ["snapshots"],
          consumes: UPLOAD_CONTENT_TYPES,
          params: Params,
          response: { 200: SnapshotSchema, 202: Received },
        },
      },
      async (req, reply) => {
        const site = loadSite(ctx, requireAuth(req).accountId, req.params.site_id);
        // Members may create snapshots, and sending a snapshot's data is part of creating it.
        const row = loadSnapshot(ctx, site.id, req.params.id);
        if (row.source !== "upload") throw unprocessable("Snapshot is captured by the service and does not accept uploads");
        if (row.status === "failed") throw unprocessable("Snapshot has failed and does not accept uploads");
        const range = parseContentRange(req.headers["content-range"]);
        const digests = parseContentDigest(req.headers["content-digest"]);
        const declared = parseLength(req.headers["content-length"]);
        const source = (req.body as Readable | undefined) ?? undefined;

        if (range?.kind === "query") {
          if (declared) throw badRequest("An offset query (Content-Range: bytes */total) has an empty body");
          if (row.status === "completed") return reply.code(200).send(serializeSnapshot(row));
          return reply.code(202).send({ received_bytes: row.upload_received });
        }
        if ((declared !== undefined && declared > UPLOAD_LIMIT) || (range && range.total > UPLOAD_LIMIT)) throw tooLarge();
        if (!source || declared === 0) throw badRequest("Upload body is empty");
        if (busy.has(row.id)) throw new HttpError(409, "Another upload to this snapshot is in progress", { received_bytes: row.upload_received });
        busy.add(row.id);
        try {
          if (range) {
            if (declared !== undefined && declared !== range.end - range.start + 1) throw badRequest("Content-Length does not match Content-Range");
            const out = await chunk(originOf(req), row, source, range, digests);
            return reply.code(out.status).send(out.body as never);
          }
          return reply.code(200).send(await whole(originOf(req), row, source, declared, digests));
        } catch (err) {
          if (err instanceof HttpError && err.status === 413) throw tooLarge();
          if (err instanceof Interrupted) throw badRequest("Upload interrupted");
          throw err;
        } finally {
          busy.delete(row.id);
        }
      },
    );
  });
}
