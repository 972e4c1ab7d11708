// `siteops vulns apply --policy FILE [--dry-run]`: accepted risks as reviewed code. Every site of the account is
// read; records an acceptance in force matches are dismissed with its reason and justification, records this
// policy dismissed that none matches any more are reopened (the core's applyVulnerabilityPolicy), and an
// acceptance that matches nothing, has expired or names an unknown site is a `warning:` line on stderr.

import { applyVulnerabilityPolicy, type PolicyChangeResult, VulnerabilityPolicyError } from "../../../src/fleet.js";
import { flagBool, flagString } from "../../args.js";
import type { Context } from "../../context.js";
import { EXIT, UsageError } from "../../exit-codes.js";
import { errorInfo, type ErrorInfo } from "../../jobs/report.js";
import { printRecords } from "../../output/printer.js";
import { paintCell, renderTable, type Column } from "../../output/table.js";
import { clean } from "../../../common/sanitize.js";
import { listSites } from "../../sites.js";
import type { LeafSpec } from "../../spec.js";
import { readPolicyFile } from "./apply-file.js";

/** One change as printed and in --json. */
interface ApplyRow {
  action: "dismissed" | "updated" | "reopened" | "would_dismiss" | "would_update" | "would_reopen" | "failed";
  site: { id: string; name: string };
  record: { id: string; cve: string | null; severity: string; software: string; installed_version: string };
  /** The acceptance behind it (`accept[0]`), or null for a record no acceptance names any more. */
  acceptance: string | null;
  dismissed_reason: string | null;
  dismissed_comment: string | null;
  error: ErrorInfo | null;
}

const PAST = { dismiss: "dismissed", update: "updated", reopen: "reopened" } as const;

function rowOf(ctx: Context, r: PolicyChangeResult, dryRun: boolean): ApplyRow {
  const body = r.body.status === "ignored" ? r.body : undefined;
  return {
    action: r.error !== undefined ? "failed" : dryRun ? (`would_${r.action}` as ApplyRow["action"]) : PAST[r.action],
    site: { id: r.site.id, name: r.site.name },
    record: {
      id: r.record.id,
      cve: r.record.cve ?? null,
      severity: r.record.severity,
      software: r.record.software?.slug ?? "",
      installed_version: r.record.software?.installed_version ?? "",
    },
    acceptance: r.acceptance ? `accept[${r.acceptance.index}]` : null,
    dismissed_reason: body?.dismissed_reason ?? null,
    dismissed_comment: body?.dismissed_comment ?? null,
    error: r.error === undefined ? null : errorInfo(r.error, ctx.secrets),
  };
}

function printRows(ctx: Context, rows: ApplyRow[]): void {
  if (printRecords(ctx, rows) || ctx.quiet || rows.length === 0) return;
  const style = ctx.stdout.style;
  const paint = (w: string) => (w.endsWith("reopened") || w.endsWith("reopen") ? style.yellow(w) : w === "failed" ? style.red(w) : style.green(w));
  const columns: Column<ApplyRow>[] = [
    { header: "ACTION", value: (r) => r.action, color: paintCell(paint) },
    { header: "SITE", value: (r) => r.site.name },
    { header: "RECORD", value: (r) => r.record.id },
    { header: "SEVERITY", value: (r) => r.record.severity },
    { header: "CVE", value: (r) => r.record.cve },
    { header: "SOFTWARE", value: (r) => `${r.record.software} ${r.record.installed_version}` },
    { header: "ACCEPTANCE", value: (r) => r.acceptance ?? "(none in force)" },
  ];
  ctx.stdout.write(`${renderTable(rows, columns, { tty: ctx.stdout.isTTY, style, width: ctx.stdout.columns }).join("\n")}\n`);
}

export const apply: LeafSpec = {
  name: "apply",
  summary: "dismiss the records a policy file accepts, reopen those whose acceptance expired",
  description:
    "The policy file (YAML or JSON; schema: docs/schemas/vulnerability-policy.schema.json) lists accepted risks: a CVE, record id or software slug, the sites, a reason, a justification and an expiry. Records it dismisses carry a [siteops-policy] marker in their comment; only those are ever reopened. Every site of the account is read.",
  flags: [
    { name: "policy", type: "string", value: "FILE", description: "the policy file, e.g. .siteops/vulnerabilities.yml (required)" },
    { name: "dry-run", short: "n", type: "boolean", description: "show what would change; change nothing" },
  ],
  jsonFields: ["action", "site", "record", "acceptance", "dismissed_reason", "dismissed_comment", "error"],
  examples: ["siteops vulns apply --policy .siteops/vulnerabilities.yml --dry-run", "siteops vulns apply --policy .siteops/vulnerabilities.yml"],
  async run(ctx, parsed) {
    const file = flagString(parsed, "policy");
    if (file === undefined) throw new UsageError("--policy FILE is required (e.g. .siteops/vulnerabilities.yml)");
    const policy = await readPolicyFile(file);
    const dryRun = flagBool(parsed, "dry-run") === true;
    const client = await ctx.client();
    const sites = await listSites(client, ctx.signal);
    const result = await applyVulnerabilityPolicy(client, policy, sites, { dryRun, signal: ctx.signal }).catch((err: unknown) => {
      // A `sites:` name several sites share: refused before any change, as the file's other problems.
      throw err instanceof VulnerabilityPolicyError ? new UsageError(`--policy ${file}: ${err.message}`) : err;
    });
    for (const w of result.warnings) ctx.stderr.write(`${ctx.stderr.style.yellow("warning:")} ${clean(w.message)}\n`);
    const rows = result.results.map((r) => rowOf(ctx, r, dryRun));
    printRows(ctx, rows);
    const failed = rows.filter((r) => r.error);
    for (const r of failed) ctx.stderr.write(`${ctx.stderr.style.red("error:")} ${clean(r.site.name)} ${r.record.id}: ${r.error!.message}\n`);
    for (const f of result.failures)
      ctx.stderr.write(
        `${ctx.stderr.style.red("error:")} ${clean(f.site.name)} (${f.site.id}): its records could not be read, left as they are: ${errorInfo(f.error, ctx.secrets).message}\n`,
      );
    if (!ctx.quiet) {
      const said = (["dismiss", "update", "reopen"] as const).map((kind) => {
        const n = result.changes.filter((c) => c.action === kind).length;
        return dryRun ? `would ${kind} ${n}` : `${PAST[kind]} ${n}`;
      });
      const of = `${sites.length} site${sites.length === 1 ? "" : "s"}`;
      ctx.stderr.write(`${said.join(", ")} records of ${of} (${result.unchanged} unchanged)${failed.length ? `; ${failed.length} failed` : ""}\n`);
    }
    return failed.length || result.failures.length ? EXIT.FAILED : EXIT.OK;
  },
};
