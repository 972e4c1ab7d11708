// What the workflows need of a client (SiteOps has it): its resources, not the client module itself.

import type { Sites } from "../resources/sites.js";
import type { Snapshots } from "../resources/snapshots.js";
import type { UpgradePipelines } from "../resources/upgrade-pipelines.js";

export interface OperationsClient {
  readonly sites: Sites;
  readonly snapshots: Snapshots;
  readonly upgradePipelines: UpgradePipelines;
}
