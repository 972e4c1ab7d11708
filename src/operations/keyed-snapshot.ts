// A site's snapshot request named the same way on every run of one job (the GitHub Action: by its workflow run),
// so that the service itself remembers what an earlier run asked for: a rerun's request with the same key and
// body is answered with the earlier answer (§2 Idempotency), and the site adopts that snapshot unless it failed
// or was deleted, when the next generation's key asks again. Nothing is kept on the machine that runs the job.

import { withResponse } from "../api-promise.js";
import { NotFoundError, SiteOpsError } from "../errors.js";
import type { Site } from "../resources/sites.js";
import type { Snapshot, SnapshotCreateParams } from "../resources/snapshots.js";
import type { OperationsClient } from "./client.js";

/** The header a service sets on an answer it replays for a repeated Idempotency-Key (Stripe's name). */
export const REPLAYED_HEADER = "idempotent-replayed";

/** Generations tried for one site before giving up: each run makes at most one new generation per site, so
 * this bounds a service that calls every answer a replay, not a real job. */
const MAX_GENERATIONS = 100;

/** What names a request in {@link FleetSnapshotOptions.requestKey}. */
export interface SnapshotRequestName {
  site: Site;
  /** The create request's body, as sent: a key is only replayed for the same body. */
  params: SnapshotCreateParams;
  /** 1 for a site's first request in the job; one more for each earlier snapshot that failed or was deleted. */
  generation: number;
}

export interface KeyedRequest {
  snapshot: Snapshot;
  idempotencyKey: string;
  /** The service replayed an earlier request's answer: `snapshot` (as it is now) is that request's. */
  replayed: boolean;
}

/** Sends the site's create request under its first generation's key, then the next while the answer is a replay
 * of a snapshot that failed or is gone. A refusal (a replayed one too) throws as for any request. */
export async function keyedSnapshotRequest(
  client: OperationsClient,
  site: Site,
  params: SnapshotCreateParams,
  requestKey: (name: SnapshotRequestName) => string,
  signal: AbortSignal | undefined,
): Promise<KeyedRequest> {
  for (let generation = 1; generation <= MAX_GENERATIONS; generation++) {
    const idempotencyKey = requestKey({ site, params, generation });
    const { data, headers } = await withResponse(client.snapshots.create(site.id, params, { signal, idempotencyKey }));
    if (headers[REPLAYED_HEADER] !== "true") return { snapshot: data, idempotencyKey, replayed: false };
    // The replayed answer is the snapshot as it was then: what matters is how it is now.
    const now = await client.snapshots.get(site.id, data.id, { signal }).catch((err: unknown) => {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    });
    if (now && now.status !== "failed") return { snapshot: now, idempotencyKey, replayed: true };
  }
  throw new SiteOpsError(`the service answered ${MAX_GENERATIONS} snapshot requests of site ${site.id} with earlier answers`);
}
