// What a failed attempt says about its request: never sent (the connection could not be made: safe to send
// again whatever the method, and a sign that the service is down), or maybe carried out (the outcome is
// unknown: a retry may find the work already done). Read from the error codes either HTTP stack gives (undici's,
// or Node's net and tls ones through node:http).

import { APIConnectionTimeoutError } from "../errors.js";

/** Failures to open a connection: the request never left this machine. */
const CONNECT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EHOSTDOWN",
  // undici's connect timeout, and node:http's (node-http-wire.ts, which takes Node's own code for it).
  "UND_ERR_CONNECT_TIMEOUT",
  "ERR_SOCKET_CONNECTION_TIMEOUT",
]);

/** The error code of a failure (its own, or its cause's), as Node, undici or a wire gave it. */
export function codeOf(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && code !== "CONNECTION_ERROR" && code !== "TIMEOUT") return code;
  }
  return undefined;
}

/** True when the connection could not be opened, so the request was certainly not sent. */
export function connectFailed(err: unknown): boolean {
  const code = codeOf(err);
  return code !== undefined && CONNECT_CODES.has(code);
}

/**
 * Why the outcome of an attempt that ended with `status` is unknown, or undefined when it is known not to
 * have been carried out. A 5xx may come from a proxy after the service answered (or from the service after
 * it committed); a 409 on a keyed request means the same request is still being carried out.
 */
export function uncertainStatus(status: number, keyed: boolean): string | undefined {
  if (status >= 500) return `${status} response`;
  if (status === 409 && keyed) return "409 (the same request still in progress)";
  return undefined;
}

/** Why the outcome of an attempt that failed without a response is unknown (undefined: never sent). */
export function uncertainFailure(err: unknown): string | undefined {
  if (connectFailed(err)) return undefined;
  if (err instanceof APIConnectionTimeoutError) return "timeout";
  const code = codeOf(err);
  return `connection lost${code ? ` (${code})` : ""}`;
}

/** What failed, for the retry log: "could not connect (ECONNREFUSED)", "timeout", "connection lost (...)". */
export function failureReason(err: unknown): string {
  return uncertainFailure(err) ?? `could not connect (${codeOf(err)})`;
}
