// Upgrade pipelines: creation and approval. The steps that advance a pipeline on the emulator clock
// are in pipeline-steps.ts.
//
//   pending -> running (steps: snapshot, preflight) -> awaiting_approval --approve--> applying
//   (steps: apply, verify) -> succeeded | failed -> rolled_back
//
// Without approval `running -> applying`. A failure before anything was applied (the pre-upgrade
// snapshot failed, or the preflight found the site down) ends in `failed`; a failure at verify rolls
// back: `failed` is followed one step later by `rolled_back`. The site is `maintenance` while applying.
// Deterministic failures: catalogue/upgrades.ts (target PHP 8.4 with WordPress below 6.7 fails verify),
// and a site forced `failed` through the control API fails the preflight.
import type { EmulatorContext } from "../context.js";
import type { Origin } from "../auth/auth-context.js";
import { FieldErrorCollector, notFound, unprocessable } from "../errors.js";
import { isId } from "../ids.js";
import { CONTROL_CHARACTERS, hasControlCharacters } from "../../wire/common.js";
import { UPGRADABLE, compareVersions } from "../versions.js";
import type { PipelineInput, Step, StepName, StepStatus, UpgradePipelineJson } from "../../wire/upgrade-pipelines.js";
import type { PageSource } from "../store/db.js";
import type { SiteRow } from "../store/sites.js";
import { findSnapshot } from "../store/snapshots.js";
import {
  findPipeline,
  findPipelineOf,
  hasActivePipeline,
  insertPipeline,
  markPipelineApproved,
  pipelineToJson,
  pipelinesPage,
  type PipelineRow,
} from "../store/upgrade-pipelines.js";
import { parseJson } from "../store/db.js";
import { recordActivity } from "./activity-logs.js";
import { refreshSiteStatus } from "./health-checks.js";

const STEP_NAMES: readonly StepName[] = ["snapshot", "preflight", "apply", "verify"];

export function setStep(steps: Step[], name: StepName, status: StepStatus, at: string): Step[] {
  return steps.map((s) => {
    if (s.name !== name) return s;
    if (status === "running") return { ...s, status, started_at: at };
    return { ...s, status, started_at: s.started_at ?? (status === "skipped" ? null : at), finished_at: at };
  });
}

/** A pipeline in a webhook payload: its state under the name the control API set for it, if any
 * (control/pipeline-states.ts; the routes rename theirs after serialising). */
export function shownPipeline(ctx: EmulatorContext, row: PipelineRow): UpgradePipelineJson {
  return ctx.pipelineStates.shown(pipelineToJson(row));
}

export function listPipelines(ctx: EmulatorContext, siteId: string): PageSource<UpgradePipelineJson> {
  return pipelinesPage(ctx.db, siteId);
}

export function loadPipeline(ctx: EmulatorContext, siteId: string, id: string): PipelineRow {
  const row = findPipelineOf(ctx.db, siteId, id);
  if (!row) throw notFound();
  return row;
}

export function getPipeline(ctx: EmulatorContext, siteId: string, id: string): UpgradePipelineJson {
  return pipelineToJson(loadPipeline(ctx, siteId, id));
}

function checkVersion(errors: FieldErrorCollector, field: string, value: string | undefined, known: readonly string[], current: string): void {
  if (value === undefined) return;
  if (!known.includes(value)) errors.add(field, "is not included in the list");
  else if (compareVersions(value, current) < 0) errors.add(field, `can't be lower than the current version (${current})`);
}

/** A new pipeline's from and to versions: the site's, and the input's where it names one. */
function versionsOf(site: SiteRow, input: PipelineInput): Pick<UpgradePipelineJson, (typeof UPGRADABLE)[number]["from" | "to"]> {
  const pairs = UPGRADABLE.flatMap((v) => [[v.from, site[v.field]] as const, [v.to, input[v.to] ?? site[v.field]] as const]);
  return Object.fromEntries(pairs) as Pick<UpgradePipelineJson, (typeof UPGRADABLE)[number]["from" | "to"]>;
}

function checkInput(ctx: EmulatorContext, site: SiteRow, input: PipelineInput): void {
  const errors = new FieldErrorCollector();
  if (UPGRADABLE.every((v) => input[v.to] === undefined)) errors.add("to_wp_version", "can't be blank when to_php_version is not given");
  for (const v of UPGRADABLE) checkVersion(errors, v.to, input[v.to], v.known, site[v.field]);
  if (errors.empty && UPGRADABLE.every((v) => (input[v.to] ?? site[v.field]) === site[v.field])) {
    for (const v of UPGRADABLE) if (input[v.to] !== undefined) errors.add(v.to, "is already the site's version");
  }
  if (input.snapshot_id != null) {
    const snap = isId("snap", input.snapshot_id) ? findSnapshot(ctx.db, input.snapshot_id) : undefined;
    if (!snap || snap.site_id !== site.id || snap.status !== "completed") errors.add("snapshot_id", "must be a completed snapshot of this site");
  }
  errors.throwIfAny();
  if (hasActivePipeline(ctx.db, site.id)) throw unprocessable("Site already has an active upgrade pipeline");
}

export function createPipeline(ctx: EmulatorContext, site: SiteRow, input: PipelineInput, origin: Origin): UpgradePipelineJson {
  checkInput(ctx, site, input);
  const nowMs = ctx.clock.nowMs();
  const nextMs = nowMs + ctx.options.stepSeconds * 1000;
  const id = ctx.newId("upg");
  ctx.db.transaction(() => {
    insertPipeline(ctx.db, {
      id,
      site_id: site.id,
      account_id: site.account_id,
      ...versionsOf(site, input),
      snapshot_id: input.snapshot_id ?? null,
      requires_approval: input.requires_approval === false ? 0 : 1,
      next_step_ms: nextMs,
      created_at: ctx.clock.iso(nowMs),
      steps: STEP_NAMES.map((name) => ({ name, status: "pending", started_at: null, finished_at: null })),
    });
    recordActivity(
      ctx,
      { accountId: site.account_id, siteId: site.id, action: "upgrade_pipeline.created", subjectType: "UpgradePipeline", subjectId: id },
      origin,
    );
  })();
  const json = pipelineToJson(findPipeline(ctx.db, id)!);
  ctx.events.emit(site.account_id, "upgrade_pipeline.created", ctx.pipelineStates.shown(json));
  ctx.scheduler.poke(nextMs);
  return json;
}

export function approvePipeline(ctx: EmulatorContext, row: PipelineRow, userId: string, comment: string | null, origin: Origin): UpgradePipelineJson {
  if (row.status !== "awaiting_approval") throw unprocessable("Pipeline is not awaiting approval");
  if (comment !== null && hasControlCharacters(comment)) new FieldErrorCollector().add("comment", CONTROL_CHARACTERS).throwIfAny();
  const nowMs = ctx.clock.nowMs();
  const now = ctx.clock.iso(nowMs);
  const steps = setStep(parseJson<Step[]>(row.steps, []), "apply", "running", now);
  const nextMs = nowMs + ctx.options.stepSeconds * 1000;
  ctx.db.transaction(() => {
    markPipelineApproved(ctx.db, row.id, { at: now, userId, comment, steps, nextStepMs: nextMs });
    recordActivity(
      ctx,
      {
        accountId: row.account_id,
        siteId: row.site_id,
        action: "upgrade_pipeline.approved",
        subjectType: "UpgradePipeline",
        subjectId: row.id,
        changes: { status: ["awaiting_approval", "applying"] },
      },
      origin,
    );
  })();
  const json = pipelineToJson(findPipeline(ctx.db, row.id)!);
  ctx.events.emit(row.account_id, "upgrade_pipeline.approved", ctx.pipelineStates.shown(json));
  refreshSiteStatus(ctx, row.site_id);
  ctx.scheduler.poke(nextMs);
  return json;
}
