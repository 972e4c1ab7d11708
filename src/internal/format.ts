// How API errors read in one line, and secrets masked in it (describeError's parts).

import type { APIError } from "../errors.js";

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
