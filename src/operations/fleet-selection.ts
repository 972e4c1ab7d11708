// The one rule for what a fleet operation found to work on (issue 47): a selection that holds no site is a
// failure unless the caller allows it, for every surface (the CLI's jobs and fleet commands, the GitHub Action's
// fleet commands). A scheduled job whose token belongs to another account, or whose status filter matches nothing,
// must not pass as done: its ping, metrics and exit code say so. What counts is the selection before its shard:
// a shard that holds none of a non-empty selection's sites is not empty (a 16-shard matrix over 10 sites has
// empty shards by design; the other shards hold the sites).

import { SiteOpsError } from "../errors.js";
import { formatShard } from "../shards.js";
import type { SelectedFleet } from "./sites.js";

/** Thrown by {@link checkSelection} when a selection holds no site and it was not allowed (`code`
 * EMPTY_SELECTION). The message says why there is none; each surface adds how to allow it. */
export class EmptySelectionError extends SiteOpsError {
  override readonly code = "EMPTY_SELECTION";
}

/** Why a selection holds no site, in words: "the account has no sites", "none of the account's 12 sites is
 * degraded". */
function whyNone(fleet: SelectedFleet): string {
  const listed = fleet.listed;
  if (listed === undefined || listed === 0) return "the account has no sites (a token of another account?)";
  const states = fleet.statuses?.length ? ` is ${fleet.statuses.join(" or ")}` : " is selected";
  return `none of the account's ${listed} site${listed === 1 ? "" : "s"}${states}`;
}

/** What {@link checkSelection} found: nothing to do (and why, a sentence for the log), or sites. */
export interface SelectionCheck {
  /** No site to work on: `notice` says why (an empty selection allowed, or a shard without sites). */
  empty: boolean;
  notice?: string;
}

/**
 * The rule: throws {@link EmptySelectionError} when the selection held no site before its shard and
 * `allowEmpty` is not set. Otherwise says whether there is anything to do: an allowed empty selection, or a
 * shard that holds none of a non-empty selection's sites, is `empty` with a `notice` to log.
 */
export function checkSelection(fleet: SelectedFleet, options: { allowEmpty?: boolean } = {}): SelectionCheck {
  if (fleet.selected === 0) {
    const why = `no site selected: ${whyNone(fleet)}`;
    if (!options.allowEmpty) throw new EmptySelectionError(why);
    return { empty: true, notice: `${why}; nothing to do (an empty selection is allowed)` };
  }
  if (fleet.sites.length === 0)
    return {
      empty: true,
      notice: `none of the ${fleet.selected} selected site${fleet.selected === 1 ? "" : "s"} is in shard ${fleet.shard ? formatShard(fleet.shard) : "?"}; nothing to do here`,
    };
  return { empty: false };
}
