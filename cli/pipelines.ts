// Upgrade pipelines as the CLI shows and finds them. A pipeline id alone (siteops upgrade approve upg_...) is
// found through the activity log, which records each pipeline's creation with its site; failing that, by
// asking every site.

import { NotFoundError, PaginationError, type SiteOps, type UpgradePipeline } from "../src/index.js";
import { mapPool } from "../src/fleet.js";
import type { Context } from "./context.js";
import { UsageError } from "./exit-codes.js";
import { formatAgo } from "./output/format.js";
import { printObject } from "./output/printer.js";
import { clean } from "../common/sanitize.js";
import { statusColor, styleFor, type Style } from "./output/style.js";
import { paintCell, type Column } from "./output/table.js";
import { listSites, siteIdOf } from "./sites.js";
import { jsonFieldsOf } from "./wire-fields.js";
import { upgradePipelineFields } from "../wire/generated/fields.js";

const PIPELINE_ID = /^upg_[A-Za-z0-9]+$/;
/** Activity pages searched for a pipeline's creation before asking every site. */
const ACTIVITY_PAGES = 10;

/** What --json=FIELDS takes of a pipeline: every field the service shows (wire/generated/fields.ts). */
export const PIPELINE_FIELDS = jsonFieldsOf(upgradePipelineFields);

function checkPipelineId(id: string): string {
  if (!PIPELINE_ID.test(id)) throw new UsageError(`${JSON.stringify(id)} is not an upgrade pipeline id (upg_...)`);
  return id;
}

/** A pipeline's status as the rest of a sentence: "succeeded", "was rolled back", "awaits approval", "is running". */
export function statusPhrase(status: string): string {
  if (status === "succeeded" || status === "failed") return status;
  if (status === "rolled_back") return "was rolled back";
  if (status === "awaiting_approval") return "awaits approval";
  return `is ${status}`;
}

/** The pipeline `id`, in the site `siteRef` when given, else wherever it is in the account. */
export async function locatePipeline(client: SiteOps, id: string, siteRef: string | undefined, signal: AbortSignal): Promise<UpgradePipeline> {
  checkPipelineId(id);
  const get = async (siteId: string): Promise<UpgradePipeline | undefined> => {
    try {
      const found = await client.upgradePipelines.get(siteId, id, { signal });
      // The site it was read from, which later requests address: the spec shows no pipeline body, so its
      // site_id may be missing (a request to /sites/undefined/... otherwise).
      return found.site_id === siteId ? found : { ...found, site_id: siteId };
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
  };
  if (siteRef !== undefined) {
    const siteId = await siteIdOf(client, siteRef, signal);
    const found = await get(siteId);
    if (!found) throw new UsageError(`site ${siteRef} has no upgrade pipeline ${id}`);
    return found;
  }
  try {
    for await (const entry of client.activityLogs.list({ action: "upgrade_pipeline.created", per_page: 100 }, { signal, maxPages: ACTIVITY_PAGES })) {
      if (entry.subject_id === id && entry.site_id) {
        const found = await get(entry.site_id);
        if (found) return found;
      }
    }
  } catch (err) {
    // Past ACTIVITY_PAGES pages (an old pipeline): ask the sites instead.
    if (!(err instanceof PaginationError)) throw err;
  }
  let found: UpgradePipeline | undefined;
  const sites = await listSites(client, signal);
  await mapPool(sites, 8, async (site) => {
    if (!found) found = (await get(site.id)) ?? found;
  });
  if (!found) throw new UsageError(`no upgrade pipeline ${id} in this account (pass --site if it is another account's, with --account)`);
  return found;
}

/** The one pipeline of site `siteRef` that awaits approval (`upgrade approve --site SITE` without an id). */
export async function awaitingPipeline(client: SiteOps, siteRef: string, signal: AbortSignal): Promise<UpgradePipeline> {
  const siteId = await siteIdOf(client, siteRef, signal);
  const waiting: UpgradePipeline[] = [];
  for await (const p of client.upgradePipelines.list(siteId, { per_page: 100 }, { signal })) {
    if (p.status === "awaiting_approval") waiting.push(p.site_id === siteId ? p : { ...p, site_id: siteId });
  }
  if (waiting.length === 0) throw new UsageError(`site ${siteRef} has no upgrade pipeline awaiting approval`);
  if (waiting.length > 1) {
    throw new UsageError(
      `site ${siteRef} has ${waiting.length} upgrade pipelines awaiting approval (${waiting.map((p) => clean(p.id)).join(", ")}): give the one to approve`,
    );
  }
  return waiting[0]!;
}

const STEP_MARK: Record<string, string> = { passed: "✓", running: "…", failed: "✗", pending: "·", skipped: "-" };

/** "snapshot ✓ preflight … apply · verify ·" (terminal) or "snapshot:passed preflight:running ..." (piped). */
export function stepsText(pipeline: UpgradePipeline, style: Style | undefined): string {
  return (pipeline.steps ?? [])
    .map((s) => {
      const name = clean(s.name);
      if (!style) return `${name}:${clean(s.status)}`;
      const mark = STEP_MARK[s.status] ?? clean(s.status);
      const painted =
        s.status === "passed" ? style.green(mark) : s.status === "failed" ? style.red(mark) : s.status === "running" ? style.yellow(mark) : style.dim(mark);
      return `${name} ${painted}`;
    })
    .join(" ");
}

function versions(from: string, to: string): string {
  return from === to ? from : `${from} → ${to}`;
}

export function pipelineColumns(ctx: Context): Column<UpgradePipeline>[] {
  const style = ctx.stdout.style;
  return [
    { header: "ID", value: (p) => p.id },
    { header: "SITE", value: (p) => p.site_id },
    { header: "STATUS", value: (p) => p.status, color: paintCell((w) => statusColor(style, w)) },
    { header: "WORDPRESS", value: (p) => versions(p.from_wp_version, p.to_wp_version) },
    { header: "PHP", value: (p) => versions(p.from_php_version, p.to_php_version) },
    { header: "STEPS", value: (p) => stepsText(p, undefined), display: (p) => stepsText(p, style) },
    { header: "CREATED", value: (p) => p.created_at, display: (p) => formatAgo(p.created_at) },
  ];
}

export function showPipeline(ctx: Context, p: UpgradePipeline): void {
  const tty = ctx.stdout.isTTY;
  printObject(ctx, p, [
    ["id", p.id],
    ["site", p.site_id],
    ["status", p.status],
    ["wordpress", versions(p.from_wp_version, p.to_wp_version)],
    ["php", versions(p.from_php_version, p.to_php_version)],
    // Marks without colours: field values are cleaned of escape codes.
    ["steps", stepsText(p, tty ? styleFor(false) : undefined)],
    ["approval", p.requires_approval ? (p.approved_at ? `approved by ${p.approved_by ?? "?"} at ${p.approved_at}` : "required") : "not required"],
    ["comment", p.comment],
    ["snapshot", p.snapshot_id],
    ["error", p.error],
    ["created", p.created_at],
    ["completed", p.completed_at],
  ]);
}
