// A job's JSON report (--report FILE), and the JSON form of an error in it and in --json output.
// The report is a document of the run for monitoring, written whole (temporary file, then rename) so that a
// reader never sees half of one, also when the run failed or was interrupted. The report is owner-only
// (0600) and its temporary file is created exclusively under a random name, so a link planted beside it in a
// shared directory never receives the bytes (common/private-file.ts).

import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { type ErrorFacts, errorFacts } from "../../src/fleet.js";
import { VERSION } from "../../common/version.js";
import { writeFileExclusive } from "../../common/private-file.js";
import { UsageError } from "../exit-codes.js";
import { errorLine } from "../output/format.js";

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

/** The JSON form of a failure in reports and --json output (the core's ErrorFacts: code, http_status, request_id),
 * its message the CLI's error line. */
export type ErrorInfo = ErrorFacts;

export function errorInfo(err: unknown, secrets: readonly string[] = []): ErrorInfo {
  return errorFacts(err, (e) => errorLine(e, secrets));
}
