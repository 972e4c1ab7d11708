// `vulns report --format sarif`: the core's SARIF of the report, located at the sites' declarations under
// --declarations DIR; on stderr, the sites declared nowhere there and what GitHub code scanning's limits cut.

import { statSync } from "node:fs";
import path from "node:path";
import { findSiteDeclarations, vulnerabilitySarif, type VulnerabilityReport } from "../../../src/fleet.js";
import { VERSION } from "../../../common/version.js";
import { clean } from "../../../common/sanitize.js";
import type { Context } from "../../context.js";
import { UsageError } from "../../exit-codes.js";

/** --declarations DIR checked before any request: a directory inside the current one (the repository's root, which
 * the SARIF's paths are relative to, as code scanning reads them). */
export function declarationsDir(dir: string): string {
  if (dir === "") throw new UsageError("--declarations needs a directory");
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--declarations: ${dir} is not a directory`);
  const relative = path.relative(process.cwd(), path.resolve(dir));
  if (relative.startsWith("..") || path.isAbsolute(relative))
    throw new UsageError(`--declarations: ${dir} is outside the current directory; run siteops from the repository's root (SARIF paths are relative to it)`);
  return dir;
}

/** The SARIF text of the report. */
export function sarifText(ctx: Context, report: VulnerabilityReport, declarations: string | undefined): string {
  const found = declarations === undefined ? undefined : findSiteDeclarations(declarations, report.sites);
  if (found && !ctx.quiet) {
    const missing = report.sites.filter((s) => !found.has(s.id));
    if (missing.length) {
      const names = missing
        .slice(0, 5)
        .map((s) => `${clean(s.name)} (${s.id})`)
        .join(", ");
      ctx.stderr.write(
        `warning: no declaration under ${declarations} for ${missing.length} site${missing.length === 1 ? "" : "s"}: ${names}${missing.length > 5 ? ", ..." : ""}; ` +
          "their results point at siteops/sites/<site id>\n",
      );
    }
  }
  const sarif = vulnerabilitySarif(report, { toolVersion: VERSION, ...(found ? { declarations: found } : {}) });
  if (sarif.cut) {
    const limit = sarif.cut === "results" ? "25,000 results a run" : "10 MB a file (gzip-compressed)";
    ctx.stderr.write(
      `warning: GitHub code scanning takes at most ${limit}: the SARIF holds the ${sarif.kept} most severe of ${sarif.total} results ` +
        "(the run's properties.truncated says so too); siteops vulns report --format json lists them all\n",
    );
  }
  return sarif.text;
}
