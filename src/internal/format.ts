// How sizes and durations read for people: the CLI's tables and progress lines and the GitHub Action's log and
// job summary print them alike, and the API errors and secrets in their error lines.

import type { APIError } from "../errors.js";

/** 512 B, 1.5 KiB, 20 MiB; "" for an unknown size. */
export function formatBytes(bytes: number | null | undefined): string {
  if (typeof bytes !== "number" || !Number.isFinite(bytes)) return "";
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

/** 250 ms, 4.2 s, 3 min 5 s, 2 h 10 min. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.round(s - m * 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** An API error as one phrase: the service's message without its final period, and its field errors in
 * parentheses when the message does not already list them (`Validation failed (name can't be blank)`). */
export function apiErrorPhrase(err: APIError): string {
  const fields = err.errors
    ? Object.entries(err.errors)
        .map(([k, v]) => `${k} ${v.join(", ")}`)
        .join("; ")
    : "";
  const message = (err.error ?? err.message.replace(/^\d+\s*/, "")).replace(/\.$/, "");
  return fields && !message.includes(fields) ? `${message} (${fields})` : message;
}

/** Replaces every occurrence of each secret (of 4 characters or more) with `mask`. */
export function maskSecrets(text: string, secrets: readonly string[], mask: string): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join(mask);
  return out;
}
