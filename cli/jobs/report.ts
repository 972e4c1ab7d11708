// A job's JSON report (--report FILE), and the JSON form of an error in it and in --json output.
// The report is a document of the run for monitoring, written whole (temporary file, then rename) so that a
// reader never sees half of one, also when the run failed or was interrupted. The report is owner-only
// (0600) and its temporary file is created exclusively under a random name, so a link planted beside it in a
// shared directory never receives the bytes (common/private-file.ts).

import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { APIError, SiteOpsError } from "../../src/index.js";
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

/** The JSON form of a failure in reports and --json output. */
export interface ErrorInfo {
  message: string;
  /** Stable code: the core's (NOT_FOUND, OPERATION_FAILED, WAIT_TIMEOUT, ...) or the CLI's. */
  code: string;
  http_status?: number;
  request_id?: string;
}

export function errorInfo(err: unknown, secrets: readonly string[] = []): ErrorInfo {
  const info: ErrorInfo = { message: errorLine(err, secrets), code: err instanceof SiteOpsError ? err.code : "ERROR" };
  if (err instanceof APIError) {
    info.http_status = err.status;
    if (err.requestId) info.request_id = err.requestId;
  }
  return info;
}
