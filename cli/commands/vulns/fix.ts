// `siteops vulns fix --core SELECTION`: one upgrade pipeline per site to the lowest WordPress version that fixes
// every open core record (the core's fixCoreVulnerabilities: never a downgrade, never a second pipeline beside an
// active one), not waited for; plugin and theme records listed with the version that fixes them, which is
// installed in WordPress (the service has no endpoint to update them).

import { type CoreFixResult, fixCoreVulnerabilities } from "../../../src/fleet.js";
import { flagBool, type Parsed } from "../../args.js";
import type { Context } from "../../context.js";
import { exitCodeOf, UsageError, worstExitCode } from "../../exit-codes.js";
import { errorInfo, type ErrorInfo } from "../../jobs/report.js";
import { printRecords } from "../../output/printer.js";
import { paintCell, renderTable, type Column } from "../../output/table.js";
import { clean } from "../../../common/sanitize.js";
import { ALLOW_EMPTY_FLAG, SELECTION_FLAGS, selectCheckedFleet, selectionOf } from "../../sites.js";
import type { LeafSpec } from "../../spec.js";

interface RecordRef {
  id: string;
  cve: string | null;
  severity: string;
  software: string;
  installed_version: string;
  fixed_in: string | null;
}

/** One site as printed and in --json. */
interface FixRow {
  site: { id: string; name: string; wp_version: string };
  outcome: CoreFixResult["outcome"];
  decision: CoreFixResult["decision"];
  target_wp_version: string | null;
  pipeline: { id: string; status: string } | null;
  fixes: RecordRef[];
  unfixable: RecordRef[];
  /** Plugin and theme records: updated in WordPress, to `fixed_in`. */
  extensions: RecordRef[];
  error: ErrorInfo | null;
}

const ref = (r: CoreFixResult["fixes"][number]): RecordRef => ({
  id: r.id,
  cve: r.cve ?? null,
  severity: r.severity,
  software: r.software?.slug ?? "",
  installed_version: r.software?.installed_version ?? "",
  fixed_in: r.fixed_in ?? null,
});

function rowOf(ctx: Context, r: CoreFixResult): FixRow {
  return {
    site: { id: r.site.id, name: r.site.name, wp_version: r.site.wp_version },
    outcome: r.outcome,
    decision: r.decision,
    target_wp_version: r.target ?? null,
    pipeline: r.pipeline ? { id: r.pipeline.id, status: r.pipeline.status } : null,
    fixes: r.fixes.map(ref),
    unfixable: r.unfixable.map(ref),
    extensions: r.extensions.map(ref),
    error: r.error === undefined ? null : errorInfo(r.error, ctx.secrets),
  };
}

const SAID: Record<FixRow["decision"], string> = {
  upgrade: "",
  no_core_records: "no open core record",
  no_fix: "no fix a pipeline can install",
  not_above_current: "fixed version not above the site's (no downgrade)",
};

function outcomeText(r: FixRow): string {
  switch (r.outcome) {
    case "opened":
      return `opened ${r.pipeline!.id} (${r.pipeline!.status})`;
    case "active":
      return `not opened: ${r.pipeline!.id} is ${r.pipeline!.status} on the site`;
    case "planned":
      return "would open a pipeline";
    case "failed":
      return `failed: ${r.error!.message}`;
    default:
      return SAID[r.decision];
  }
}

function printRows(ctx: Context, rows: FixRow[]): void {
  if (printRecords(ctx, rows) || ctx.quiet) return;
  const style = ctx.stdout.style;
  const paint = (w: string) => (w.startsWith("failed") ? style.red(w) : w.startsWith("opened") || w.startsWith("would") ? style.green(w) : w);
  const tableOf = <T>(items: T[], columns: Column<T>[]) => renderTable(items, columns, { tty: ctx.stdout.isTTY, style, width: ctx.stdout.columns });
  const out = tableOf(rows, [
    { header: "SITE", value: (r) => r.site.name },
    { header: "WORDPRESS", value: (r) => (r.target_wp_version && r.outcome !== "none" ? `${r.site.wp_version} -> ${r.target_wp_version}` : r.site.wp_version) },
    { header: "CORE RECORDS", value: (r) => `${r.fixes.length} fixed${r.unfixable.length ? `, ${r.unfixable.length} not` : ""}`, align: "right" },
    { header: "PIPELINE", value: (r) => outcomeText(r), color: paintCell(paint) },
  ]);
  const extensions = rows.flatMap((r) => r.extensions.map((e) => ({ ...e, site: r.site.name })));
  if (extensions.length) {
    out.push("", "Plugins and themes (update them in WordPress: the service has no endpoint for it):");
    out.push(
      ...tableOf(extensions, [
        { header: "SITE", value: (e) => e.site },
        { header: "SOFTWARE", value: (e) => `${e.software} ${e.installed_version}` },
        { header: "FIXED IN", value: (e) => e.fixed_in ?? "(no fix yet)" },
        { header: "SEVERITY", value: (e) => e.severity },
        { header: "CVE", value: (e) => e.cve },
      ]),
    );
  }
  if (out.length) ctx.stdout.write(`${out.join("\n")}\n`);
}

export const fix: LeafSpec = {
  name: "fix",
  summary: "open one upgrade pipeline per site to the WordPress version that fixes its open core records",
  description:
    "With --core: per site, the lowest WordPress major.minor that fixes every open core record (their fixed_in), never a downgrade, and no pipeline where one is active already. The pipelines are opened, not waited for (siteops upgrade status, siteops upgrade approve). Plugin and theme records are listed with the version that fixes them: the service has no endpoint to update them.",
  flags: [
    { name: "core", type: "boolean", description: "fix WordPress core records through upgrade pipelines (required: the only kind the service can fix)" },
    ...SELECTION_FLAGS,
    ALLOW_EMPTY_FLAG,
    { name: "require-approval", type: "boolean", negatable: true, description: "the pipelines stop in awaiting_approval until approved (default: yes)" },
    { name: "dry-run", short: "n", type: "boolean", description: "show the pipelines that would be opened; open none" },
  ],
  jsonFields: ["site", "outcome", "decision", "target_wp_version", "pipeline", "fixes", "unfixable", "extensions", "error"],
  examples: ["siteops vulns fix --core --all --dry-run", "siteops vulns fix --core --site Blog --no-require-approval"],
  async run(ctx, parsed: Parsed) {
    if (flagBool(parsed, "core") !== true)
      throw new UsageError("give --core: WordPress core records are fixed through upgrade pipelines; the service has no endpoint to update plugins or themes");
    const selection = selectionOf(parsed);
    const requireApproval = flagBool(parsed, "require-approval") ?? true;
    const dryRun = flagBool(parsed, "dry-run") === true;
    const client = await ctx.client();
    const fleet = await selectCheckedFleet(client, selection, parsed, ctx.signal);
    if (fleet.notice !== undefined && !ctx.quiet) ctx.stderr.write(`${fleet.notice}\n`);
    const sites = fleet.sites;
    const results = await fixCoreVulnerabilities(client, sites, { requireApproval, dryRun, signal: ctx.signal });
    const rows = results.map((r) => rowOf(ctx, r));
    printRows(ctx, rows);
    const failed = rows.filter((r) => r.error);
    for (const r of failed) ctx.stderr.write(`${ctx.stderr.style.red("error:")} ${clean(r.site.name)}: ${r.error!.message}\n`);
    if (!ctx.quiet) {
      const opened = rows.filter((r) => r.outcome === (dryRun ? "planned" : "opened")).length;
      const active = rows.filter((r) => r.outcome === "active").length;
      ctx.stderr.write(
        `${dryRun ? "would open" : "opened"} ${opened} pipeline${opened === 1 ? "" : "s"} for ${sites.length} site${sites.length === 1 ? "" : "s"}${active ? `; ${active} already had one active` : ""}${failed.length ? `; ${failed.length} failed` : ""}${opened && requireApproval && !dryRun ? "; they await approval: siteops upgrade approve --site SITE" : ""}\n`,
      );
    }
    // Refused credentials or permission (the core stops asking): exit 3, as everywhere.
    return worstExitCode(results.flatMap((r) => (r.error === undefined ? [] : [exitCodeOf(r.error)])));
  },
};
