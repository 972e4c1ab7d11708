// The sites a fleet command (snapshot, vulnerabilities, rollout) runs on: those its selection inputs name, listed
// once, or those of its shard file, less the sites of other shards; with the rule of an empty selection applied
// (the core's checkSelection: a failure unless 'allow-empty', as the CLI's --allow-empty).

import type { Site, SiteOps } from "../../../src/index.js";
import { checkSelection, formatShard, type SelectedFleet, selectFleet, type Shard } from "../../../src/fleet.js";
import type { FleetSelection } from "../input-selection.js";

export interface SelectedSites {
  sites: Site[];
  /** How many sites the selection holds before the shard is taken (all of a shard file's fleet). */
  fleetSize: number;
  shard: Shard | undefined;
  /** "shard 3/16"; undefined without a shard. */
  shardName: string | undefined;
  /** Nothing to do, and why (an empty selection allowed, or a shard without sites), as a sentence for the log. */
  notice: string | undefined;
}

/** The selected sites; EmptySelectionError (the step fails) when the selection holds none and 'allow-empty' is not
 * set. */
export async function selectedSites(client: SiteOps, selection: FleetSelection, signal: AbortSignal): Promise<SelectedSites> {
  // A shard file (`sites-file`) holds the shard's sites already: no listing of the fleet.
  const file = selection.fromFile;
  const fleet: SelectedFleet = file
    ? { sites: file.sites, selected: file.fleetSize, listed: file.fleetSize, shard: file.shard }
    : await selectFleet(client, { ...selection.sites, ...(selection.shard ? { shard: selection.shard } : {}) }, { signal });
  const { notice } = checkSelection(fleet, { allowEmpty: selection.allowEmpty });
  const shard = selection.shard;
  return {
    sites: fleet.sites,
    fleetSize: fleet.selected,
    shard,
    shardName: shard ? `shard ${formatShard(shard)}` : undefined,
    notice: notice === undefined ? undefined : sentence(notice),
  };
}

function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
