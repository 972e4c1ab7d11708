// One line saying what failed, for people: the CLI's and the GitHub Action's error lines (and any program on the
// client) describe errors here, each adding its own advice on what to change.

import {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  OperationFailedError,
  PermissionDeniedError,
  ServiceUnreachableError,
  SiteOpsError,
  WaitTimeoutError,
  WrongBaseURLError,
} from "./errors.js";
import { apiErrorPhrase, maskSecrets } from "./internal/format.js";

/** The kinds of failure {@link describeError} tells apart, each of which can carry advice. */
export type ErrorKind = "authentication" | "permission" | "api" | "aborted" | "timeout" | "connection" | "other";

/** Options of {@link describeError}. */
export interface DescribeErrorOptions {
  /**
   * How an API error's status and request id read: `"after"` (default) `Not found [HTTP 404, request req_1].`;
   * `"before"` `Site Operations API 404: Not found. Request id: req_1.`
   */
  apiStatus?: "after" | "before";
  /** A sentence added after the description of each kind of error, saying what to change; a function of the error
   * when the advice depends on it (an AuthenticationError's `credentialSource`). */
  advice?: Partial<Record<ErrorKind, string | ((err: unknown) => string | undefined)>>;
  /** The whole line for an aborted request (default: the error's message). */
  aborted?: string;
  /** Strings that never appear in the line (the API token): each replaced by `mask`. */
  secrets?: readonly string[];
  /** Default `[REDACTED]`. */
  mask?: string;
}

/** Credentials or permission refused (401, 403): every other request of the run would be refused alike, so a
 * fleet operation ends as refused rather than failing site after site. */
export function isRefusal(err: unknown): boolean {
  return err instanceof AuthenticationError || err instanceof PermissionDeniedError;
}

/** A failure as the records of a result give it: one line (a surface's, with its advice), the error's stable code
 * (`ERROR` for one that is not the client's), and the HTTP status and request id when the service answered. */
export interface ErrorFacts {
  message: string;
  code: string;
  http_status?: number;
  request_id?: string;
}

/** {@link ErrorFacts} of `err`, its line as `describe` words it. */
export function errorFacts(err: unknown, describe: (err: unknown) => string): ErrorFacts {
  const facts: ErrorFacts = { message: describe(err), code: err instanceof SiteOpsError ? err.code : "ERROR" };
  if (err instanceof APIError) {
    facts.http_status = err.status;
    if (err.requestId) facts.request_id = err.requestId;
  }
  return facts;
}

/** What kind of failure `err` is. */
export function errorKind(err: unknown): ErrorKind {
  if (err instanceof AuthenticationError) return "authentication";
  if (err instanceof PermissionDeniedError) return "permission";
  if (err instanceof APIError) return "api";
  if (err instanceof APIUserAbortError) return "aborted";
  if (err instanceof WaitTimeoutError) return "timeout";
  if (err instanceof APIConnectionError) return "connection";
  return "other";
}

/**
 * One line describing a failure: for an API error the service's message, its field errors, the HTTP status and
 * the request id; for others their message; then the caller's advice for that kind. Never a stack trace, and
 * `secrets` never appear in it.
 */
export function describeError(err: unknown, options: DescribeErrorOptions = {}): string {
  const kind = errorKind(err);
  let line: string;
  // These two say the base URL is wrong, in a sentence that names it and the fix: nothing to add.
  if (err instanceof ServiceUnreachableError || err instanceof WrongBaseURLError)
    return maskSecrets(err.message, options.secrets ?? [], options.mask ?? "[REDACTED]");
  if (err instanceof APIError) line = apiLine(err, options.apiStatus ?? "after");
  else if (kind === "aborted" && options.aborted !== undefined) line = options.aborted;
  else if (kind === "connection") line = `Cannot reach the Site Operations service: ${(err as Error).message}`;
  else if (err instanceof OperationFailedError || err instanceof Error) line = err.message || err.name;
  else line = String(err);
  const given = options.advice?.[kind];
  const advice = typeof given === "function" ? given(err) : given;
  // Advice is a sentence of its own: the line before it ends with a full stop.
  if (advice) line = `${kind === "timeout" || kind === "other" ? line.replace(/([^.?!])$/, "$1.") : line} ${advice}`;
  return maskSecrets(line, options.secrets ?? [], options.mask ?? "[REDACTED]");
}

function apiLine(err: APIError, status: "after" | "before"): string {
  // A refused token names where it came from (SITEOPS_API_TOKEN, ...): the service's own words do not.
  const phrase =
    err instanceof AuthenticationError && err.credentialSource !== undefined
      ? `The API token from ${err.credentialSource} was refused${err.error ? ` (${err.error.replace(/\.$/, "")})` : ""}`
      : apiErrorPhrase(err);
  if (status === "before") return `Site Operations API ${err.status}: ${phrase}.${err.requestId ? ` Request id: ${err.requestId}.` : ""}`;
  return `${phrase} [HTTP ${err.status}${err.requestId ? `, request ${err.requestId}` : ""}].`;
}
