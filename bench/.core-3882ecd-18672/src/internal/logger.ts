// The debug hook: one event per attempt, secrets already redacted, so a logger can print it as is.

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
  /** The retry about to be made (1 for the first retry). */
  attempt: number;
  delayMs: number;
}

export type RequestLogEvent = ResponseLogEvent | RetryLogEvent;
export type RequestLogger = (event: RequestLogEvent) => void;

/** The logger SITEOPS_DEBUG=1 installs: one line per event on stderr. */
export function createDebugLogger(write: (line: string) => void = (line) => process.stderr.write(line + "\n")): RequestLogger {
  return (event) => {
    if (event.kind === "retry") {
      write(`siteops: retry ${event.attempt} of ${event.method} ${event.path} in ${event.delayMs} ms`);
      return;
    }
    const status = event.status ?? "no response";
    const id = event.requestId ? ` ${event.requestId}` : "";
    write(`siteops: ${event.method} ${event.path} ${status} ${event.durationMs} ms${id} ${JSON.stringify(event.requestHeaders)}`);
  };
}
