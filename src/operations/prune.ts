// Retention workflow for one site: list every snapshot, decide with a policy (retention.ts), delete what it
// does not keep (unless dry run). One snapshot the service refuses to delete (422: a running pipeline uses
// it) or that is already gone does not stop the others.

import { apiPath } from "../internal/api-path.js";
import type { OperationsClient } from "./client.js";
import { NotFoundError, UnexpectedResponseError, UnprocessableEntityError } from "../errors.js";
import type { Snapshot } from "../resources/snapshots.js";
import { applyRetention, type RetentionDecision, type RetentionOptions, type RetentionPolicy } from "../retention.js";

export interface PruneOptions extends RetentionOptions {
  /** Decide only; delete nothing. */
  dryRun?: boolean;
  signal?: AbortSignal;
  /** Called after each deletion (or refusal). */
  onProgress?: (event: PruneEvent) => void;
}

export type PruneEvent =
  | { type: "snapshot.deleted"; snapshot: Snapshot }
  | { type: "snapshot.kept_by_service"; snapshot: Snapshot; error: UnprocessableEntityError };

export interface PruneResult {
  siteId: string;
  /** Every snapshot of the site with the policy's decision and reasons, newest first. */
  decisions: RetentionDecision<Snapshot>[];
  /** Deleted now (or already gone). Empty for a dry run. */
  deleted: Snapshot[];
  /** The policy would delete these, but the service refused (422, e.g. a running pipeline uses them). */
  refused: { snapshot: Snapshot; error: UnprocessableEntityError }[];
  /** Set when a deletion failed otherwise (connection, 5xx after retries, 401/403, abort): the deletions
   * stopped there; `deleted` holds what was done before. */
  error?: unknown;
}

/** Applies `policy` to the snapshots of `siteId`. A failure to list (or an invalid policy) is thrown; a
 * failed deletion ends the run with `error` set, keeping what was already deleted in the result. */
export async function pruneSnapshots(client: OperationsClient, siteId: string, policy: RetentionPolicy, options: PruneOptions = {}): Promise<PruneResult> {
  const { signal } = options;
  const path = apiPath`/sites/${siteId}/snapshots`;
  const snapshots = await client.snapshots.list(siteId, { per_page: 100 }, { signal }).toArray();
  // The policy orders snapshots by their creation time: deleting by a time that is not there would delete the wrong ones.
  for (const snapshot of snapshots) {
    const at: unknown = snapshot.created_at;
    if (typeof at !== "string" || Number.isNaN(Date.parse(at))) {
      throw new UnexpectedResponseError(
        `GET ${path}`,
        "created_at",
        `snapshot ${snapshot.id} has no "created_at" time (expected an ISO 8601 string); nothing was deleted`,
      );
    }
  }
  const decisions = applyRetention(snapshots, policy, options);
  const result: PruneResult = { siteId, decisions, deleted: [], refused: [] };
  if (options.dryRun) return result;
  for (const decision of decisions) {
    if (decision.keep) continue;
    try {
      await client.snapshots.delete(siteId, decision.snapshot.id, { signal });
    } catch (err) {
      if (err instanceof UnprocessableEntityError) {
        result.refused.push({ snapshot: decision.snapshot, error: err });
        options.onProgress?.({ type: "snapshot.kept_by_service", snapshot: decision.snapshot, error: err });
        continue;
      }
      if (!(err instanceof NotFoundError)) {
        result.error = err;
        return result;
      }
    }
    result.deleted.push(decision.snapshot);
    options.onProgress?.({ type: "snapshot.deleted", snapshot: decision.snapshot });
  }
  return result;
}
