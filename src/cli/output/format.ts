// How sizes, durations, times and errors read in the CLI's output. Every string from the service is cleaned.

import {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  OperationFailedError,
  PermissionDeniedError,
  WaitTimeoutError,
} from "../../errors.js";
import { CliError } from "../exit-codes.js";
import { clean } from "../../sanitize.js";

import { apiErrorPhrase, maskSecrets } from "../../format.js";
export { formatBytes, formatDuration } from "../../format.js";

/** "3 min ago", "2 days ago" (terminals); scripts get the ISO time itself. */
export function formatAgo(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return "";
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return clean(iso);
  const s = Math.round((now - ms) / 1000);
  if (s < 0) return "in the future";
  if (s < 60) return "just now";
  const steps: [number, string][] = [
    [60, "min"],
    [3600, "h"],
    [86_400, "day"],
    [86_400 * 30, "month"],
    [86_400 * 365, "year"],
  ];
  let label = "min";
  let size = 60;
  for (const [secs, name] of steps) if (s >= secs) [size, label] = [secs, name];
  const n = Math.floor(s / size);
  const plural = n === 1 || label === "min" || label === "h" ? "" : "s";
  return `${n} ${label}${plural} ago`;
}

/** "2026-11-22 03:00" in the local time zone. */
export function formatLocalTime(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return clean(iso);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** One line describing a failure: the service's message, field errors, status and request id, plus what to do
 * where that is clear. Never a stack trace; `secrets` (the token) never appear. */
export function errorLine(err: unknown, secrets: readonly string[] = []): string {
  return hide(clean(describe(err)), secrets);
}

function describe(err: unknown): string {
  if (err instanceof CliError) return err.message;
  if (err instanceof AuthenticationError) return `${apiLine(err)} Check the credentials: siteops auth status.`;
  if (err instanceof PermissionDeniedError) return `${apiLine(err)} This needs the owner or admin role in the account.`;
  if (err instanceof APIError) return apiLine(err);
  if (err instanceof APIUserAbortError) return "interrupted";
  if (err instanceof WaitTimeoutError) return `${err.message.replace(/\.$/, "")} (raise --timeout, or use --no-wait).`;
  if (err instanceof APIConnectionError) return `cannot reach the service: ${err.message}`;
  if (err instanceof OperationFailedError) return err.message;
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

/** "Site Operations API 401: ..." with the status, the service's message and the request id. */
export function apiLine(err: APIError): string {
  const request = err.requestId ? `, request ${err.requestId}` : "";
  return `${apiErrorPhrase(err)} [HTTP ${err.status}${request}].`;
}

/** Replaces every occurrence of a secret. */
function hide(text: string, secrets: readonly string[]): string {
  return maskSecrets(text, secrets, "[REDACTED]");
}
