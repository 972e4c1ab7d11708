// `command: snapshot`: a snapshot of one site, a list or all of them, `concurrency` at a time, through the
// core's createSnapshot (create, upload, wait). One site failing does not stop the others; the step fails
// at the end when any did.

import * as core from "@actions/core";
import { AuthenticationError, PermissionDeniedError, type SiteOps, type Snapshot } from "../../../src/index.js";
import { errorLine, formatBytes, formatDuration } from "../format.js";
import type { SnapshotInputs } from "../inputs.js";
import { mapPool } from "../pool.js";
import { defaultDescription, snapshotTrigger } from "../run-info.js";
import { resolveSites } from "../sites.js";
import { snapshotSummary, type SnapshotRow } from "../summary.js";
import type { CommandContext, CommandOutcome } from "./outcome.js";

/** Upload progress is logged at most once per this share of the file. */
const PROGRESS_STEP = 0.1;
/** Failures listed by name in the failure line; the summary has all of them. */
const LISTED_FAILURES = 5;

export async function snapshotCommand(client: SiteOps, inputs: SnapshotInputs, { run, secrets, signal }: CommandContext): Promise<CommandOutcome> {
  const sites = await resolveSites(client, inputs.sites);
  const description = inputs.description ?? defaultDescription(run);
  const trigger = snapshotTrigger(run);
  if (sites.length === 0) {
    core.warning("The account has no sites: there is nothing to snapshot.");
    snapshotSummary([], run, "The account has no sites.");
    return { outputs: outputs([], "") };
  }
  const single = sites.length === 1;
  core.info(
    single
      ? `Snapshot of ${sites[0]!.name} (${sites[0]!.id})${inputs.uploadFile ? ` from ${inputs.uploadFile}` : ""}`
      : `Snapshots of ${sites.length} sites, ${Math.min(inputs.concurrency, sites.length)} at a time`,
  );

  const deadline = Date.now() + inputs.timeoutMs;
  // A credential failure will fail every site alike: the sites not started yet are skipped.
  let fatal: string | undefined;

  const rows = await mapPool(sites, inputs.concurrency, async (site): Promise<SnapshotRow> => {
    const started = Date.now();
    let last: Snapshot | undefined;
    if (fatal) return { site, snapshot: undefined, error: `Skipped: ${fatal}`, durationMs: 0 };
    if (signal.aborted) return { site, snapshot: undefined, error: "Not started: the workflow run was cancelled.", durationMs: 0 };
    const left = deadline - Date.now();
    if (inputs.wait && left <= 0) {
      return { site, snapshot: undefined, error: "Not started: 'timeout-minutes' ran out before its turn.", durationMs: 0 };
    }
    let nextProgress = 0;
    try {
      const snapshot = await client.operations.createSnapshot(site.id, {
        description,
        trigger,
        upload: inputs.uploadFile,
        wait: inputs.wait,
        waitTimeout: Math.max(1, left),
        pollInterval: inputs.pollIntervalMs,
        signal,
        onProgress: (event) => {
          switch (event.type) {
            case "snapshot.created":
              last = event.snapshot;
              core.info(`${site.name}: snapshot ${event.snapshot.id} created (${event.snapshot.status})`);
              break;
            case "upload.progress":
              if (event.total > 0 && event.sent / event.total >= nextProgress) {
                const share = event.sent / event.total;
                nextProgress = Math.min(1, Math.floor(share / PROGRESS_STEP) * PROGRESS_STEP + PROGRESS_STEP);
                core.info(`${site.name}: uploaded ${Math.floor(share * 100)}% (${formatBytes(event.sent)} of ${formatBytes(event.total)})`);
              }
              break;
            case "snapshot.uploaded":
              last = event.snapshot;
              core.info(`${site.name}: upload complete, snapshot ${event.snapshot.id} is ${event.snapshot.status}`);
              break;
            case "snapshot.status":
              last = event.snapshot;
              // The final status gets its own line below, with size and duration.
              if (event.snapshot.status === "requested" || event.snapshot.status === "in_progress") core.info(`${site.name}: snapshot ${event.snapshot.id} is ${event.snapshot.status}`);
              break;
          }
        },
      });
      const durationMs = Date.now() - started;
      const size = snapshot.size_bytes !== null ? `, ${formatBytes(snapshot.size_bytes)}` : "";
      core.info(`${site.name}: snapshot ${snapshot.id} ${snapshot.status}${size} in ${formatDuration(durationMs)}`);
      return { site, snapshot, error: undefined, durationMs };
    } catch (err) {
      const line = errorLine(err, secrets);
      if (err instanceof AuthenticationError || err instanceof PermissionDeniedError) fatal ??= line;
      // With one site the step's failure line says it; with several each failure gets its own annotation.
      if (!single) core.error(`${site.name}: ${line}`, { title: `Snapshot of ${site.name} failed` });
      const resource = (err as { resource?: unknown }).resource;
      return { site, snapshot: isSnapshot(resource) ? resource : last, error: line, durationMs: Date.now() - started };
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
  snapshotSummary(rows, run, headline);

  let failure: string | undefined;
  if (single && failed.length) failure = failed[0]!.error;
  else if (failed.length) {
    const named = failed.slice(0, LISTED_FAILURES).map((r) => r.site.name);
    const more = failed.length > LISTED_FAILURES ? ` and ${failed.length - LISTED_FAILURES} more` : "";
    failure = `${failed.length} of ${rows.length} snapshots failed: ${named.join(", ")}${more}. ${fatal ?? failed[0]!.error}`;
  }
  return { outputs: outputs(rows, status), failure };
}

/** The one status of every snapshot; `failed` when any failed; `mixed` otherwise. */
function aggregateStatus(rows: SnapshotRow[]): string {
  if (rows.some((r) => r.error !== undefined)) return "failed";
  const statuses = new Set(rows.map((r) => r.snapshot?.status ?? ""));
  return statuses.size === 1 ? [...statuses][0]! : "mixed";
}

function outputs(rows: SnapshotRow[], status: string): Record<string, string> {
  const ids: Record<string, string> = {};
  for (const r of rows) if (r.snapshot) ids[r.site.id] = r.snapshot.id;
  return {
    "snapshot-id": rows.length === 1 ? (rows[0]!.snapshot?.id ?? "") : "",
    "snapshot-ids": JSON.stringify(ids),
    status,
    result: JSON.stringify({
      command: "snapshot",
      status,
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
