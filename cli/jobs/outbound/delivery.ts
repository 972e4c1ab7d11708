// Delivers a ping or a notification: one POST to the URL, with retries and a timeout, never failing the run.
// Sent as undici's Pool sends the core's requests: a few attempts (connection failures, 408, 429 and 5xx are
// tried again after a short jittered backoff, other answers are final), each bounded by a timeout, never
// cancelled by Ctrl-C (the /fail ping of an interrupted run must still go out). At least once: an answer lost after
// the receiver took the request is sent again, with the same `webhook-id`. The URL is a secret (its path or query is
// the credential): a failure is described by the receiver's host and what went wrong, never by the URL.

import { Pool } from "undici";
import { backoffDelay, type Backoff, RETRYABLE_STATUSES } from "../../../common/backoff.js";
import { setTimeout as sleep } from "node:timers/promises";
import { VERSION } from "../../../common/version.js";

/** Attempts per delivery (the first and two retries). */
const DELIVERY_ATTEMPTS = 3;
/** Each attempt's limit for connecting, and for the answer's headers and body. */
const ATTEMPT_TIMEOUT_MS = 10_000;
/** 0-1 s before the first retry, 0-2 s before the second: a job's end waits at most ~35 s for a dead receiver. */
const DELIVERY_BACKOFF: Backoff = { initialMs: 1000, maxMs: 4000, jitter: "full" };

export interface Delivery {
  body: string;
  contentType: string;
  /** A notification's id, sent as `webhook-id` (Standard Webhooks): the same on every attempt and on every repeat
   * of the same news, so that a receiver can drop what it already has (delivery is at least once). */
  id?: string;
}

/** Undefined when delivered, else why not ("HTTP 500 after 3 attempts"), without the URL. */
export type DeliveryResult = string | undefined;

/** Sends `delivery` to `url` (http or https, checked by `parseUrl`). Never throws: whatever goes wrong is a
 * result, so a ping can never change a run's exit code or stop it from starting. */
export async function deliver(url: URL, delivery: Delivery): Promise<DeliveryResult> {
  try {
    return await attempts(url, delivery);
  } catch (err) {
    // Not a network failure (those are results in attempts()): its name only, a message may quote the URL.
    return `not sent to ${url.host} (${err instanceof Error ? err.name : "error"})`;
  }
}

async function attempts(url: URL, delivery: Delivery): Promise<DeliveryResult> {
  const pool = new Pool(url.origin, {
    connections: 1,
    connect: { timeout: ATTEMPT_TIMEOUT_MS },
    headersTimeout: ATTEMPT_TIMEOUT_MS,
    bodyTimeout: ATTEMPT_TIMEOUT_MS,
  });
  let reason = "";
  try {
    const headers: Record<string, string> = { "content-type": delivery.contentType, "user-agent": `siteops-cli/${VERSION}` };
    if (delivery.id !== undefined) headers["webhook-id"] = delivery.id;
    const auth = basicAuth(url);
    if (auth) headers.authorization = auth;
    for (let attempt = 0; attempt < DELIVERY_ATTEMPTS; attempt++) {
      if (attempt > 0) await sleep(backoffDelay(attempt - 1, DELIVERY_BACKOFF));
      let retry: boolean;
      try {
        const response = await pool.request({ method: "POST", path: `${url.pathname}${url.search}`, headers, body: delivery.body });
        await response.body.dump();
        if (response.statusCode >= 200 && response.statusCode < 300) return undefined;
        reason = `HTTP ${response.statusCode}`;
        retry = RETRYABLE_STATUSES.has(response.statusCode);
      } catch (err) {
        reason = failureOf(err);
        retry = true;
      }
      if (!retry) return `${reason} from ${url.host}`;
    }
    return `${reason} from ${url.host} after ${DELIVERY_ATTEMPTS} attempts`;
  } finally {
    await pool.close().catch(() => undefined);
  }
}

/** user:password@ in the URL: Basic authentication, as curl does it (percent-escapes decoded). Throws URIError
 * on a malformed escape, which parseUrl refuses when the flag is read. */
function basicAuth(url: URL): string | undefined {
  if (!url.username && !url.password) return undefined;
  return `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}`;
}

/** A connection failure in a few words: the error's code (ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT), never its
 * message, which may quote the request. */
function failureOf(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  if (code === "UND_ERR_CONNECT_TIMEOUT") return "could not connect in time";
  if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") return "no answer in time";
  if (typeof code === "string" && /^[A-Z0-9_]+$/.test(code)) return `could not connect (${code})`;
  return "could not connect";
}

/** The URL of `--flag`, or a UsageError-worthy message that does not repeat it. */
export function parseUrl(raw: string): URL | string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return "is not a URL (expected http:// or https://...)";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `must be an http:// or https:// URL (got ${url.protocol}//...)`;
  // Checked now, not at the first delivery: the user name and password are decoded for Basic authentication.
  try {
    basicAuth(url);
  } catch {
    return "has a malformed percent-escape in its user name or password (a % must start %XX, two hex digits; a literal % is %25)";
  }
  url.hash = "";
  return url;
}
