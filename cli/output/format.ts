// How sizes, durations, times and errors read in the CLI's output. Every string from the service is cleaned.

import { describeError, EmptySelectionError } from "../../src/fleet.js";
import { AuthenticationError } from "../../src/index.js";
import { clean } from "../../common/sanitize.js";
export { formatBytes, formatDuration } from "../../common/format.js";

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

/** One line describing a failure (the core's describeError, with the CLI's advice): the service's message,
 * field errors, status and request id. Never a stack trace; `secrets` (the token) never appear. */
export function errorLine(err: unknown, secrets: readonly string[] = []): string {
  return clean(
    describeError(err, {
      advice: {
        authentication: authenticationAdvice,
        permission: "This needs the owner or admin role in the account.",
        timeout: "Raise --timeout, or use --no-wait.",
        other: (e) => (e instanceof EmptySelectionError ? "Give --allow-empty if that is expected." : undefined),
      },
      aborted: "interrupted",
      secrets,
    }),
  );
}

/** What to do about refused credentials, by where the token came from (cli/context.ts names the source). */
function authenticationAdvice(err: unknown): string {
  const source = err instanceof AuthenticationError ? err.credentialSource : undefined;
  if (source === "SITEOPS_API_TOKEN") return "Set SITEOPS_API_TOKEN to a valid API token, or unset it to use the saved login (siteops auth status).";
  if (source === "stdin") return "Give a valid API token on stdin (siteops auth login --with-token).";
  if (source?.startsWith("the saved login")) return "Log in again: siteops auth login (with the same --profile; siteops auth status shows the login).";
  return "Check the credentials: siteops auth status.";
}
