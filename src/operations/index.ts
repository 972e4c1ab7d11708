// `so.operations`: the multi-step workflows, bound to a client.

import type { OperationsClient } from "./client.js";
import type { UpgradePipeline, UpgradePipelineCreateParams } from "../resources/upgrade-pipelines.js";
import type { Snapshot } from "../resources/snapshots.js";
import type { RetentionPolicy } from "../retention.js";
import { pruneSnapshots, type PruneOptions, type PruneResult } from "./prune.js";
import { createSnapshot, type CreateSnapshotOptions } from "./snapshot.js";
import { activeUpgrade, approveUpgrade, followUpgrade, openUpgrade, type UpgradeWaitOptions } from "./upgrade.js";

export class Operations {
  readonly #client: OperationsClient;
  constructor(client: OperationsClient) {
    this.#client = client;
  }
  /** Create a snapshot, upload its data when given, wait until completed (throws when it fails). */
  createSnapshot(siteId: string, options?: CreateSnapshotOptions): Promise<Snapshot> {
    return createSnapshot(this.#client, siteId, options);
  }
  /** Open an upgrade pipeline, wait until awaiting_approval or the end. */
  openUpgrade(siteId: string, params: UpgradePipelineCreateParams, options?: UpgradeWaitOptions): Promise<UpgradePipeline> {
    return openUpgrade(this.#client, siteId, params, options);
  }
  /** The site's pipeline that has not ended yet, if any (one per site). */
  activeUpgrade(siteId: string, options?: { signal?: AbortSignal }): Promise<UpgradePipeline | undefined> {
    return activeUpgrade(this.#client, siteId, options);
  }
  /** Follow a pipeline (through an approval given by someone else) until it ends. */
  followUpgrade(pipeline: UpgradePipeline, options?: UpgradeWaitOptions): Promise<UpgradePipeline> {
    return followUpgrade(this.#client, pipeline, options);
  }
  /** Apply a retention policy to a site's snapshots: delete what it does not keep (unless dryRun). */
  pruneSnapshots(siteId: string, policy: RetentionPolicy, options?: PruneOptions): Promise<PruneResult> {
    return pruneSnapshots(this.#client, siteId, policy, options);
  }
  /** Approve a pipeline, wait for the end. */
  approveUpgrade(siteId: string, pipelineId: string, options?: UpgradeWaitOptions & { comment?: string }): Promise<UpgradePipeline> {
    return approveUpgrade(this.#client, siteId, pipelineId, options);
  }
}
