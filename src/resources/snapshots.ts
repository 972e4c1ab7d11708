// `so.snapshots`: a site's snapshots: list, get, create (by the service or for uploaded data), delete, upload.
import { apiPath } from "../internal/api-path.js";
import type { RequestOptions } from "../request-types.js";
import { list, type ListOptions, type PagePromise, type PageParams } from "../pagination.js";
import { uploadSnapshot, type UploadOptions, type UploadSource } from "../uploads.js";
import { SHAPES } from "../response-shapes.js";
import { APIResource } from "./resource.js";
import type { Snapshot, SnapshotCreateParams } from "../generated/wire.js";

export type { Snapshot, SnapshotCreateParams, SnapshotStatus } from "../generated/wire.js";

export class Snapshots extends APIResource {
  /** GET /api/v1/sites/:site_id/snapshots (newest first). */
  list(siteId: string, params?: PageParams, options?: ListOptions): PagePromise<Snapshot> {
    return list<Snapshot>(this.client, apiPath`/sites/${siteId}/snapshots`, params, options, SHAPES.snapshot);
  }
  /** GET /api/v1/sites/:site_id/snapshots/:id */
  get(siteId: string, id: string, options?: RequestOptions): Promise<Snapshot> {
    return this.client.send<Snapshot>({ method: "GET", path: apiPath`/sites/${siteId}/snapshots/${id}`, ...options, expect: SHAPES.snapshot });
  }
  /** POST /api/v1/sites/:site_id/snapshots */
  create(siteId: string, body: SnapshotCreateParams = {}, options?: RequestOptions): Promise<Snapshot> {
    return this.client.send<Snapshot>({ method: "POST", path: apiPath`/sites/${siteId}/snapshots`, body, ...options, expect: SHAPES.snapshot });
  }
  /** DELETE /api/v1/sites/:site_id/snapshots/:id (422 while a running pipeline uses it). */
  delete(siteId: string, id: string, options?: RequestOptions): Promise<void> {
    return this.client.delete(apiPath`/sites/${siteId}/snapshots/${id}`, options);
  }
  /**
   * PUT /api/v1/sites/:site_id/snapshots/:id/upload: sends snapshot data from a file path, a Buffer or a
   * Readable, streamed, with a Content-Digest; large inputs go in resumable chunks. Resolves with the snapshot.
   */
  upload(siteId: string, id: string, source: UploadSource, options?: UploadOptions): Promise<Snapshot> {
    return uploadSnapshot<Snapshot>(this.client, apiPath`/sites/${siteId}/snapshots/${id}/upload`, source, options);
  }
}
