// Version changes of siteops_site under the `upgrade` block's policy (site-upgrade-policy.ts): the plan-time
// rules (a downgrade is refused unless the strategy is direct; a pipeline to come is a warning), and the
// apply-time run of an upgrade pipeline through the core's upgrade operation (open, follow, adopt the site's
// running pipeline), with its progress in Terraform's log.
import type { SiteOps, UpgradePipeline, UpgradePipelineCreateParams } from "../../src/index.js";
import { path, type Diagnostics } from "../framework/diagnostics.js";
import { log } from "../log.js";
import { isUnknown, type Value } from "../values/cty.js";
import type { ProviderData } from "../provider-data.js";
import { upgradePolicy, type UpgradeModel, type UpgradePolicy } from "./site-upgrade-policy.js";

/** The site's versions an upgrade pipeline changes: the attribute, the pipeline's target field, the product. */
const VERSIONS = [
  { field: "wp_version", target: "to_wp_version", product: "WordPress" },
  { field: "php_version", target: "to_php_version", product: "PHP" },
] as const;
export const VERSION_FIELDS = VERSIONS.map((v) => v.field);
type VersionField = (typeof VERSIONS)[number]["field"];
const PRODUCT = Object.fromEntries(VERSIONS.map((v) => [v.field, v.product])) as Record<VersionField, string>;

/** The pipeline's targets: each version of `plan` that `changed` says differs from the site's. */
export async function upgradeTargets(
  plan: Partial<Record<VersionField, string | null>>,
  changed: (field: VersionField) => Promise<boolean>,
): Promise<UpgradePipelineCreateParams> {
  const targets: UpgradePipelineCreateParams = {};
  for (const v of VERSIONS) {
    const to = plan[v.field];
    if (typeof to === "string" && (await changed(v.field))) targets[v.target] = to;
  }
  return targets;
}

/** Compares "major.minor" strings numerically ("6.10" is after "6.9"). */
function compareVersions(a: string, b: string): number {
  const [am = 0, an = 0] = a.split(".").map(Number);
  const [bm = 0, bn = 0] = b.split(".").map(Number);
  return am - bm || an - bn;
}

type Versions = Record<VersionField, string | null>;

/**
 * Plan-time rules for an update: with the pipeline strategy a version lower than the site's is an error on
 * that attribute, and a version change is a warning that apply will run a pipeline (and wait for approval,
 * naming the command that gives it: the apply itself shows only "Still modifying...").
 */
export function planVersionChange(plan: Record<VersionField, Value> & { upgrade: Value }, prior: Versions & { id: string | null }, diags: Diagnostics): void {
  const block = plan.upgrade;
  if (isUnknown(block)) return;
  const raw = (block ?? null) as Record<string, Value> | null;
  if (raw && [raw.strategy, raw.require_approval, raw.timeout].some(isUnknown)) return;
  const policy = upgradePolicy(raw as UpgradeModel | null);
  if (policy.strategy === "direct") return;
  const changes: string[] = [];
  for (const field of VERSION_FIELDS) {
    const to = plan[field];
    const from = prior[field];
    if (typeof to !== "string" || from === null || to === from) continue;
    if (compareVersions(to, from) < 0) {
      diags.error(
        `${PRODUCT[field]} downgrade refused`,
        // The prior version is the site's as last read (the refresh): after an upgrade made outside Terraform,
        // the configuration is what is behind, and matching it is the fix.
        `${field} would go from ${from} down to ${to}, but the site runs ${from}. If it was upgraded outside Terraform, set ${field} = "${from}" in the configuration to keep it as it is, or, where rollouts upgrade the fleet, let them own the versions with lifecycle { ignore_changes = [wp_version, php_version] } (docs/terraform.md, "Upgrades outside Terraform: rollouts"). ` +
          `To go back to ${to}: an upgrade pipeline cannot downgrade a site, so restore a snapshot taken before the upgrade, or set strategy = "direct" in the upgrade block to change the version in place without a pipeline.`,
        path(field),
      );
    } else changes.push(`${PRODUCT[field]} ${from} -> ${to}`);
  }
  if (changes.length && !diags.hasErrors) {
    const approval = policy.requireApproval
      ? ` It stops before applying until someone approves it, and meanwhile apply shows only "Still modifying...": approve it with \`siteops upgrade approve --site ${prior.id ?? "SITE"}\`, in the console or with the GitHub Action; apply waits up to ${policy.timeout}.`
      : ` Apply waits up to ${policy.timeout} for it.`;
    diags.warning(
      "An upgrade pipeline will run",
      `Apply will open an upgrade pipeline for ${changes.join(", ")}: a pre-upgrade snapshot, a preflight check, the upgrade and a verification, rolled back if it fails.${approval} The new versions are written to the state only once it succeeds.`,
      path(VERSION_FIELDS.find((f) => typeof plan[f] === "string" && plan[f] !== prior[f]) ?? "wp_version"),
    );
  }
}

/** "snapshot succeeded, preflight running": for the log only, so a `steps` of another shape is just left out. */
const stepsText = (p: UpgradePipeline) =>
  (Array.isArray(p.steps) ? (p.steps as unknown[]) : [])
    .map((s) => (s && typeof s === "object" ? `${String((s as { name?: unknown }).name)} ${String((s as { status?: unknown }).status)}` : ""))
    .filter(Boolean)
    .join(", ");

/** A version field of a pipeline, for the log: "?" when the answer has none. */
const shown = (v: unknown) => (typeof v === "string" ? v : "?");

/** Logs the pipeline's progress at INFO (what happens), with its steps at DEBUG. */
function progressLogger(siteId: string, policy: UpgradePolicy): (p: UpgradePipeline, what: string) => void {
  return (p, what) => {
    log.info(`siteops_site ${siteId}: upgrade pipeline ${p.id} ${what}`, {
      site_id: siteId,
      pipeline_id: p.id,
      status: p.status,
      steps: stepsText(p),
      ...(p.snapshot_id ? { snapshot_id: p.snapshot_id } : {}),
    });
    if (p.status === "awaiting_approval") {
      log.info(
        `siteops_site ${siteId}: upgrade pipeline ${p.id} awaits approval; waiting up to ${policy.timeout}. Approve it in the console, with \`siteops upgrade approve ${p.id}\`, or with the GitHub Action`,
        { site_id: siteId, pipeline_id: p.id },
      );
    }
  };
}

export interface PipelineOutcome {
  /** The pipeline that ran, when one was opened or adopted. */
  pipeline?: UpgradePipeline;
  /** The error to report (the pipeline failed, was rolled back, or did not end in time); undefined on success. */
  error?: unknown;
}

/**
 * Runs the version change of `siteId` through an upgrade pipeline and waits for its end: adopts the site's
 * active pipeline when it has the same targets (a previous apply lost its answer, or timed out), refuses when
 * it has others, otherwise opens one. Failures are returned, not thrown, so that the caller can read back the
 * versions the site really has.
 */
export async function runUpgradePipeline(
  client: SiteOps,
  siteId: string,
  targets: UpgradePipelineCreateParams,
  policy: UpgradePolicy,
  signal: AbortSignal,
  diags: Diagnostics,
): Promise<PipelineOutcome> {
  const show = progressLogger(siteId, policy);
  const wait = {
    signal,
    // The site is known here: the waiter polls it whether or not the pipeline's answer carries site_id.
    siteId,
    waitTimeout: policy.timeoutMs,
    onProgress: (e: { type: string; pipeline?: UpgradePipeline }) => {
      if (e.type === "pipeline.status" && e.pipeline && e.pipeline.status !== "succeeded") show(e.pipeline, `is now ${e.pipeline.status}`);
    },
  };
  let pipeline: UpgradePipeline | undefined;
  try {
    pipeline = await adoptable(client, siteId, targets, signal, diags);
    if (diags.hasErrors) return {};
    if (pipeline) show(pipeline, `is already ${pipeline.status} for these versions: following it rather than opening another`);
    else {
      const params = { ...targets, requires_approval: policy.requireApproval };
      try {
        pipeline = await client.operations.openUpgrade(siteId, params, { signal, wait: false });
        show(
          pipeline,
          `opened: WordPress ${shown(pipeline.from_wp_version)} -> ${shown(pipeline.to_wp_version)}, PHP ${shown(pipeline.from_php_version)} -> ${shown(pipeline.to_php_version)}`,
        );
      } catch (err) {
        // The answer may have been lost after the service opened it: the site's active pipeline tells.
        pipeline = await adoptable(client, siteId, targets, signal, diags).catch(() => undefined);
        if (!pipeline || diags.hasErrors) throw err;
        show(pipeline, `was opened although its answer was lost (${err instanceof Error ? err.message : String(err)}): following it`);
      }
    }
    const final = await client.operations.followUpgrade(pipeline, wait);
    show(final, "succeeded");
    return { pipeline: final };
  } catch (error) {
    return { pipeline, error };
  }
}

/** The site's active pipeline when it goes to `targets`; an error diagnostic when it goes elsewhere. */
async function adoptable(
  client: SiteOps,
  siteId: string,
  targets: UpgradePipelineCreateParams,
  signal: AbortSignal,
  diags: Diagnostics,
): Promise<UpgradePipeline | undefined> {
  const active = await client.operations.activeUpgrade(siteId, { signal });
  if (!active) return undefined;
  // Whether it goes where asked rests on its target versions: an answer without them cannot tell.
  for (const v of VERSIONS) {
    if (targets[v.target] === undefined || typeof active[v.target] === "string") continue;
    const endpoint = `GET /api/v1/sites/${siteId}/upgrade_pipelines`;
    diags.error(
      `SiteOps's answer has no usable "${v.target}"`,
      `${endpoint}: upgrade pipeline ${active.id} (${active.status}) of site ${siteId} has no "${v.target}" as a string, so the provider cannot tell whether it goes to the configured versions, and the service runs one pipeline per site at a time. Let it end, then apply again.`,
      path(v.field),
    );
    return undefined;
  }
  if (VERSIONS.every((v) => targets[v.target] === undefined || targets[v.target] === active[v.target])) return active;
  diags.error(
    `Site ${siteId} already has an upgrade pipeline in progress`,
    `Upgrade pipeline ${active.id} (${active.status}) goes to WordPress ${active.to_wp_version} / PHP ${active.to_php_version}, not to the configured versions, and the service runs one pipeline per site at a time. Let it end (approve it if it awaits approval), then apply again.`,
    path(VERSIONS.find((v) => targets[v.target] !== undefined)?.field ?? "wp_version"),
  );
  return undefined;
}

/** Reports a pipeline run's failure: the pipeline's error, or how long was waited for it. */
export function reportPipelineFailure(outcome: PipelineOutcome, siteId: string, data: ProviderData, diags: Diagnostics): void {
  const { pipeline, error } = outcome;
  const at = path("wp_version");
  if (data.errors.isTimeout(error) && pipeline) {
    diags.error(
      `Upgrade pipeline ${pipeline.id} did not end in time`,
      `${error instanceof Error ? error.message : String(error)} It keeps going on the service; the state keeps the versions the site has now, and the next apply follows this pipeline rather than opening another (raise timeout in the upgrade block to wait longer).`,
      at,
    );
  } else if (data.errors.isOperationFailure(error)) {
    const final = (error as { resource?: UpgradePipeline }).resource ?? pipeline;
    diags.error(
      `Upgrade of site ${siteId} failed`,
      `${error instanceof Error ? error.message : String(error)} The state keeps the versions the site has now.${final?.snapshot_id ? ` Pre-upgrade snapshot: ${final.snapshot_id}.` : ""}`,
      at,
    );
  } else data.errors.report(error, diags, { action: `upgrade site ${siteId}` });
}
