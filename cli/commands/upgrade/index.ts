// `siteops upgrade open|approve|status|rollout`: WordPress/PHP upgrades through the service's pipelines (snapshot,
// preflight, apply, verify), on the core's openUpgrade/approveUpgrade, with the steps shown live; `rollout`
// (rollout.ts) runs one over a fleet in waves.

import { hostname } from "node:os";
import { flagBool, flagString, type Parsed } from "../../args.js";
import {
  type OperationEvent,
  OperationFailedError,
  PIPELINE_FINAL_STATES,
  UnprocessableEntityError,
  type UpgradePipeline,
  waitUntil,
} from "../../../src/index.js";
import type { Context } from "../../context.js";
import { parseDuration } from "../../duration.js";
import { CliError, EXIT, exitCodeOf, UsageError } from "../../exit-codes.js";
import { errorLine, formatDuration } from "../../output/format.js";
import { createProgress, type Progress } from "../../output/progress.js";
import { clean } from "../../../common/sanitize.js";
import { statusColor } from "../../output/style.js";
import { pollIntervalFrom } from "../../poll-interval.js";
import { awaitingPipeline, locatePipeline, PIPELINE_FIELDS, showPipeline, statusPhrase, stepsText } from "../../pipelines.js";
import { defineCommand } from "../../runner.js";
import { resolveSite } from "../../sites.js";
import type { LeafSpec } from "../../spec.js";
import { DEFAULT_TIMEOUT } from "../snapshots/create.js";
import { rolloutLeaf } from "./rollout.js";

const VERSION = /^\d+\.\d+$/;
const FAILED = new Set(["failed", "rolled_back"]);

const WAIT_FLAGS = [
  { name: "wait", type: "boolean" as const, negatable: true, description: "wait for the result (default; --no-wait returns at once)" },
  { name: "timeout", type: "string" as const, value: "DURATION", description: `give up waiting after this long (default ${DEFAULT_TIMEOUT})` },
];
const SITE_FLAG = {
  name: "site",
  short: "s",
  type: "string" as const,
  value: "ID|NAME",
  description: "the pipeline's site (found from the activity log when omitted)",
};

/** Live line and log lines of a pipeline as it changes; remembers the latest state seen. */
function tracker(ctx: Context, progress: Progress, label: string) {
  let latest: UpgradePipeline | undefined;
  const started = Date.now();
  const show = (p: UpgradePipeline, verb: string) => {
    latest = p;
    progress.status(
      () =>
        `${label}  ${clean(p.id)}  ${statusColor(ctx.stderr.style, clean(p.status))}  ${stepsText(p, ctx.stderr.style)}  ${formatDuration(Date.now() - started)}`,
    );
    const steps = (p.steps ?? []).filter((s) => s.status !== "pending").map((s) => `${clean(s.name)} ${clean(s.status)}`);
    progress.event(`${label}: pipeline ${clean(p.id)} ${verb}${steps.length ? `; ${steps.join(", ")}` : ""}`);
  };
  return {
    onProgress(event: OperationEvent) {
      if (!("pipeline" in event)) return;
      const status = clean(event.pipeline.status);
      show(
        event.pipeline,
        event.type === "pipeline.created" ? `opened (${status})` : event.type === "pipeline.approved" ? `approved (${status})` : statusPhrase(status),
      );
    },
    show,
    latest: () => latest,
  };
}

function waitOptions(ctx: Context, parsed: Parsed) {
  return {
    wait: flagBool(parsed, "wait") ?? true,
    waitTimeout: parseDuration(flagString(parsed, "timeout") ?? DEFAULT_TIMEOUT, "--timeout"),
    pollInterval: pollIntervalFrom(ctx.env),
    signal: ctx.signal,
  };
}

/** Prints the pipeline, and the failure if any; the exit code. */
function conclude(ctx: Context, progress: Progress, siteId: string, pipeline: UpgradePipeline | undefined, failure: unknown): number {
  progress.close();
  if (pipeline) showPipeline(ctx, pipeline);
  if (failure !== undefined) {
    if (!pipeline) throw failure;
    ctx.stderr.write(`${ctx.stderr.style.red("error:")} ${errorLine(failure, ctx.secrets)}\n`);
    return exitCodeOf(failure);
  }
  if (pipeline?.status === "awaiting_approval" && !ctx.quiet) {
    ctx.stderr.write(`Pipeline ${clean(pipeline.id)} awaits approval: siteops upgrade approve ${clean(pipeline.id)} --site ${clean(siteId)}\n`);
  }
  return pipeline && FAILED.has(pipeline.status) ? EXIT.FAILED : EXIT.OK;
}

/**
 * The service's 422 on a target version it does not offer ("is not included in the list"), as a sentence naming
 * the product and version; the answer lists no versions, so neither does the sentence. Other errors: as they are.
 */
function notOffered(err: unknown, targets: { wp?: string | undefined; php?: string | undefined }): unknown {
  if (!(err instanceof UnprocessableEntityError)) return err;
  const refused = [
    ["to_wp_version", "WordPress", targets.wp],
    ["to_php_version", "PHP", targets.php],
  ].filter(([field, , version]) => version !== undefined && err.errors?.[field!]?.some((m) => /not included in the list/.test(m)));
  if (refused.length === 0) return err;
  const what = refused.map(([, product, version]) => `${product} ${version}`).join(" or ");
  const fields = refused.map(([field]) => `${field} ${err.errors![field!]!.join(", ")}`).join("; ");
  const request = err.requestId ? `, request ${err.requestId}` : "";
  return new CliError(`the service does not offer ${what} (${fields}; its answer names no versions) [HTTP ${err.status}${request}]`, EXIT.FAILED);
}

function resourceOf(err: unknown): UpgradePipeline | undefined {
  return err instanceof OperationFailedError ? (err.resource as UpgradePipeline) : undefined;
}

const open: LeafSpec = {
  name: "open",
  summary: "open an upgrade pipeline on a site and wait until it awaits approval or ends",
  flags: [
    { name: "site", short: "s", type: "string", value: "ID|NAME", description: "the site to upgrade (required)" },
    { name: "wp", type: "string", value: "X.Y", description: "target WordPress version" },
    { name: "php", type: "string", value: "X.Y", description: "target PHP version" },
    { name: "require-approval", type: "boolean", negatable: true, description: "stop in awaiting_approval until approved (default: yes)" },
    ...WAIT_FLAGS,
  ],
  jsonFields: PIPELINE_FIELDS,
  examples: ["siteops upgrade open --site Blog --wp 6.8 --php 8.3", "siteops upgrade open --site Blog --wp 6.8 --no-require-approval --timeout 1h"],
  async run(ctx, parsed) {
    const ref = flagString(parsed, "site");
    if (!ref) throw new UsageError("--site ID|NAME is required");
    const wp = flagString(parsed, "wp");
    const php = flagString(parsed, "php");
    if (!wp && !php) throw new UsageError("give the target: --wp X.Y and/or --php X.Y");
    for (const [flag, v] of [
      ["wp", wp],
      ["php", php],
    ] as const) {
      if (v !== undefined && !VERSION.test(v)) throw new UsageError(`--${flag} must be a major.minor version such as 6.8 (got ${JSON.stringify(v)})`);
    }
    const options = waitOptions(ctx, parsed);
    const requireApproval = flagBool(parsed, "require-approval") ?? true;
    const client = await ctx.client();
    const site = await resolveSite(client, ref, ctx.signal);
    const progress = createProgress(ctx.stderr, ctx.quiet);
    const track = tracker(ctx, progress, clean(site.name));
    let pipeline: UpgradePipeline | undefined;
    let failure: unknown;
    try {
      pipeline = await client.operations.openUpgrade(
        site.id,
        { ...(wp ? { to_wp_version: wp } : {}), ...(php ? { to_php_version: php } : {}), requires_approval: requireApproval },
        { ...options, onProgress: track.onProgress },
      );
    } catch (err) {
      pipeline = resourceOf(err) ?? track.latest();
      failure = notOffered(err, { wp, php });
    }
    return conclude(ctx, progress, site.id, pipeline, failure);
  },
};

const approve: LeafSpec = {
  name: "approve",
  summary: "approve a pipeline that awaits approval and wait until it ends",
  description: "Without PIPELINE_ID, --site SITE approves the site's one pipeline that awaits approval.",
  flags: [
    {
      ...SITE_FLAG,
      description: "the pipeline's site (found from the activity log when omitted); without PIPELINE_ID, the site whose waiting pipeline to approve",
    },
    { name: "comment", type: "string", value: "TEXT", description: 'recorded with the approval (default "Approved with the siteops CLI on <hostname>")' },
    ...WAIT_FLAGS,
  ],
  args: [{ name: "PIPELINE_ID" }],
  jsonFields: PIPELINE_FIELDS,
  examples: ["siteops upgrade approve upg_0123456789abcdef", "siteops upgrade approve --site Blog --comment 'CAB-1234'"],
  async run(ctx, parsed) {
    const options = waitOptions(ctx, parsed);
    const comment = flagString(parsed, "comment") ?? `Approved with the siteops CLI on ${hostname()}`;
    const id = parsed.args[0];
    const siteRef = flagString(parsed, "site");
    if (id === undefined && siteRef === undefined)
      throw new UsageError("give the pipeline: PIPELINE_ID, or --site ID|NAME for the site's pipeline that awaits approval");
    const client = await ctx.client();
    const found = id === undefined ? await awaitingPipeline(client, siteRef!, ctx.signal) : await locatePipeline(client, id, siteRef, ctx.signal);
    const progress = createProgress(ctx.stderr, ctx.quiet);
    const track = tracker(ctx, progress, clean(found.site_id));
    let pipeline: UpgradePipeline | undefined;
    let failure: unknown;
    try {
      pipeline = await client.operations.approveUpgrade(found.site_id, found.id, { ...options, comment, onProgress: track.onProgress });
    } catch (err) {
      pipeline = resourceOf(err) ?? track.latest();
      failure = err;
    }
    return conclude(ctx, progress, found.site_id, pipeline, failure);
  },
};

const status: LeafSpec = {
  name: "status",
  summary: "show a pipeline; --watch follows it until it awaits approval or ends",
  flags: [SITE_FLAG, { name: "watch", short: "w", type: "boolean", description: "follow the pipeline until it awaits approval or ends" }, WAIT_FLAGS[1]!],
  args: [{ name: "PIPELINE_ID", required: true }],
  jsonFields: PIPELINE_FIELDS,
  async run(ctx, parsed) {
    const { waitTimeout, pollInterval } = waitOptions(ctx, parsed);
    const client = await ctx.client();
    const first = await locatePipeline(client, parsed.args[0]!, flagString(parsed, "site"), ctx.signal);
    if (!flagBool(parsed, "watch")) return conclude(ctx, createProgress(ctx.stderr, true), first.site_id, first, undefined);
    const progress = createProgress(ctx.stderr, ctx.quiet);
    const track = tracker(ctx, progress, clean(first.site_id));
    track.show(first, statusPhrase(clean(first.status)));
    let pipeline: UpgradePipeline | undefined = first;
    let failure: unknown;
    try {
      pipeline = await waitUntil(
        () => client.upgradePipelines.get(first.site_id, first.id, { signal: ctx.signal }),
        (p) => PIPELINE_FINAL_STATES.has(p.status) || p.status === "awaiting_approval",
        {
          waitTimeout,
          pollInterval,
          signal: ctx.signal,
          first,
          key: (p) => `${p.status}|${(p.steps ?? []).map((s) => s.status).join(",")}`,
          describe: (p) => `upgrade pipeline ${p.id} is ${p.status}`,
          onChange: (p) => track.show(p, statusPhrase(clean(p.status))),
        },
      );
    } catch (err) {
      pipeline = track.latest();
      failure = err;
    }
    return conclude(ctx, progress, first.site_id, pipeline, failure);
  },
};

export default defineCommand({
  name: "upgrade",
  summary: "open, approve and follow WordPress/PHP upgrade pipelines; roll one out in waves",
  subcommands: [open, approve, status, rolloutLeaf],
});
