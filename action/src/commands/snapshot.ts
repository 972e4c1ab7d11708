// `command: snapshot`: a snapshot of one site, a list or all of them (or one shard of all of them), `concurrency`
// at a time, through the core's createSnapshot (create, upload, wait). One site failing does not stop the
// others; the step fails at the end when any did.

import { AuthenticationError, formatShard, inShard, mapPool, PermissionDeniedError, type Shard, type SiteOps, type Snapshot } from "../../../src/index.js";
import { formatBytes, formatDuration } from "../../../src/format.js";
import { clean, safeJson } from "../../../src/sanitize.js";
import { errorLine } from "../format.js";
import type { SnapshotInputs } from "../inputs.js";
import { log } from "../log.js";
import { defaultDescription, snapshotTrigger } from "../run-info.js";
import { resolveSites } from "../sites.js";
import { snapshotSummary, type SnapshotRow } from "../summary.js";
import type { CommandContext, CommandOutcome } from "./outcome.js";
import { snapshotTracker } from "./progress.js";

/** Failures listed by name in the failure line; the summary has all of them. */
const LISTED_FAILURES = 5;

export async function snapshotCommand(client: SiteOps, inputs: SnapshotInputs, { run, secrets, signal }: CommandContext): Promise<CommandOutcome> {
  const fleet = await resolveSites(client, inputs.sites);
  const shard = inputs.shard;
  const sites = shard ? fleet.filter((s) => inShard(s.id, shard)) : fleet;
  const shardName = shard ? `shard ${formatShard(shard)}` : undefined;
  const description = inputs.description ?? defaultDescription(run);
  const trigger = snapshotTrigger(run);
  if (sites.length === 0) {
    const why = fleet.length === 0 ? "The account has no sites." : `No site of the ${fleet.length} is in ${shardName}.`;
    log.warning(`${why} There is nothing to snapshot.`);
    snapshotSummary([], run, why, shard);
    return { outputs: outputs([], "", shard) };
  }
  const single = sites.length === 1 && !shard;
  log.info(
    single
      ? `Snapshot of ${sites[0]!.name} (${sites[0]!.id})${inputs.uploadFile ? ` from ${inputs.uploadFile}` : ""}`
      : `Snapshots of ${sites.length} sites${shard ? ` (${shardName} of ${fleet.length})` : ""}, ${Math.min(inputs.concurrency, sites.length)} at a time`,
  );

  const deadline = Date.now() + inputs.timeoutMs;
  // A credential failure will fail every site alike: the sites not started yet are skipped.
  let fatal: string | undefined;

  const rows = await mapPool(sites, inputs.concurrency, async (site): Promise<SnapshotRow> => {
    const started = Date.now();
    if (fatal) return { site, snapshot: undefined, error: `Skipped: ${fatal}`, durationMs: 0 };
    if (signal.aborted) return { site, snapshot: undefined, error: "Not started: the workflow run was cancelled.", durationMs: 0 };
    const left = deadline - Date.now();
    if (inputs.wait && left <= 0) {
      return { site, snapshot: undefined, error: "Not started: 'timeout-minutes' ran out before its turn.", durationMs: 0 };
    }
    const tracker = snapshotTracker(site.name);
    try {
      const snapshot = await client.operations.createSnapshot(site.id, {
        description,
        trigger,
        upload: inputs.uploadFile,
        wait: inputs.wait,
        waitTimeout: Math.max(1, left),
        pollInterval: inputs.pollIntervalMs,
        signal,
        onProgress: tracker.onProgress,
      });
      const durationMs = Date.now() - started;
      const size = snapshot.size_bytes !== null ? `, ${formatBytes(snapshot.size_bytes)}` : "";
      log.info(`${site.name}: snapshot ${snapshot.id} ${snapshot.status}${size} in ${formatDuration(durationMs)}`);
      return { site, snapshot, error: undefined, durationMs };
    } catch (err) {
      const line = errorLine(err, secrets);
      if (err instanceof AuthenticationError || err instanceof PermissionDeniedError) fatal ??= line;
      // With one site the step's failure line says it; with several each failure gets its own annotation.
      if (!single) log.error(`${site.name}: ${line}`, { title: `Snapshot of ${site.name} failed` });
      const resource = (err as { resource?: unknown }).resource;
      return { site, snapshot: isSnapshot(resource) ? resource : tracker.latest(), error: line, durationMs: Date.now() - started };
    }
  });

  const failed = rows.filter((r) => r.error !== undefined);
  const status = aggregateStatus(rows);
  const done = rows.length - failed.length;
  const headline = single
    ? failed.length
      ? `Snapshot of ${rows[0]!.site.name} failed.`
      : `Snapshot of ${rows[0]!.site.name}: ${status}.`
    : `${done} of ${rows.length} snapshots ${inputs.wait ? "completed" : "requested"}${failed.length ? `, ${failed.length} failed` : ""}.`;
  snapshotSummary(rows, run, headline, shard);

  let failure: string | undefined;
  if (single && failed.length) failure = failed[0]!.error;
  else if (failed.length) {
    const named = failed.slice(0, LISTED_FAILURES).map((r) => r.site.name);
    const more = failed.length > LISTED_FAILURES ? ` and ${failed.length - LISTED_FAILURES} more` : "";
    failure = `${failed.length} of ${rows.length} snapshots${shard ? ` of ${shardName}` : ""} failed: ${named.join(", ")}${more}. ${fatal ?? failed[0]!.error}`;
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
    status,
    result: safeJson({
      command: "snapshot",
      status,
      ...(shard ? { shard: formatShard(shard) } : {}),
      snapshots: rows.map((r) => ({
        site: { id: r.site.id, name: r.site.name, url: r.site.url },
        snapshot: r.snapshot ?? null,
        error: r.error ?? null,
        duration_ms: Math.round(r.durationMs),
      })),
    }),
  };
}

function isSnapshot(value: unknown): value is Snapshot {
  return typeof value === "object" && value !== null && typeof (value as { id?: unknown }).id === "string" && "site_id" in value;
}
