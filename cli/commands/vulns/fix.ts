// `siteops vulns fix --core SELECTION`: one upgrade pipeline per site to the lowest WordPress version that fixes
// every open core record (the core's fixCoreVulnerabilities: never a downgrade, never a second pipeline beside an
// active one), not waited for; plugin and theme records listed with the version that fixes them, which is
// installed in WordPress (the service has no endpoint to update them).

import {
  CORE_FIX_COLUMNS,
  CORE_FIX_ROW_FIELDS,
  coreFixLine,
  coreFixRows,
  EXTENSION_COLUMNS,
  EXTENSIONS_HEADING,
  fixCoreVulnerabilities,
  fixExtensions,
  VULNERABILITY_FIX_OPTIONS as OPTIONS,
} from "../../../src/fleet.js";
import type { Parsed } from "../../args.js";
import { exitCodeOf, UsageError, worstExitCode } from "../../exit-codes.js";
import { flagValue, optionFlags } from "../../option-flags.js";
import { errorLine } from "../../output/format.js";
import { printRecords, writeTable } from "../../output/printer.js";
import { clean } from "../../../common/sanitize.js";
import { ALLOW_EMPTY_FLAG, SELECTION_FLAGS, selectCheckedFleet, selectionOf } from "../../sites.js";
import type { LeafSpec } from "../../spec.js";

export const fix: LeafSpec = {
  name: "fix",
  summary: "open one upgrade pipeline per site to the WordPress version that fixes its open core records",
  description:
    "With --core: per site, the lowest WordPress major.minor that fixes every open core record (their fixed_in), never a downgrade, and no pipeline where one is active already. The pipelines are opened, not waited for (siteops upgrade status, siteops upgrade approve). Plugin and theme records are listed with the version that fixes them: the service has no endpoint to update them.",
  flags: [...optionFlags([OPTIONS.core]), ...SELECTION_FLAGS, ALLOW_EMPTY_FLAG, ...optionFlags([OPTIONS.requireApproval, OPTIONS.dryRun])],
  jsonFields: [...CORE_FIX_ROW_FIELDS],
  examples: ["siteops vulns fix --core --all --dry-run", "siteops vulns fix --core --site Blog --no-require-approval"],
  async run(ctx, parsed: Parsed) {
    const value = flagValue(parsed);
    if (value(OPTIONS.core) !== "true")
      throw new UsageError("give --core: WordPress core records are fixed through upgrade pipelines; the service has no endpoint to update plugins or themes");
    const requireApproval = value(OPTIONS.requireApproval) !== "false";
    const dryRun = value(OPTIONS.dryRun) === "true";
    const client = await ctx.client();
    const fleet = await selectCheckedFleet(client, selectionOf(parsed), parsed, ctx.signal);
    if (fleet.notice !== undefined && !ctx.quiet) ctx.stderr.write(`${fleet.notice}\n`);
    const results = await fixCoreVulnerabilities(client, fleet.sites, { requireApproval, dryRun, signal: ctx.signal });
    const rows = coreFixRows(results, (err) => errorLine(err, ctx.secrets));
    if (!printRecords(ctx, rows) && !ctx.quiet) {
      const style = ctx.stdout.style;
      const paint = (w: string) => (w.startsWith("failed") ? style.red(w) : w.startsWith("opened") || w.startsWith("would") ? style.green(w) : w);
      writeTable(ctx, rows, CORE_FIX_COLUMNS, { PIPELINE: paint });
      const extensions = fixExtensions(rows);
      if (extensions.length) ctx.stdout.write(`\n${EXTENSIONS_HEADING}\n`);
      writeTable(ctx, extensions, EXTENSION_COLUMNS);
    }
    for (const r of rows) if (r.error) ctx.stderr.write(`${ctx.stderr.style.red("error:")} ${clean(r.site.name)}: ${r.error.message}\n`);
    const approve = requireApproval ? "siteops upgrade approve --site SITE" : undefined;
    if (!ctx.quiet) ctx.stderr.write(`${coreFixLine(rows, { dryRun, sites: fleet.sites.length, approve })}\n`);
    // Refused credentials or permission (the core stops asking): exit 3, as everywhere.
    return worstExitCode(results.flatMap((r) => (r.error === undefined ? [] : [exitCodeOf(r.error)])));
  },
};
