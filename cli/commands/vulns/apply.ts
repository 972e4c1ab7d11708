// `siteops vulns apply --policy FILE [--dry-run]`: accepted risks as reviewed code, under the job's lock. Glue only:
// the file is read by common/policy-text.ts (as the action reads 'policy-file': not through a link, a regular
// file, capped; the YAML parser loaded only then) and checked by the core's parseVulnerabilityPolicy; the plan,
// the changes, the scope (every site of the account), what fails the run and the counts are the core's
// applyVulnerabilityPolicy. An acceptance that matches nothing or names no site is an error (exit 1) unless
// --allow-unmatched; an expired one a warning.

import { FileSyntaxError, parseDataText, readPolicyText } from "../../../common/policy-text.js";
import { clean } from "../../../common/sanitize.js";
import { UserFileError } from "../../../common/user-file.js";
import {
  applyVulnerabilityPolicy,
  isRefusal,
  type PolicyChangeResult,
  parseVulnerabilityPolicy,
  type VulnerabilityPolicy,
  VulnerabilityPolicyError,
} from "../../../src/fleet.js";
import type { Site } from "../../../src/index.js";
import { flagBool, flagString } from "../../args.js";
import type { Context } from "../../context.js";
import { EXIT, UsageError } from "../../exit-codes.js";
import { LOCK_FLAGS } from "../../jobs/flags.js";
import { errorInfo, type ErrorInfo } from "../../jobs/report.js";
import { runJob } from "../../jobs/run-job.js";
import { printRecords } from "../../output/printer.js";
import { paintCell, renderTable, type Column } from "../../output/table.js";
import { ALLOW_EMPTY_FLAG } from "../../sites.js";
import type { LeafSpec } from "../../spec.js";

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
    "The policy file (YAML or JSON; schema: docs/schemas/vulnerability-policy.schema.json) lists accepted risks: a CVE, record id or software slug, the sites, a reason, a justification and an expiry. Records it dismisses carry a [siteops-policy] marker in their comment; only those are ever reopened. Every site of the account is read. Exit 1 when a change fails, a site cannot be read, or an acceptance matches no record or names a site that does not exist (unless --allow-unmatched).",
  flags: [
    { name: "policy", type: "string", value: "FILE", description: "the policy file, e.g. .siteops/vulnerabilities.yml (required)" },
    { name: "dry-run", short: "n", type: "boolean", description: "show what would change; change nothing" },
    {
      name: "allow-unmatched",
      type: "boolean",
      description: "an acceptance that matches no record, or names a site that does not exist, is a warning instead of an error (exit 1)",
    },
    ALLOW_EMPTY_FLAG,
    ...LOCK_FLAGS,
  ],
  jsonFields: ["action", "site", "record", "acceptance", "dismissed_reason", "dismissed_comment", "error"],
  examples: ["siteops vulns apply --policy .siteops/vulnerabilities.yml --dry-run", "siteops vulns apply --policy .siteops/vulnerabilities.yml"],
  async run(ctx, parsed) {
    const file = flagString(parsed, "policy");
    if (file === undefined) throw new UsageError("--policy FILE is required (e.g. .siteops/vulnerabilities.yml)");
    const policy = await readPolicyFile(file);
    const dryRun = flagBool(parsed, "dry-run") === true;
    const allowUnmatched = flagBool(parsed, "allow-unmatched") === true;
    // Under the job's lock: two applies at once would each send, and each count, the same changes.
    return runJob(ctx, parsed, {
      command: "vulns apply",
      selection: { all: true },
      outbound: false,
      work: async ({ sites }) => ({ code: await applyPolicy(ctx, file, policy, sites, { dryRun, allowUnmatched }), report: {} }),
    });
  },
};

/** A policy file, read and checked: a UsageError naming `--policy FILE` for anything wrong with it (exit 2). */
async function readPolicyFile(file: string): Promise<VulnerabilityPolicy> {
  try {
    return parseVulnerabilityPolicy(await parseDataText(file, readPolicyText(file, { ownOnly: true })));
  } catch (err) {
    if (err instanceof UserFileError || err instanceof FileSyntaxError || err instanceof VulnerabilityPolicyError)
      throw new UsageError(`--policy ${file}: ${err.message}`);
    throw err;
  }
}

async function applyPolicy(
  ctx: Context,
  file: string,
  policy: VulnerabilityPolicy,
  sites: readonly Site[],
  options: { dryRun: boolean; allowUnmatched: boolean },
): Promise<number> {
  const { dryRun } = options;
  const result = await applyVulnerabilityPolicy(await ctx.client(), policy, sites, { ...options, scope: "account", signal: ctx.signal }).catch(
    (err: unknown) => {
      // A `sites:` name several sites share: refused before any change, as the file's other problems.
      throw err instanceof VulnerabilityPolicyError ? new UsageError(`--policy ${file}: ${err.message}`) : err;
    },
  );
  const style = ctx.stderr.style;
  for (const w of result.warnings) ctx.stderr.write(`${w.level === "error" ? style.red("error:") : style.yellow("warning:")} ${clean(w.message)}\n`);
  const rows = result.results.map((r) => rowOf(ctx, r, dryRun));
  printRows(ctx, rows);
  // A refusal of the credentials is said once, with the number of changes it stopped, not once per change.
  const refused = result.results.filter((r) => isRefusal(r.error)).length;
  result.results.forEach((r, i) => {
    const error = rows[i]!.error;
    if (error && !isRefusal(r.error)) ctx.stderr.write(`${style.red("error:")} ${clean(r.site.name)} ${r.record.id}: ${error.message}\n`);
  });
  if (result.refused !== undefined)
    ctx.stderr.write(
      `${style.red("error:")} ${errorInfo(result.refused, ctx.secrets).message}: ${refused} change${refused === 1 ? "" : "s"} not made (left as they are)\n`,
    );
  for (const f of result.failures)
    ctx.stderr.write(
      `${style.red("error:")} ${clean(f.site.name)} (${f.site.id}): its records could not be read, left as they are: ${errorInfo(f.error, ctx.secrets).message}\n`,
    );
  const { unmatched } = result;
  if (unmatched)
    ctx.stderr.write(
      `${style.red("error:")} ${unmatched} entr${unmatched === 1 ? "y" : "ies"} of ${file} match${unmatched === 1 ? "es" : ""} nothing: fix the file, or give --allow-unmatched\n`,
    );
  if (!ctx.quiet) {
    const { counts } = result;
    const said = (["dismiss", "update", "reopen"] as const).map((kind) => (dryRun ? `would ${kind} ${counts[kind]}` : `${PAST[kind]} ${counts[kind]}`));
    const of = `${sites.length} site${sites.length === 1 ? "" : "s"}`;
    ctx.stderr.write(`${said.join(", ")} records of ${of} (${counts.unchanged} unchanged)${counts.failed ? `; ${counts.failed} failed` : ""}\n`);
  }
  return result.refused !== undefined ? EXIT.AUTH : result.failed ? EXIT.FAILED : EXIT.OK;
}
