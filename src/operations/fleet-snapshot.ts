// A snapshot of many sites at once, the scheduled job of the CLI and the GitHub Action: `concurrency` sites at a
// time, each through createSnapshot (create, upload, wait), under one deadline for the whole run, stopping after a
// credential failure (every other site would fail alike) or an abort, with a per-site outcome and progress events.
// A rerun of the same job adopts what an earlier run requested (`adopt`, kept by the caller through `onRequest`):
// it waits for those snapshots, or skips the site when its snapshot is completed, instead of making another. A job
// that can name its requests the same way on every run (`requestKey`) has the service remember them instead.

import { APIError, APIUserAbortError, AuthenticationError, OperationFailedError, PermissionDeniedError, SiteOpsError, WaitTimeoutError } from "../errors.js";
import { builtin } from "../internal/builtins.js";
import { mapPool } from "../pool.js";
import type { Site } from "../resources/sites.js";
import type { Snapshot, SnapshotCreateParams } from "../resources/snapshots.js";
import type { UploadOptions, UploadSource } from "../uploads.js";
import type { OperationsClient } from "./client.js";
import type { OperationEvent } from "./events.js";
import { keyedSnapshotRequest, type SnapshotRequestName } from "./keyed-snapshot.js";
import { createSnapshot, snapshotParams, waitForSnapshot } from "./snapshot.js";

/** Sites snapshotted at a time unless `concurrency` says otherwise. */
export const DEFAULT_FLEET_CONCURRENCY = 4;

/** How one site's snapshot went in a {@link snapshotFleet} run. */
export type SiteSnapshotOutcome =
  /** Waited for, and completed. */
  | "completed"
  /** Created (and uploaded) without waiting (`wait: false`). */
  | "requested"
  /** The request, the upload or the snapshot itself failed: see `error`. */
  | "failed"
  /** The run's deadline passed while waiting for it, or before its turn (`started` false). */
  | "timed_out"
  /** The signal aborted the run while this site's snapshot was under way; the service carries on with it. */
  | "interrupted"
  /** Not started: an earlier site's credentials were refused (`error` is that failure). */
  | "skipped"
  /** Not started: the signal aborted the run before its turn. */
  | "not_started";

/** One site's result in a {@link snapshotFleet} run. */
export interface SiteSnapshotResult {
  site: Site;
  outcome: SiteSnapshotOutcome;
  /** Whether its snapshot was requested at all (or adopted). */
  started: boolean;
  /** Its snapshot is the one an earlier run of the job requested (`adopt`): waited for, or already done. */
  adopted: boolean;
  /** The snapshot as last seen: the final one, or the latest seen before a failure; null when none was created. */
  snapshot: Snapshot | null;
  /** What failed (`failed`, `timed_out` while waiting, `interrupted`, and for `skipped` the credential failure
   * that stopped the run); null otherwise. */
  error: unknown;
  /** The request id of an API failure, for the service's support. */
  requestId: string | null;
  /** Time spent on this site, 0 when it was not started. */
  durationMs: number;
}

/** Progress of a {@link snapshotFleet} run: a site starting, an event of its snapshot, its result. */
export type FleetSnapshotEvent =
  | { type: "site.started"; site: Site }
  /** The site's snapshot is the one an earlier run requested, as it is now; waited for next unless final. */
  | { type: "site.adopted"; site: Site; snapshot: Snapshot }
  | { type: "site.progress"; site: Site; event: OperationEvent }
  | { type: "site.finished"; result: SiteSnapshotResult };

/** A create request of a run, what a rerun of the same job needs to adopt its snapshot rather than make another. */
export interface SnapshotRequestRecord {
  siteId: string;
  /** The request's Idempotency-Key: sent again with `params` when the run never saw the answer, it gets the
   * snapshot the request created (within the service's idempotency window) instead of a second one. */
  idempotencyKey: string;
  /** The request's body as sent (the service replays a key only for the same body). */
  params: SnapshotCreateParams;
  /** The snapshot it created; null until the answer arrived. */
  snapshotId: string | null;
}

/** Options of {@link snapshotFleet}. */
export interface FleetSnapshotOptions {
  /** Sites at a time; default {@link DEFAULT_FLEET_CONCURRENCY}. */
  concurrency?: number;
  /** Time for the whole run, in milliseconds: a site's wait ends when it runs out, and the sites whose turn
   * comes after it are not started (`timed_out`). Only used while waiting; default none. */
  timeout?: number;
  /** Wait until each snapshot is completed or failed. Default true. */
  wait?: boolean;
  description?: string;
  trigger?: SnapshotCreateParams["trigger"];
  /** The data of the snapshot, uploaded after creating it: one site only (the same data cannot be several
   * sites' snapshot). */
  upload?: UploadSource;
  uploadOptions?: Omit<UploadOptions, "signal" | "onProgress">;
  /** Time between two polls while waiting, in milliseconds; default the waiter's. */
  pollInterval?: number;
  /** What an earlier run of the same job requested, the latest request per site: a site whose snapshot from it
   * is completed is not snapshotted again, one still under way is waited for (`adopted` in the result); a
   * request whose answer was never seen is sent again with its key. A snapshot that failed or was deleted, or
   * an unfinished upload (its data cannot be sent again), is replaced by a new one. A run with `upload` adopts
   * nothing: its data is what the snapshot is for. */
  adopt?: readonly SnapshotRequestRecord[];
  /** Told of each create request before it is sent, and again once its snapshot is known: what the caller
   * keeps for a rerun (`adopt`). When it throws, the site fails (before the request, no request is sent). */
  onRequest?: (record: SnapshotRequestRecord) => void;
  /** The Idempotency-Key of a site's create request, the same on every run of one job (e.g. made from a CI
   * run's id and the site), instead of a random one. A rerun's request is then answered with the snapshot an
   * earlier run's request created (within the service's idempotency window) and the site adopts it (`adopted`,
   * told by the service's `Idempotent-Replayed: true`), unless it failed or was deleted: then the key of the
   * next `generation` asks again. Sites in `adopt` keep their record; a run with `upload` uses random keys. */
  requestKey?: (name: SnapshotRequestName) => string;
  /** Aborts the run: the snapshots under way end `interrupted`, the others are not started. */
  signal?: AbortSignal;
  onProgress?: (event: FleetSnapshotEvent) => void;
}

/**
 * Snapshots `sites`, `concurrency` at a time; resolves with one result per site, in the order of `sites`, and
 * never rejects for one site's failure (each result says how it went). After a credential failure
 * (AuthenticationError, PermissionDeniedError) the sites not yet started are `skipped`.
 */
export async function snapshotFleet(client: OperationsClient, sites: readonly Site[], options: FleetSnapshotOptions = {}): Promise<SiteSnapshotResult[]> {
  if (options.upload !== undefined && sites.length !== 1) {
    throw new SiteOpsError(`an upload is the data of one site's snapshot, not of ${sites.length}`);
  }
  const { signal, onProgress } = options;
  const wait = options.wait ?? true;
  const deadline = options.timeout !== undefined ? Date.now() + options.timeout : undefined;
  const earlier = new Map(options.upload === undefined ? (options.adopt ?? []).map((r) => [r.siteId, r]) : []);
  let fatal: unknown;
  let stopped = false;
  const finish = (result: SiteSnapshotResult): SiteSnapshotResult => {
    onProgress?.({ type: "site.finished", result });
    return result;
  };

  return mapPool(sites, options.concurrency ?? DEFAULT_FLEET_CONCURRENCY, async (site): Promise<SiteSnapshotResult> => {
    const result: SiteSnapshotResult = {
      site,
      outcome: "not_started",
      started: false,
      adopted: false,
      snapshot: null,
      error: null,
      requestId: null,
      durationMs: 0,
    };
    if (stopped) return finish({ ...result, outcome: "skipped", error: fatal });
    if (signal?.aborted) return finish(result);
    const left = deadline === undefined ? undefined : deadline - Date.now();
    if (wait && left !== undefined && left <= 0) return finish({ ...result, outcome: "timed_out" });
    onProgress?.({ type: "site.started", site });
    const begin = Date.now();
    result.started = true;
    const waitTimeout = left === undefined ? undefined : Math.max(1, left);
    const siteProgress = (event: OperationEvent) => {
      if ("snapshot" in event) result.snapshot = event.snapshot;
      onProgress?.({ type: "site.progress", site, event });
    };
    try {
      const prior = earlier.get(site.id);
      let snapshot = prior && (await adoptable(client, prior, signal));
      if (prior && snapshot) {
        result.adopted = true;
        result.snapshot = snapshot;
        if (prior.snapshotId !== snapshot.id) options.onRequest?.({ ...prior, snapshotId: snapshot.id });
        onProgress?.({ type: "site.adopted", site, snapshot });
        if (wait && snapshot.status !== "completed") {
          snapshot = await waitForSnapshot(client, site.id, snapshot, { waitTimeout, pollInterval: options.pollInterval, signal, onProgress: siteProgress });
        }
      } else if (options.requestKey && options.upload === undefined) {
        const keyed = await keyedSnapshotRequest(client, site, snapshotParams(options), options.requestKey, signal);
        snapshot = keyed.snapshot;
        result.snapshot = snapshot;
        options.onRequest?.({ siteId: site.id, idempotencyKey: keyed.idempotencyKey, params: snapshotParams(options), snapshotId: snapshot.id });
        if (keyed.replayed) {
          result.adopted = true;
          onProgress?.({ type: "site.adopted", site, snapshot });
        } else siteProgress({ type: "snapshot.created", snapshot });
        if (wait && snapshot.status !== "completed") {
          snapshot = await waitForSnapshot(client, site.id, snapshot, { waitTimeout, pollInterval: options.pollInterval, signal, onProgress: siteProgress });
        }
      } else {
        const record: SnapshotRequestRecord = {
          siteId: site.id,
          idempotencyKey: `siteops-${builtin("node:crypto").randomUUID()}`,
          params: snapshotParams(options),
          snapshotId: null,
        };
        options.onRequest?.(record);
        snapshot = await createSnapshot(client, site.id, {
          description: options.description,
          trigger: options.trigger,
          upload: options.upload,
          uploadOptions: options.uploadOptions,
          wait,
          idempotencyKey: record.idempotencyKey,
          waitTimeout,
          pollInterval: options.pollInterval,
          signal,
          onProgress: (event) => {
            if (event.type === "snapshot.created") options.onRequest?.({ ...record, snapshotId: event.snapshot.id });
            siteProgress(event);
          },
        });
      }
      result.snapshot = snapshot;
      result.outcome = snapshot.status === "completed" ? "completed" : "requested";
    } catch (err) {
      if (err instanceof OperationFailedError) result.snapshot = err.resource as Snapshot;
      result.error = err;
      if (err instanceof APIError) result.requestId = err.requestId ?? null;
      result.outcome = err instanceof APIUserAbortError && signal?.aborted ? "interrupted" : err instanceof WaitTimeoutError ? "timed_out" : "failed";
      if (err instanceof AuthenticationError || err instanceof PermissionDeniedError) {
        if (!stopped) fatal = err;
        stopped = true;
      }
    }
    result.durationMs = Date.now() - begin;
    return finish(result);
  });
}

/** The snapshot of an earlier request that a rerun takes as its own, as it is now; undefined when a new one is
 * needed. A repeated request that the service refuses (its first answer was a refusal, kept with the key) needs
 * a new request too; credentials refused, a connection lost or an abort throw as for any request. */
async function adoptable(client: OperationsClient, prior: SnapshotRequestRecord, signal: AbortSignal | undefined): Promise<Snapshot | undefined> {
  // An upload snapshot still waiting for its data never completes without it: only a completed one is adopted.
  const upload = prior.params.upload === true;
  let snapshot: Snapshot;
  try {
    if (prior.snapshotId !== null) snapshot = await client.snapshots.get(prior.siteId, prior.snapshotId, { signal });
    else if (upload) return undefined;
    else snapshot = await client.snapshots.create(prior.siteId, prior.params, { signal, idempotencyKey: prior.idempotencyKey });
  } catch (err) {
    const refused =
      err instanceof APIError && err.status >= 400 && err.status < 500 && !(err instanceof AuthenticationError || err instanceof PermissionDeniedError);
    if (refused && err.status !== 429) return undefined;
    throw err;
  }
  if (snapshot.status === "failed" || (upload && snapshot.status !== "completed")) return undefined;
  return snapshot;
}
