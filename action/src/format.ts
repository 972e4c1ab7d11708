// How errors, sizes and durations read in the log, the annotations and the job summary.

import {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  OperationFailedError,
  PermissionDeniedError,
  WaitTimeoutError,
} from "../../src/index.js";

/** One line saying what failed and, where it helps, what to change. `secrets` never appear in it. */
export function errorLine(err: unknown, secrets: readonly string[] = []): string {
  return hide(describe(err), secrets);
}

function describe(err: unknown): string {
  if (err instanceof AuthenticationError) return `${apiLine(err)} Check 'api-token': it is missing, wrong or revoked.`;
  if (err instanceof PermissionDeniedError) return `${apiLine(err)} The token's user needs the owner or admin role for this.`;
  if (err instanceof APIError) return apiLine(err);
  if (err instanceof APIUserAbortError) return "Cancelled: the workflow run was cancelled while waiting; what was started carries on in the service.";
  if (err instanceof WaitTimeoutError) return `${err.message} Raise 'timeout-minutes', or set 'wait: false'.`;
  if (err instanceof APIConnectionError) return `Cannot reach the Site Operations service: ${err.message}`;
  if (err instanceof OperationFailedError) return err.message;
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

function apiLine(err: APIError): string {
  const fields = err.errors
    ? Object.entries(err.errors)
        .map(([k, v]) => `${k} ${v.join(", ")}`)
        .join("; ")
    : "";
  const message = (err.error ?? err.message.replace(/^\d+\s*/, "")).replace(/\.$/, "");
  const detail = fields && !message.includes(fields) ? ` (${fields})` : "";
  const request = err.requestId ? ` Request id: ${err.requestId}.` : "";
  return `Site Operations API ${err.status}: ${message}${detail}.${request}`;
}

/** Replaces every occurrence of a secret with ***, as the runner's log masking does. */
function hide(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join("***");
  return out;
}

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return "";
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s - m * 60)} s`;
}
