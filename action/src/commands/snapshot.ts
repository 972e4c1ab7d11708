// `command: snapshot`: a snapshot of one site, a list or all of them (or one shard of all of them), `concurrency`
// at a time, through the core's fleet run (snapshotFleet: create, upload, wait per site). One site failing does
// not stop the others; the step fails at the end when any did. A re-run of the workflow run adopts what an
// earlier attempt of the step requested (request-keys.ts), instead of snapshotting those sites again.

import { type SiteOps } from "../../../src/index.js";
import { formatShard, type Shard, type SiteSnapshotResult, snapshotFleet } from "../../../src/fleet.js";
import { formatBytes, formatDuration } from "../../../common/format.js";
import { clean, safeJson } from "../../../common/sanitize.js";
import { errorLine } from "../format.js";
import type { SnapshotInputs } from "../inputs.js";
import { log } from "../log.js";
import { defaultDescription, snapshotTrigger } from "../run-info.js";
import { snapshotSummary, type SnapshotRow } from "../summary.js";
import { selectedSites } from "./fleet-sites.js";
import type { CommandContext, CommandOutcome } from "./outcome.js";
import { snapshotTracker } from "./progress.js";
import { snapshotRequestKey } from "./request-keys.js";

/** Failures listed by name in the failure line; the summary has all of them. */
const LISTED_FAILURES = 5;

export async function snapshotCommand(client: SiteOps, inputs: SnapshotInputs, { run, secrets, signal }: CommandContext): Promise<CommandOutcome> {
  const selected = await selectedSites(client, inputs, signal);
  const { sites, fleetSize, shard, shardName } = selected;
  const description = inputs.description ?? defaultDescription(run);
  const trigger = snapshotTrigger(run);
  if (selected.notice !== undefined) {
    log.notice(selected.notice);
    snapshotSummary([], run, selected.notice, shard);
    return { outputs: outputs([], "", shard) };
  }
  const single = sites.length === 1 && !shard;
  log.info(
    single
      ? `Snapshot of ${sites[0]!.name} (${sites[0]!.id})${inputs.uploadFile ? ` from ${inputs.uploadFile}` : ""}`
      : `Snapshots of ${sites.length} sites${shard ? ` (${shardName} of ${fleetSize})` : ""}, ${Math.min(inputs.concurrency, sites.length)} at a time`,
  );

  const trackers = new Map<string, ReturnType<typeof snapshotTracker>>();
  const results = await snapshotFleet(client, sites, {
    concurrency: inputs.concurrency,
    timeout: inputs.timeoutMs,
    wait: inputs.wait,
    description,
    trigger,
    upload: inputs.uploadFile,
    pollInterval: inputs.pollIntervalMs,
    requestKey: snapshotRequestKey(run),
    signal,
    onProgress: (event) => {
      if (event.type === "site.started") trackers.set(event.site.id, snapshotTracker(event.site.name));
      else if (event.type === "site.adopted")
        log.info(`${event.site.name}: snapshot ${event.snapshot.id} (${event.snapshot.status}) from an earlier attempt of this run, not taken again`);
      else if (event.type === "site.progress") trackers.get(event.site.id)?.onProgress(event.event);
      else if (event.type === "site.finished" && event.result.started) {
        const { site, snapshot, error, durationMs } = event.result;
        if (snapshot && (event.result.outcome === "completed" || event.result.outcome === "requested")) {
          const size = typeof snapshot.size_bytes === "number" ? `, ${formatBytes(snapshot.size_bytes)}` : "";
          log.info(`${site.name}: snapshot ${snapshot.id} ${snapshot.status}${size} in ${formatDuration(durationMs)}`);
        } else if (!single) {
          // With one site the step's failure line says it; with several each failure gets its own annotation.
          log.error(`${site.name}: ${errorLine(error, secrets)}`, { title: `Snapshot of ${site.name} failed` });
        }
      }
    },
  });
  const fatal = results.find((r) => r.outcome === "skipped")?.error;
  const rows = results.map(
    (r): SnapshotRow => ({ site: r.site, snapshot: r.snapshot ?? undefined, error: rowError(r, secrets), durationMs: r.durationMs, adopted: r.adopted }),
  );

  const failed = rows.filter((r) => r.error !== undefined);
  const status = aggregateStatus(rows);
  const done = rows.length - failed.length;
  const adopted = rows.filter((r) => r.adopted).length;
  const earlier = adopted ? `, ${adopted} adopted from an earlier attempt` : "";
  const headline = single
    ? failed.length
      ? `Snapshot of ${rows[0]!.site.name} failed.`
      : `Snapshot of ${rows[0]!.site.name}: ${status}${adopted ? " (adopted from an earlier attempt)" : ""}.`
    : `${done} of ${rows.length} snapshots ${inputs.wait ? "completed" : "requested"}${earlier}${failed.length ? `, ${failed.length} failed` : ""}.`;
  if (adopted && !single) log.info(`${adopted} of ${rows.length} sites adopted their snapshot from an earlier attempt of this run.`);
  snapshotSummary(rows, run, headline, shard);

  let failure: string | undefined;
  if (single && failed.length) failure = failed[0]!.error;
  else if (failed.length) {
    const named = failed.slice(0, LISTED_FAILURES).map((r) => r.site.name);
    const more = failed.length > LISTED_FAILURES ? ` and ${failed.length - LISTED_FAILURES} more` : "";
    failure = `${failed.length} of ${rows.length} snapshots${shard ? ` of ${shardName}` : ""} failed: ${named.join(", ")}${more}. ${fatal !== undefined ? errorLine(fatal, secrets) : failed[0]!.error}`;
  }
  return { outputs: outputs(rows, status, shard), failure };
}

/** The one status of every snapshot; `failed` when any failed; `mixed` otherwise. */
function aggregateStatus(rows: SnapshotRow[]): string {
  if (rows.some((r) => r.error !== undefined)) return "failed";
  const statuses = new Set(rows.map((r) => r.snapshot?.status ?? ""));
  return statuses.size === 1 ? clean([...statuses][0]) : "mixed";
}

function outputs(rows: SnapshotRow[], status: string, shard: Shard | undefined): Record<string, string> {
  const ids: Record<string, string> = {};
  for (const r of rows) if (r.snapshot) ids[r.site.id] = r.snapshot.id;
  return {
    "snapshot-id": rows.length === 1 ? clean(rows[0]!.snapshot?.id ?? "") : "",
    "snapshot-ids": safeJson(ids),
    adopted: String(rows.filter((r) => r.adopted).length),
    status,
    result: safeJson({
      command: "snapshot",
      status,
      ...(shard ? { shard: formatShard(shard) } : {}),
      adopted: rows.filter((r) => r.adopted).length,
      snapshots: rows.map((r) => ({
        site: { id: r.site.id, name: r.site.name, url: r.site.url },
        snapshot: r.snapshot ?? null,
        adopted: r.adopted,
        error: r.error ?? null,
        duration_ms: Math.round(r.durationMs),
      })),
    }),
  };
}

/** A site's error line in the log, the summary and the outputs; undefined when it went well. */
function rowError(result: SiteSnapshotResult, secrets: readonly string[]): string | undefined {
  switch (result.outcome) {
    case "completed":
    case "requested":
      return undefined;
    case "skipped":
      return `Skipped: ${errorLine(result.error, secrets)}`;
    case "not_started":
      return "Not started: the workflow run was cancelled.";
    default:
      return result.started ? errorLine(result.error, secrets) : "Not started: 'timeout-minutes' ran out before its turn.";
  }
}
