// `siteops vulns list|update|report|apply|fix`: vulnerability records of one site or the fleet, dismissing or
// reopening one; report.ts the fleet report (SARIF included), apply.ts and fix.ts the policy and the core fix.

import { flagInt, flagList, flagString } from "../../args.js";
import type {
  DismissedReason,
  Site,
  VulnerabilityRecord,
  VulnerabilityRecordUpdateParams,
  VulnerabilitySeverity,
  VulnerabilityStatus,
} from "../../../src/index.js";
import type { Context } from "../../context.js";
import { EXIT, UsageError } from "../../exit-codes.js";
import { formatAgo } from "../../output/format.js";
import { printObject, printStream } from "../../output/printer.js";
import { statusColor } from "../../output/style.js";
import { paintCell, type Column } from "../../output/table.js";
import { defineCommand } from "../../runner.js";
import { SELECTION_FLAGS, selectionOf, selectSites, siteIdOf } from "../../sites.js";
import type { LeafSpec } from "../../spec.js";
import { jsonFieldsOf } from "../../wire-fields.js";
import { hasPolicyMarker } from "../../../src/fleet.js";
import { report } from "./report.js";
import { apply } from "./apply.js";
import { fix } from "./fix.js";
import { vulnerabilityRecordFields } from "../../../wire/generated/fields.js";

const FIELDS = jsonFieldsOf(vulnerabilityRecordFields);
const SEVERITIES = vulnerabilityRecordFields.severity.values satisfies readonly VulnerabilitySeverity[];
const STATUSES = vulnerabilityRecordFields.status.values satisfies readonly VulnerabilityStatus[];
const REASONS: readonly DismissedReason[] = ["fix_started", "inaccurate", "no_bandwidth", "not_used", "tolerable_risk"];

function columns(ctx: Context, sites?: Map<string, Site>): Column<VulnerabilityRecord>[] {
  const style = ctx.stdout.style;
  const severity = (w: string) => (w === "critical" || w === "high" ? style.red(w) : w === "medium" ? style.yellow(w) : w);
  const cols: Column<VulnerabilityRecord>[] = [
    { header: "ID", value: (v) => v.id },
    { header: "SEVERITY", value: (v) => v.severity, color: paintCell(severity) },
    { header: "STATUS", value: (v) => v.status, color: paintCell((w) => statusColor(style, w)) },
    { header: "SOFTWARE", value: (v) => `${v.software.slug} ${v.software.installed_version}` },
    { header: "FIXED IN", value: (v) => v.fixed_in },
    { header: "CVE", value: (v) => v.cve },
    { header: "DETECTED", value: (v) => v.detected_at, display: (v) => formatAgo(v.detected_at) },
    { header: "TITLE", value: (v) => v.title },
  ];
  if (sites) cols.unshift({ header: "SITE", value: (v) => sites.get(v.site_id)?.name ?? v.site_id });
  return cols;
}

function listFilter(values: string[], allowed: readonly string[], flag: string): Set<string> {
  const items = values
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
  const bad = items.filter((i) => !allowed.includes(i));
  if (bad.length) throw new UsageError(`--${flag} must be one of ${allowed.join(", ")} (got ${bad.map((b) => JSON.stringify(b)).join(", ")})`);
  return new Set(items);
}

const list: LeafSpec = {
  name: "list",
  aliases: ["ls"],
  summary: "list vulnerability records of one or more sites",
  flags: [
    // --status is the record's state here; the sites' state filter is --site-status.
    ...SELECTION_FLAGS.map((f) => (f.name === "status" ? { ...f, name: "site-status", description: "with --all: only sites in this state" } : f)),
    {
      name: "status",
      type: "string",
      multiple: true,
      value: "STATE",
      description: "only records in this state (open, ignored, fixed; comma-separated or repeated)",
    },
    { name: "severity", type: "string", multiple: true, value: "LEVEL", description: "only these severities (low, medium, high, critical)" },
    { name: "limit", type: "string", value: "N", description: "at most N records in all" },
  ],
  jsonFields: FIELDS,
  examples: ["siteops vulns list --all --status open --severity high,critical"],
  async run(ctx, parsed) {
    const selection = selectionOf({ ...parsed, flags: { ...parsed.flags, status: parsed.flags["site-status"] } });
    const states = listFilter(flagList(parsed, "status"), STATUSES, "status");
    const severities = listFilter(flagList(parsed, "severity"), SEVERITIES, "severity");
    const limit = flagInt(parsed, "limit", 1, Number.MAX_SAFE_INTEGER);
    const client = await ctx.client();
    const sites = await selectSites(client, selection, ctx.signal);
    async function* all(): AsyncGenerator<VulnerabilityRecord> {
      for (const site of sites) yield* client.vulnerabilityRecords.list(site.id, { per_page: 100 }, { signal: ctx.signal });
    }
    await printStream(ctx, all(), columns(ctx, sites.length > 1 ? new Map(sites.map((s) => [s.id, s])) : undefined), {
      limit,
      filter: (v) => (states.size === 0 || states.has(v.status)) && (severities.size === 0 || severities.has(v.severity)),
      empty: "no vulnerability records",
    });
    return EXIT.OK;
  },
};

const update: LeafSpec = {
  name: "update",
  summary: "dismiss (ignore) a vulnerability record with a reason, or reopen it",
  flags: [
    { name: "site", short: "s", type: "string", value: "ID|NAME", description: "the record's site (required)" },
    { name: "status", type: "string", value: "STATE", choices: ["ignored", "open"] satisfies VulnerabilityStatus[], description: "the new state" },
    { name: "reason", type: "string", value: "REASON", choices: REASONS, description: "why it is ignored (required with --status ignored)" },
    { name: "comment", type: "string", value: "TEXT", description: "a note with the dismissal" },
  ],
  args: [{ name: "VULN_ID", required: true }],
  jsonFields: FIELDS,
  examples: ["siteops vulns update vuln_... --site Blog --status ignored --reason not_used --comment 'plugin disabled'"],
  async run(ctx, parsed) {
    const ref = flagString(parsed, "site");
    if (!ref) throw new UsageError("--site ID|NAME is required: records are addressed within their site");
    const status = flagString(parsed, "status");
    const reason = flagString(parsed, "reason") as DismissedReason | undefined;
    const comment = flagString(parsed, "comment");
    if (!status) throw new UsageError("--status ignored|open is required");
    if (comment !== undefined && hasPolicyMarker(comment))
      throw new UsageError("--comment: [siteops-policy...] marks the dismissals siteops vulns apply makes; write the comment without it");
    let body: VulnerabilityRecordUpdateParams;
    if (status === "ignored") {
      if (!reason) throw new UsageError(`--status ignored needs --reason (${REASONS.join(", ")})`);
      body = { status: "ignored", dismissed_reason: reason, ...(comment !== undefined ? { dismissed_comment: comment } : {}) };
    } else {
      if (reason || comment !== undefined) throw new UsageError("--reason and --comment go with --status ignored");
      body = { status: "open" };
    }
    const client = await ctx.client();
    const siteId = await siteIdOf(client, ref, ctx.signal);
    const v = await client.vulnerabilityRecords.update(siteId, parsed.args[0]!, body, { signal: ctx.signal });
    printObject(ctx, v, [
      ["id", v.id],
      ["site", v.site_id],
      ["title", v.title],
      ["severity", v.severity],
      ["status", v.status],
      ["reason", v.dismissed_reason],
      ["comment", v.dismissed_comment],
      ["software", `${v.software.slug} ${v.software.installed_version}`],
      ["fixed in", v.fixed_in],
    ]);
    return EXIT.OK;
  },
};

export default defineCommand({
  name: "vulns",
  summary: "list, dismiss, report, accept by policy and fix vulnerability records",
  subcommands: [list, update, report, apply, fix],
});
