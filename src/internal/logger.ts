// The debug hook: one event per attempt, retry, pacing pause and settled uncertain outcome, secrets already
// redacted, so a logger can print it as is.

export interface ResponseLogEvent {
  kind: "response";
  method: string;
  /** Path and query sent. */
  path: string;
  /** HTTP status, undefined when no response arrived (connection error, timeout, abort). */
  status: number | undefined;
  durationMs: number;
  requestId: string | undefined;
  /** 1 for the first attempt. */
  attempt: number;
  /** Request headers with Authorization and other credentials replaced by [REDACTED]. */
  requestHeaders: Record<string, string>;
}

export interface RetryLogEvent {
  kind: "retry";
  method: string;
  path: string;
  /** What failed: "503 response", "429 response", "could not connect (ECONNREFUSED)", "timeout",
   * "connection lost (UND_ERR_SOCKET)". */
  reason: string;
  /** The retry about to be made (1 for the first retry). */
  attempt: number;
  delayMs: number;
}

/** One line for a retry wait, for a tool to print while it waits (the CLI and the provider on stderr, the
 * action in its log): `GET /sites: could not connect (ECONNREFUSED); retry 2 in 1.3 s` (under a second in ms). */
export function describeRetry(event: RetryLogEvent): string {
  const delay = event.delayMs < 1000 ? `${Math.round(event.delayMs)} ms` : `${(event.delayMs / 1000).toFixed(1)} s`;
  return `${event.method} ${event.path}: ${event.reason}; retry ${event.attempt} in ${delay}`;
}

/** A request waited before it was sent, because the service's RateLimit headers said the window ran low. */
export interface RateLimitLogEvent {
  kind: "rate_limit";
  method: string;
  path: string;
  delayMs: number;
}

/** A failure after an attempt whose outcome was unknown was decided from what the service now says. */
export interface SettledLogEvent {
  kind: "settled";
  method: string;
  path: string;
  /** Status of the failure that was settled (e.g. 404 on a retried DELETE). */
  status: number;
  /** Why the earlier attempt's outcome was unknown: "connection lost (UND_ERR_SOCKET)", "503 response", "timeout". */
  uncertain: string;
  /** What was concluded: "deleted by an earlier attempt". */
  note: string;
}

export type RequestLogEvent = ResponseLogEvent | RetryLogEvent | RateLimitLogEvent | SettledLogEvent;
export type RequestLogger = (event: RequestLogEvent) => void;

/** The logger SITEOPS_DEBUG=1 installs: one line per event on stderr. */
export function createDebugLogger(write: (line: string) => void = (line) => process.stderr.write(line + "\n")): RequestLogger {
  return (event) => {
    switch (event.kind) {
      case "retry":
        return write(`siteops: ${describeRetry(event)}`);
      case "rate_limit":
        return write(`siteops: ${event.method} ${event.path} waited ${event.delayMs} ms for the rate limit`);
      case "settled":
        return write(`siteops: ${event.method} ${event.path} ${event.status} after an attempt with unknown outcome (${event.uncertain}): ${event.note}`);
    }
    const status = event.status ?? "no response";
    const id = event.requestId ? ` ${event.requestId}` : "";
    write(`siteops: ${event.method} ${event.path} ${status} ${event.durationMs} ms${id} ${JSON.stringify(event.requestHeaders)}`);
  };
}
