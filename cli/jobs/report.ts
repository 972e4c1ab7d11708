// --report FILE: a JSON document of the run for monitoring, written whole (temporary file, then rename) so
// that a reader never sees half of one, also when the run failed or was interrupted. The report is owner-only
// (0600) and its temporary file is created exclusively under a random name, so a link planted beside it in a
// shared directory never receives the bytes (config.ts writeFileExclusive).

import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { VERSION } from "../src/internal/version.js";
import { writeFileExclusive } from "./config.js";
import { UsageError } from "./exit-codes.js";

/** Checks before the run that the report can be written where asked. */
export function checkReportPath(file: string): string {
  const absolute = path.resolve(file);
  const dir = path.dirname(absolute);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--report ${file}: the directory ${dir} does not exist`);
  if (existsSync(absolute) && statSync(absolute).isDirectory()) throw new UsageError(`--report ${file}: is a directory`);
  return absolute;
}

export interface ReportHeader {
  command: string;
  base_url: string;
  started_at: string;
}

/** The report document: the header, when it finished, the exit code, then the command's body. */
export function buildReport(header: ReportHeader, exitCode: number, body: Record<string, unknown>) {
  const finished = new Date();
  return {
    siteops_version: VERSION,
    ...header,
    finished_at: finished.toISOString(),
    duration_ms: finished.getTime() - Date.parse(header.started_at),
    exit_code: exitCode,
    ...body,
  };
}

export function writeReport(file: string, report: ReturnType<typeof buildReport>): void {
  writeFileExclusive(file, `${JSON.stringify(report, null, 2)}\n`);
}
