// `siteops vulns list|update|report|apply|fix`: vulnerability records of one site or the fleet, dismissing or
// reopening one; report.ts the fleet report (SARIF included), apply.ts and fix.ts the policy and the core fix.

import { flagInt, flagList, flagString } from "../../args.js";
import type { Site, VulnerabilityRecord } from "../../../src/index.js";
import { RECORD_COLUMNS, readRecordFilter, readRecordUpdate, recordFacts, VULNERABILITY_RECORD_OPTIONS as OPTIONS } from "../../../src/fleet.js";
import type { Context } from "../../context.js";
import { EXIT, UsageError } from "../../exit-codes.js";
import { flagLabel, flagValue, optionFlags, refuseProblems } from "../../option-flags.js";
import { formatAgo } from "../../output/format.js";
import { printObject, printStream } from "../../output/printer.js";
import { severityColor, statusColor } from "../../output/style.js";
import { paintCell, type Column } from "../../output/table.js";
import { defineCommand } from "../../runner.js";
import { SELECTION_FLAGS, selectionOf, selectSites, siteIdOf } from "../../sites.js";
import type { LeafSpec } from "../../spec.js";
import { jsonFieldsOf } from "../../wire-fields.js";
import { report } from "./report.js";
import { apply } from "./apply.js";
import { fix } from "./fix.js";
import { vulnerabilityRecordFields } from "../../../wire/generated/fields.js";

const FIELDS = jsonFieldsOf(vulnerabilityRecordFields);

/** The core's columns with the terminal's colours and relative times; SITE first when the listing spans sites. */
function columns(ctx: Context, sites?: Map<string, Site>): Column<VulnerabilityRecord>[] {
  const style = ctx.stdout.style;
  const terminal: Record<string, Partial<Column<VulnerabilityRecord>>> = {
    SEVERITY: { color: paintCell((w) => severityColor(style, w)) },
    STATUS: { color: paintCell((w) => statusColor(style, w)) },
    DETECTED: { display: (v) => formatAgo(v.detected_at) },
  };
  const cols: Column<VulnerabilityRecord>[] = RECORD_COLUMNS.map((c) => ({ ...c, ...terminal[c.header] }));
  if (sites) cols.unshift({ header: "SITE", value: (v) => sites.get(v.site_id)?.name ?? v.site_id });
  return cols;
}

const list: LeafSpec = {
  name: "list",
  aliases: ["ls"],
  summary: "list vulnerability records of one or more sites",
  flags: [
    // --status is the record's state here; the sites' state filter is --site-status.
    ...SELECTION_FLAGS.map((f) => (f.name === "status" ? { ...f, name: "site-status", description: "with --all: only sites in this state" } : f)),
    ...optionFlags([OPTIONS.status, OPTIONS.severity, OPTIONS.limit]),
  ],
  jsonFields: FIELDS,
  examples: ["siteops vulns list --all --status open --severity high,critical"],
  async run(ctx, parsed) {
    const selection = selectionOf({ ...parsed, flags: { ...parsed.flags, status: parsed.flags["site-status"] } });
    const filter = readRecordFilter({ status: flagList(parsed, "status"), severity: flagList(parsed, "severity") }, flagLabel);
    refuseProblems(filter.problems);
    const limit = flagInt(parsed, "limit", 1, Number.MAX_SAFE_INTEGER);
    const client = await ctx.client();
    const sites = await selectSites(client, selection, ctx.signal);
    async function* all(): AsyncGenerator<VulnerabilityRecord> {
      for (const site of sites) yield* client.vulnerabilityRecords.list(site.id, { per_page: 100 }, { signal: ctx.signal });
    }
    const bySite = sites.length > 1 ? new Map(sites.map((s) => [s.id, s])) : undefined;
    await printStream(ctx, all(), columns(ctx, bySite), { limit, filter: filter.keep, empty: "no vulnerability records" });
    return EXIT.OK;
  },
};

const update: LeafSpec = {
  name: "update",
  summary: "dismiss (ignore) a vulnerability record with a reason, or reopen it",
  flags: optionFlags([OPTIONS.site, OPTIONS.newStatus, OPTIONS.reason, OPTIONS.comment]),
  args: [{ name: "VULN_ID", required: true }],
  jsonFields: FIELDS,
  examples: ["siteops vulns update vuln_... --site Blog --status ignored --reason not_used --comment 'plugin disabled'"],
  async run(ctx, parsed) {
    const ref = flagString(parsed, "site");
    if (!ref) throw new UsageError("--site ID|NAME is required: records are addressed within their site");
    const value = flagValue(parsed);
    const asked = readRecordUpdate({ status: value(OPTIONS.newStatus), reason: value(OPTIONS.reason), comment: value(OPTIONS.comment) }, flagLabel);
    if (asked.problem !== undefined) throw new UsageError(asked.problem);
    const client = await ctx.client();
    const siteId = await siteIdOf(client, ref, ctx.signal);
    const v = await client.vulnerabilityRecords.update(siteId, parsed.args[0]!, asked.body, { signal: ctx.signal });
    printObject(ctx, v, recordFacts(v));
    return EXIT.OK;
  },
};

export default defineCommand({
  name: "vulns",
  summary: "list, dismiss, report, accept by policy and fix vulnerability records",
  subcommands: [list, update, report, apply, fix],
});
