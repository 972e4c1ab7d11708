// PUT /api/v1/sites/:site_id/snapshots/:id/upload: the HTTP side of an upload (its content types and
// headers: Content-Range, Content-Length, Content-Digest); the rules are in services/snapshot-uploads.ts.
// Members may upload: they may create snapshots, and the data is part of creating one.
import type { Readable } from "node:stream";
import type { App } from "../http.js";
import type { EmulatorContext } from "../context.js";
import { originOf, requireAuth } from "../auth/guards.js";
import { badRequest } from "../errors.js";
import { SiteItemParams } from "../../wire/common.js";
import { SnapshotSchema, UploadReceivedSchema } from "../../wire/snapshots.js";
import { loadSite } from "../services/sites.js";
import { loadSnapshot } from "../services/snapshots.js";
import { SnapshotUploads, type ChunkRange } from "../services/snapshot-uploads.js";
import { parseContentDigest } from "../services/upload-digest.js";

const UPLOAD_CONTENT_TYPES = ["application/octet-stream", "application/gzip", "application/zip", "application/x-tar"];

type Range = { kind: "query"; total: number } | ({ kind: "chunk" } & ChunkRange);

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

const schema = {
  operationId: "uploadSnapshotData",
  summary: "Upload the data of an upload snapshot: whole body, or resumable with Content-Range",
  description:
    "Body: application/octet-stream, application/gzip, application/zip or application/x-tar (up to 5 GiB). Optional Content-Digest (sha-256). " +
    "Resumable: Content-Range `bytes a-b/total` per chunk (202 until the last), `bytes */total` with an empty body asks for the offset; " +
    "a chunk at the wrong offset is 409 with received_bytes.",
  tags: ["snapshots"],
  consumes: UPLOAD_CONTENT_TYPES,
  params: SiteItemParams,
  response: { 200: SnapshotSchema, 202: UploadReceivedSchema },
};

export async function registerSnapshotUploadRoutes(app: App, ctx: EmulatorContext): Promise<void> {
  const uploads = new SnapshotUploads(ctx);
  await app.register(async (instance) => {
    const scope = instance as unknown as App;
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(UPLOAD_CONTENT_TYPES, (_req, payload, done) => done(null, payload));

    scope.put("/sites/:site_id/snapshots/:id/upload", { schema }, async (req, reply) => {
      const site = loadSite(ctx, requireAuth(req).accountId, req.params.site_id);
      const row = uploads.accepting(loadSnapshot(ctx, site.id, req.params.id));
      const range = parseContentRange(req.headers["content-range"]);
      const digests = parseContentDigest(req.headers["content-digest"]);
      const declared = parseLength(req.headers["content-length"]);
      if (range?.kind === "query" && declared) throw badRequest("An offset query (Content-Range: bytes */total) has an empty body");
      const out =
        range?.kind === "query" ? uploads.offset(row) : await uploads.put(row, req.body as Readable | undefined, { declared, range, digests }, originOf(req));
      return reply.code(out.status).send(out.body as never);
    });
  });
}
