// The sites a fleet command (snapshot, vulnerabilities) runs on: those its selection inputs name, listed once, or
// those of its shard file, less the sites of other shards.

import type { Site, SiteOps } from "../../../src/index.js";
import { formatShard, inShard, selectSites, type Shard } from "../../../src/fleet.js";
import type { FleetSelection } from "../input-selection.js";

export interface SelectedSites {
  sites: Site[];
  /** How many sites the selection holds before the shard is taken (all of a shard file's fleet). */
  fleetSize: number;
  shard: Shard | undefined;
  /** "shard 3/16"; undefined without a shard. */
  shardName: string | undefined;
}

export async function selectedSites(client: SiteOps, selection: FleetSelection, signal: AbortSignal): Promise<SelectedSites> {
  // A shard file (`sites-file`) holds the shard's sites already: no listing of the fleet.
  const fleet = selection.fromFile ? selection.fromFile.sites : await selectSites(client, selection.sites, { signal });
  const shard = selection.shard;
  return {
    sites: shard ? fleet.filter((s) => inShard(s.id, shard)) : fleet,
    fleetSize: selection.fromFile?.fleetSize ?? fleet.length,
    shard,
    shardName: shard ? `shard ${formatShard(shard)}` : undefined,
  };
}

/** Why a selection has no site: the account has none, or its shard none of them. */
export function noSitesReason({ fleetSize, shardName }: SelectedSites): string {
  return fleetSize === 0 ? "The account has no sites." : `No site of the ${fleetSize} is in ${shardName}.`;
}
