// Secrets never reach an error message or a log line, even when a server echoes them back.

const PATTERNS: RegExp[] = [
  /\bsot_[A-Za-z0-9_-]+/g, // API tokens
  /\bwhsec_[A-Za-z0-9+/=_-]+/g, // webhook secrets
  /\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, // JWTs
  /\b(Bearer|token|Token)\s+[A-Za-z0-9._~+/=-]{8,}/g, // Authorization values
];

const REDACTED = "[REDACTED]";

/** Replaces anything shaped like a credential in `text`. */
export function redact(text: string): string {
  let out = text;
  for (const re of PATTERNS) {
    out = out.replace(re, (match, scheme?: string) => (typeof scheme === "string" && match.startsWith(scheme) ? `${scheme} ${REDACTED}` : REDACTED));
  }
  return out;
}

const SECRET_HEADERS = new Set(["authorization", "cookie", "set-cookie", "proxy-authorization", "x-api-key"]);

/** A copy of `headers` fit for a log line: credentials replaced, names lower-cased. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    const text = Array.isArray(value) ? value.join(", ") : value;
    if (SECRET_HEADERS.has(lower)) {
      const scheme = /^(\S+)\s/.exec(text)?.[1];
      out[lower] = scheme ? `${scheme} ${REDACTED}` : REDACTED;
    } else {
      out[lower] = redact(text);
    }
  }
  return out;
}
