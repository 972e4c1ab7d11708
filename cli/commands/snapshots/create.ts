// `siteops snapshot create`: the scheduled job. A snapshot of one site (optionally with data from a file or
// stdin, streamed with the core's resumable upload and digest) or of many sites, N at a time, each through
// the core's createSnapshot (create, upload, wait). One site failing does not stop the others; the exit code
// says how the run went (0, 1, 3, 4, 130), --report writes every site's outcome for monitoring. A rerun of the
// same job within --window adopts what the earlier run requested (cli/jobs/run-state.ts keeps it) instead of doubling it.

import { hostname } from "node:os";
import { flagBool, flagInt, flagString } from "../../args.js";
import { type Site, type UploadSource } from "../../../src/index.js";
import { type FleetSnapshotEvent, type SiteSnapshotResult, snapshotFleet } from "../../../src/fleet.js";
import type { Context } from "../../context.js";
import { parseDuration } from "../../duration.js";
import { UsageError } from "../../exit-codes.js";
import { errorLine, formatBytes, formatDuration } from "../../output/format.js";
import { JOB_FLAGS } from "../../jobs/flags.js";
import { errorInfo } from "../../jobs/report.js";
import { runJob } from "../../jobs/run-job.js";
import { openJobState } from "../../jobs/run-state.js";
import { createProgress, ProgressThrottle, RateMeter, type Progress } from "../../output/progress.js";
import { pollIntervalFrom } from "../../poll-interval.js";
import { clean } from "../../../common/sanitize.js";
import { statusColor } from "../../output/style.js";
import { ALLOW_EMPTY_FLAG, SELECTION_FLAGS, selectionOf } from "../../sites.js";
import type { LeafSpec } from "../../spec.js";
import { checkUpload, stdinSource } from "./create-upload.js";
import { counts, printSnapshotRecords, runExitCode, type SnapshotRecord } from "./create-records.js";

/** Sites snapshotted at a time unless --concurrency says otherwise (the GitHub Action's default too). */
export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 64;
/** How long a run waits for its snapshots unless --timeout says otherwise. */
export const DEFAULT_TIMEOUT = "30m";
/** How long a rerun of the same job adopts what an earlier run did unless --window says otherwise: less than a
 * day, so that tomorrow's run snapshots again even when it starts a little earlier. */
const DEFAULT_WINDOW = "20h";
const CONTENT_TYPES = ["application/octet-stream", "application/gzip", "application/zip", "application/x-tar"] as const;

export const createLeaf: LeafSpec = {
  name: "create",
  summary: "snapshot one site (optionally with uploaded data) or the fleet: the scheduled job",
  description:
    "Creates a snapshot of each site, --concurrency at a time, and waits until each is completed (unless\n" +
    "--no-wait). With --upload the data of one site's snapshot is read from FILE, or from stdin with `-`\n" +
    "(e.g. mysqldump ... | gzip | siteops snapshot create --site Blog --upload - --content-type application/gzip).\n" +
    "Exit codes: 0 all done, 1 some failed (the others still ran), 2 usage, 3 authentication, 4 timed out,\n" +
    "6 no site selected (--allow-empty: 0), 75 another run holds the lock, 130 interrupted (snapshots already\n" +
    "requested carry on in the service).",
  flags: [
    ...SELECTION_FLAGS,
    ALLOW_EMPTY_FLAG,
    { name: "upload", type: "string", value: "FILE|-", description: "send this file (or stdin: -) as the snapshot's data; one site only" },
    {
      name: "content-type",
      type: "string",
      value: "TYPE",
      choices: CONTENT_TYPES,
      description: "type of the uploaded data (default from the file extension; stdin: application/octet-stream)",
    },
    { name: "description", type: "string", value: "TEXT", description: `snapshot description (default "siteops CLI on <hostname>")` },
    {
      name: "trigger",
      type: "string",
      value: "TRIGGER",
      choices: ["manual", "scheduled"],
      description: "recorded trigger (default manual; use scheduled from cron)",
    },
    { name: "concurrency", short: "c", type: "string", value: "N", description: `sites at a time, 1 to ${MAX_CONCURRENCY} (default ${DEFAULT_CONCURRENCY})` },
    { name: "wait", type: "boolean", negatable: true, description: "wait until each snapshot is completed (default; --no-wait returns once requested)" },
    {
      name: "timeout",
      type: "string",
      value: "DURATION",
      description: `give up waiting after this long, for the whole run (default ${DEFAULT_TIMEOUT}; e.g. 90s, 45m, 2h)`,
    },
    {
      name: "window",
      type: "string",
      value: "DURATION",
      description: `a rerun of the same job (same account and sites) within this long adopts what the earlier run did: waits for its snapshots, skips sites it completed (default ${DEFAULT_WINDOW}; 0: off)`,
    },
    ...JOB_FLAGS,
  ],
  jsonFields: ["site", "outcome", "adopted", "snapshot", "error", "duration_ms"] satisfies (keyof SnapshotRecord)[],
  examples: [
    "siteops snapshot create --site Blog",
    "siteops snapshot create --all --status healthy --concurrency 8 --trigger scheduled --quiet --report /var/log/siteops/nightly.json",
    "mysqldump shop | gzip | siteops snapshot create --site Shop --upload - --content-type application/gzip",
  ],
  async run(ctx, parsed) {
    const selection = selectionOf(parsed);
    const upload = flagString(parsed, "upload");
    if (upload !== undefined) checkUpload(ctx, upload, selection.all || selection.refs.length !== 1);
    const concurrency = flagInt(parsed, "concurrency", 1, MAX_CONCURRENCY) ?? DEFAULT_CONCURRENCY;
    const wait = flagBool(parsed, "wait") ?? true;
    const timeoutMs = parseDuration(flagString(parsed, "timeout") ?? DEFAULT_TIMEOUT, "--timeout");
    const window = flagString(parsed, "window") ?? DEFAULT_WINDOW;
    const windowMs = /^\s*0+(\.0+)?(ms|s|m|h|d|w)?\s*$/.test(window) ? 0 : parseDuration(window, "--window");
    const description = flagString(parsed, "description") ?? `siteops CLI on ${hostname()}`;
    if (description.length > 1000) throw new UsageError("--description must be at most 1000 characters");
    const trigger = (flagString(parsed, "trigger") ?? "manual") as "manual" | "scheduled";
    const contentType = flagString(parsed, "content-type");
    const pollInterval = pollIntervalFrom(ctx.env);

    return runJob(ctx, parsed, {
      command: "snapshot create",
      selection,
      // What the snapshots say is part of the job: a manual run's snapshots are not the night's.
      identity: { trigger, description },
      async work({ job, sites }) {
        const state = windowMs > 0 ? openJobState(ctx.env, job.name, windowMs, (line) => ctx.stderr.write(`warning: ${line}\n`)) : undefined;
        const progress = createProgress(ctx.stderr, ctx.quiet);
        let records: SnapshotRecord[] = [];
        try {
          const client = await ctx.client();
          let source: UploadSource | undefined = upload;
          const stdinMeter = new RateMeter();
          if (upload === "-") {
            source = await stdinSource(ctx.stdin, (bytes) => {
              const { rate } = stdinMeter.sample(bytes);
              progress.update(sites[0]!.id, `${clean(sites[0]!.name)}  reading stdin  ${formatBytes(bytes)}${rate ? `  ${formatBytes(rate)}/s` : ""}`);
            });
          }
          if (sites.length > 0)
            progress.event(
              sites.length === 1
                ? `snapshot of ${clean(sites[0]!.name)} (${sites[0]!.id})`
                : `snapshots of ${sites.length} sites, ${Math.min(concurrency, sites.length)} at a time`,
              "info",
            );

          const started = Date.now();
          let done = 0;
          let failed = 0;
          let running = 0;
          const header = () =>
            progress.status(
              () =>
                `${sites.length === 1 ? "snapshot" : "snapshots"}: ${done}/${sites.length} done${failed ? `, ${ctx.stderr.style.red(`${failed} failed`)}` : ""}, ${running} running, ${formatDuration(Date.now() - started)}${ctx.signal.aborted ? ", interrupting" : ""}`,
            );
          const width = Math.min(24, Math.max(0, ...sites.map((s) => clean(s.name).length)));
          const lines = new Map<string, ReturnType<typeof siteProgress>>();

          const results = await snapshotFleet(client, sites, {
            concurrency,
            timeout: timeoutMs,
            wait,
            description,
            trigger,
            upload: source,
            uploadOptions: contentType ? { contentType } : undefined,
            pollInterval,
            adopt: state?.earlier,
            onRequest: state ? (request) => state.record(request) : undefined,
            signal: ctx.signal,
            onProgress: (event) => {
              if (event.type === "site.started") {
                running++;
                lines.set(event.site.id, siteProgress(ctx, progress, event.site, width, Date.now()));
                header();
              } else if (event.type === "site.progress" || event.type === "site.adopted") lines.get(event.site.id)?.(event);
              else if (event.result.started) {
                const { site, snapshot, outcome } = event.result;
                running--;
                if (outcome === "completed" || outcome === "requested") {
                  done++;
                  const size = typeof snapshot!.size_bytes === "number" ? `, ${formatBytes(snapshot!.size_bytes)}` : "";
                  progress.event(
                    `${clean(site.name)}: snapshot ${clean(snapshot!.id)} ${clean(snapshot!.status)}${size}${event.result.adopted ? " (adopted)" : ""} in ${formatDuration(event.result.durationMs)}`,
                  );
                } else if (outcome !== "interrupted") {
                  failed++;
                  const line = errorLine(event.result.error, ctx.secrets);
                  const which = snapshot && !line.includes(snapshot.id) ? `snapshot ${clean(snapshot.id)}: ` : "";
                  progress.event(`${clean(site.name)} (${clean(site.id)}): ${which}${line}`, "error");
                }
                progress.remove(site.id);
                header();
              }
            },
          });
          records = results.map((r) => snapshotRecord(r, ctx.secrets));
          progress.close();
          printSnapshotRecords(ctx, progress, records, Date.now() - started, wait);
        } finally {
          progress.close();
          state?.close();
        }
        return { code: runExitCode(ctx, records), report: { summary: counts(records), results: records } };
      },
    });
  },
};

/** A site's result as the report and --json print it. */
function snapshotRecord(result: SiteSnapshotResult, secrets: readonly string[]): SnapshotRecord {
  const { site, outcome, snapshot } = result;
  const record: SnapshotRecord = {
    site: { id: site.id, name: site.name, url: site.url },
    outcome,
    adopted: result.adopted,
    snapshot,
    error: null,
    duration_ms: result.durationMs,
  };
  if (outcome === "skipped") record.error = { message: `skipped: ${errorLine(result.error, secrets)}`, code: "SKIPPED" };
  else if (outcome === "timed_out" && !result.started) record.error = { message: "not started: --timeout ran out before its turn", code: "WAIT_TIMEOUT" };
  else if (outcome === "interrupted") record.error = { message: "interrupted while waiting; the snapshot carries on in the service", code: "INTERRUPTED" };
  else if (outcome === "failed" || outcome === "timed_out") record.error = errorInfo(result.error, secrets);
  return record;
}

/** The live line and log lines of one site's snapshot. */
function siteProgress(ctx: Context, progress: Progress, site: Site, width: number, begin: number) {
  const name = clean(site.name);
  const label = name.length > width ? `${name.slice(0, width - 1)}…` : name.padEnd(width);
  const style = ctx.stderr.style;
  const meter = new RateMeter();
  const throttle = new ProgressThrottle();
  let snapshotId = "";
  const elapsed = () => formatDuration(Date.now() - begin);
  progress.update(site.id, () => `${label}  creating snapshot  ${elapsed()}`);
  return (fleetEvent: Extract<FleetSnapshotEvent, { type: "site.progress" | "site.adopted" }>) => {
    if (fleetEvent.type === "site.adopted") {
      snapshotId = clean(fleetEvent.snapshot.id);
      const status = clean(fleetEvent.snapshot.status);
      progress.update(site.id, () => `${label}  ${snapshotId}  ${statusColor(style, status)}  ${elapsed()}`);
      progress.event(`${name}: snapshot ${snapshotId} of an earlier run of this job adopted (${status})`);
      return;
    }
    const event = fleetEvent.event;
    switch (event.type) {
      case "snapshot.created":
      case "snapshot.uploaded":
      case "snapshot.status": {
        snapshotId = clean(event.snapshot.id);
        const status = clean(event.snapshot.status);
        progress.update(site.id, () => `${label}  ${snapshotId}  ${statusColor(style, status)}  ${elapsed()}`);
        if (event.type === "snapshot.created") progress.event(`${name}: snapshot ${snapshotId} created (${status})`);
        else if (event.type === "snapshot.uploaded") progress.event(`${name}: upload complete, snapshot ${snapshotId} is ${status}`);
        else if (status === "requested" || status === "in_progress") progress.event(`${name}: snapshot ${snapshotId} is ${status}`);
        break;
      }
      case "upload.progress": {
        const { rate, etaMs } = meter.sample(event.sent, event.total);
        const percent = event.total ? Math.floor((event.sent * 100) / event.total) : 100;
        const speed = rate ? `  ${formatBytes(rate)}/s` : "";
        const eta = etaMs !== undefined ? `  ETA ${formatDuration(etaMs)}` : "";
        progress.update(site.id, `${label}  ${snapshotId}  uploading ${percent}%  ${formatBytes(event.sent)} of ${formatBytes(event.total)}${speed}${eta}`);
        if (throttle.due(event.sent, event.total)) {
          progress.event(`${name}: uploaded ${percent}% (${formatBytes(event.sent)} of ${formatBytes(event.total)}${rate ? `, ${formatBytes(rate)}/s` : ""})`);
        }
        break;
      }
    }
  };
}
