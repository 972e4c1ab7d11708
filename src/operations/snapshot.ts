// Snapshot workflow: create, optionally upload the data, wait until completed or failed.

import type { OperationsClient } from "./client.js";
import { OperationFailedError } from "../errors.js";
import type { Snapshot, SnapshotCreateParams } from "../resources/snapshots.js";
import type { UploadOptions, UploadSource } from "../uploads.js";
import type { OperationEvent } from "./events.js";
import { waitUntil, type WaitOptions } from "./wait.js";

export interface CreateSnapshotOptions extends WaitOptions {
  description?: string;
  trigger?: SnapshotCreateParams["trigger"];
  /** Data to upload (file path, Buffer, Readable); absent: the service captures the snapshot itself. */
  upload?: UploadSource;
  /** Options of the upload (content type, chunking); its progress goes to `onProgress` too. */
  uploadOptions?: Omit<UploadOptions, "signal" | "onProgress">;
  /** Wait for `completed` or `failed`. Default true. */
  wait?: boolean;
  /** The create request's Idempotency-Key (generated when absent): the same key and body sent again, even by
   * another process, gets the snapshot the first request created instead of a second one. */
  idempotencyKey?: string;
  onProgress?: (event: OperationEvent) => void;
}

const FINAL = new Set(["completed", "failed"]);

/** The body of the create request `options` make. */
export function snapshotParams(options: Pick<CreateSnapshotOptions, "description" | "trigger" | "upload">): SnapshotCreateParams {
  return { description: options.description, trigger: options.trigger, ...(options.upload !== undefined ? { upload: true } : {}) };
}

/** Creates a snapshot (and uploads its data) and, unless `wait: false`, waits for the result.
 * Throws OperationFailedError when it ends `failed`. */
export async function createSnapshot(client: OperationsClient, siteId: string, options: CreateSnapshotOptions = {}): Promise<Snapshot> {
  const { signal, onProgress } = options;
  let snapshot = await client.snapshots.create(siteId, snapshotParams(options), { signal, idempotencyKey: options.idempotencyKey });
  onProgress?.({ type: "snapshot.created", snapshot });
  if (options.upload !== undefined) {
    snapshot = await client.snapshots.upload(siteId, snapshot.id, options.upload, {
      ...options.uploadOptions,
      signal,
      onProgress: (p) => onProgress?.({ type: "upload.progress", sent: p.sent, total: p.total }),
    });
    onProgress?.({ type: "snapshot.uploaded", snapshot });
  }
  if (options.wait === false) return snapshot;
  return waitForSnapshot(client, siteId, snapshot, options);
}

/** Waits until `snapshot` is completed (resolves) or failed (throws OperationFailedError). */
export async function waitForSnapshot(
  client: OperationsClient,
  siteId: string,
  snapshot: Snapshot,
  options: WaitOptions & { onProgress?: (event: OperationEvent) => void } = {},
): Promise<Snapshot> {
  const { signal, onProgress } = options;
  const final = await waitUntil(
    () => client.snapshots.get(siteId, snapshot.id, { signal }),
    (s) => FINAL.has(s.status),
    {
      ...options,
      first: snapshot,
      key: (s) => s.status,
      describe: (s) => `snapshot ${s.id} is ${s.status}`,
      onChange: (s) => onProgress?.({ type: "snapshot.status", snapshot: s }),
    },
  );
  if (final.status === "failed") {
    throw new OperationFailedError(`Snapshot ${final.id} failed${final.error ? `: ${final.error}` : ""}.`, final);
  }
  return final;
}
