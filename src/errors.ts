// The error hierarchy of the API core. Every error the client throws is a SiteOpsError with a stable `code`;
// HTTP failures are APIError subclasses built in one place, `APIError.generate`, so the status -> class
// mapping cannot drift between call sites.

import { redact } from "./internal/redact.js";

/** Field errors of a 422 response: `{ name: ["can't be blank"] }`. */
export type FieldErrors = Record<string, string[]>;

export type HeadersRecord = Record<string, string>;

export class SiteOpsError extends Error {
  /** Stable, machine-readable identifier of the kind of failure. */
  readonly code: string = "SITEOPS_ERROR";

  constructor(message: string, options?: { cause?: unknown }) {
    super(redact(message), options);
    this.name = new.target.name;
  }
}

export class APIError extends SiteOpsError {
  override readonly code: string = "API_ERROR";
  /** HTTP status of the response. */
  readonly status: number;
  /** The `error` string of the response body (the service's own message). */
  readonly error: string | undefined;
  /** Field errors of a validation failure (422), keyed by attribute. */
  readonly errors: FieldErrors | undefined;
  /** `X-Request-Id` of the response: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** Response headers, lower-case names. */
  readonly headers: HeadersRecord;
  /** The parsed response body, when it was JSON. */
  readonly body: unknown;

  constructor(status: number, body: unknown, headers: HeadersRecord, message?: string) {
    const error = errorString(body);
    super(message ?? `${status} ${error ?? statusText(status)}`);
    this.status = status;
    this.error = error === undefined ? undefined : redact(error);
    this.errors = fieldErrors(body);
    this.requestId = headers["x-request-id"];
    this.headers = headers;
    this.body = body;
  }

  /** The one factory that maps an HTTP error response to its class. `credentialSource`: where the credentials
   * of the request came from, which an AuthenticationError names. */
  static generate(status: number, body: unknown, headers: HeadersRecord, credentialSource?: string): APIError {
    const error = errorString(body);
    switch (status) {
      case 400:
        return new BadRequestError(status, body, headers);
      case 401:
        return new AuthenticationError(status, body, headers, credentialSource);
      case 403:
        return new PermissionDeniedError(status, body, headers);
      case 404:
        return new NotFoundError(status, body, headers);
      case 409:
        return new ConflictError(status, body, headers);
      case 413:
        return new PayloadTooLargeError(status, body, headers);
      case 415:
        return new UnsupportedMediaTypeError(status, body, headers);
      case 422:
        return error === "otp_attempt_required" ? new OtpRequiredError(status, body, headers) : new UnprocessableEntityError(status, body, headers);
      case 429:
        return new RateLimitError(status, body, headers);
    }
    if (status >= 500) return new InternalServerError(status, body, headers);
    return new APIError(status, body, headers);
  }
}

export class BadRequestError extends APIError {
  override readonly code: string = "BAD_REQUEST";
}
/** The service refused the credentials (401). */
export class AuthenticationError extends APIError {
  override readonly code: string = "AUTHENTICATION_FAILED";
  /**
   * Where the refused credentials came from, as the user knows it (`SITEOPS_API_TOKEN`, `apiToken`, or the client's
   * `credentialSource` option); undefined when the client was not told (an `auth` object, a login).
   */
  readonly credentialSource: string | undefined;
  constructor(status: number, body: unknown, headers: HeadersRecord, credentialSource?: string) {
    const error = errorString(body);
    super(
      status,
      body,
      headers,
      credentialSource === undefined
        ? undefined
        : `${status} ${(error ?? statusText(status)).replace(/\.$/, "")} (the API token from ${credentialSource} was refused)`,
    );
    this.credentialSource = credentialSource;
  }
}
export class PermissionDeniedError extends APIError {
  override readonly code: string = "PERMISSION_DENIED";
}
export class NotFoundError extends APIError {
  override readonly code: string = "NOT_FOUND";
}
export class ConflictError extends APIError {
  override readonly code: string = "CONFLICT";
}
export class PayloadTooLargeError extends APIError {
  override readonly code: string = "PAYLOAD_TOO_LARGE";
}
export class UnsupportedMediaTypeError extends APIError {
  override readonly code: string = "UNSUPPORTED_MEDIA_TYPE";
}
export class UnprocessableEntityError extends APIError {
  override readonly code: string = "UNPROCESSABLE_ENTITY";
}
/** Login of a user with two-factor authentication, without `otp`: retry the login with the current code. */
export class OtpRequiredError extends UnprocessableEntityError {
  override readonly code: string = "OTP_REQUIRED";
}
export class RateLimitError extends APIError {
  override readonly code: string = "RATE_LIMITED";
  /** Seconds the service asked to wait (`Retry-After`), when given. */
  get retryAfter(): number | undefined {
    const value = Number(this.headers["retry-after"]);
    return Number.isFinite(value) ? value : undefined;
  }
}
export class InternalServerError extends APIError {
  override readonly code: string = "SERVER_ERROR";
}

/** The request never got a response: refused or reset connection, DNS failure, socket error. */
export class APIConnectionError extends SiteOpsError {
  override readonly code: string = "CONNECTION_ERROR";
  constructor(message = "Connection error.", options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Why {@link ServiceUnreachableError} was thrown, its `code`. */
export type UnreachableCode = "HOST_NOT_FOUND" | "TLS_MISMATCH" | "SERVICE_UNREACHABLE";

/**
 * The base URL leads nowhere the client can talk to, and waiting would not change that: its host name does not
 * resolve (`HOST_NOT_FOUND`), the server there does not speak TLS to an `https://` URL (`TLS_MISMATCH`), or nothing
 * accepts connections there and the client has had no answer from it yet (`SERVICE_UNREACHABLE`, after one short
 * retry). Thrown without the long retries a transient failure gets (docs/client.md, "Errors"); the message is one
 * sentence naming the base URL and the likely fix.
 */
export class ServiceUnreachableError extends APIConnectionError {
  override readonly code: UnreachableCode;
  /** The base URL the client was given. */
  readonly url: string;
  constructor(code: UnreachableCode, url: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.url = url;
  }
}

/** The request did not complete within its `timeout`. */
export class APIConnectionTimeoutError extends APIConnectionError {
  override readonly code: string = "TIMEOUT";
  constructor(message = "Request timed out.", options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * A call did not succeed within its `callTimeoutMs` (`code` CALL_TIMEOUT): its whole time, attempts, retries and
 * waits behind the client's rate limiter included. A create or update cut off this way may have happened (its
 * last attempt's answer never came): its Idempotency-Key makes a repeat safe.
 */
export class CallTimeoutError extends SiteOpsError {
  override readonly code: string = "CALL_TIMEOUT";
  /** The call: "POST /api/v1/sites". */
  readonly endpoint: string;
  /** The bound that ran out, in ms. */
  readonly timeoutMs: number;
  /** Why the call's last attempt failed ("429 response"); undefined when none was made or failed. */
  readonly lastFailure: string | undefined;
  /** What the call was waiting for when it ran out, when it was not sending or backing off. */
  readonly waitingFor: string | undefined;

  constructor(
    call: { method: string; path: string; timeoutMs: number; lastFailure?: string | undefined; waitingFor?: string | undefined },
    options?: { cause?: unknown },
  ) {
    const seconds = Number((call.timeoutMs / 1000).toFixed(1));
    const why = [call.lastFailure && `the last failure: ${call.lastFailure}`, call.waitingFor && `it was waiting for ${call.waitingFor}`].filter(Boolean);
    super(`${call.method} ${call.path}: no success within ${seconds} s (callTimeoutMs)${why.length ? `; ${why.join("; ")}` : ""}.`, options);
    this.endpoint = `${call.method} ${call.path}`;
    this.timeoutMs = call.timeoutMs;
    this.lastFailure = call.lastFailure;
    this.waitingFor = call.waitingFor;
  }
}

/** The caller's `signal` aborted the request. */
export class APIUserAbortError extends SiteOpsError {
  override readonly code: string = "ABORTED";
  constructor(message = "Request was aborted.", options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A waiter gave up before the resource reached a final state. */
export class WaitTimeoutError extends SiteOpsError {
  override readonly code: string = "WAIT_TIMEOUT";
}

/** An operation reached a failure state (snapshot `failed`, pipeline `failed` or `rolled_back`). */
export class OperationFailedError extends SiteOpsError {
  override readonly code: string = "OPERATION_FAILED";
  /** The resource in its final state. */
  readonly resource: unknown;
  constructor(message: string, resource: unknown) {
    super(message);
    this.resource = resource;
  }
}

/**
 * A response the toolkit cannot use as it is: a list that is not a JSON array, a record without a field the
 * toolkit needs, or with it of another type. Thrown where the response arrives (never a TypeError later); the
 * message names the endpoint and the field. The service may have answered differently from what siteops
 * assumes where the spec is silent (docs/design.md, "What the toolkit assumes").
 */
export class UnexpectedResponseError extends SiteOpsError {
  override readonly code: string = "UNEXPECTED_RESPONSE";
  /** `METHOD /path` of the request. */
  readonly endpoint: string;
  /** The field that is missing or of another type (`url`, `[3].url`), or undefined for the whole body. */
  readonly field: string | undefined;
  /** `X-Request-Id` of the response, when it had one. */
  readonly requestId: string | undefined;
  constructor(endpoint: string, field: string | undefined, problem: string, requestId?: string) {
    super(`${endpoint}: ${problem}${requestId ? ` [request ${requestId}]` : ""}`);
    this.endpoint = endpoint;
    this.field = field;
    this.requestId = requestId;
  }
}

/**
 * A 404 that says the base URL is not the service's root (`code` WRONG_BASE_URL): the base URL's path ends in
 * `/api/v1` (every request then goes to `/api/v1/api/v1/...`), or the answer is not the service's JSON error (the
 * path is not the API at all). Not a NotFoundError: nothing was found missing. The message names the URL requested
 * and says to use the service's root (`https://host`, not `https://host/api/v1`).
 */
export class WrongBaseURLError extends APIError {
  override readonly code: string = "WRONG_BASE_URL";
  /** The base URL the client was given. */
  readonly baseUrl: string;
  /** The URL that answered 404. */
  readonly url: string;
  constructor(baseUrl: string, url: string, message: string, response: { status: number; body: unknown; headers: HeadersRecord }) {
    super(response.status, response.body, response.headers, message);
    this.baseUrl = baseUrl;
    this.url = url;
  }
}

/** Iterating a listing could not reach its end: the server kept announcing pages past `maxPages`, or sent the same page again. */
export class PaginationError extends SiteOpsError {
  override readonly code: string = "PAGINATION_FAILED";
}

/** A base URL or API token the client cannot use (`code` INVALID_SETTING): the message names where it came from
 * (`baseUrl`, `SITEOPS_API_TOKEN`, ...) and what is wrong. */
export class ConnectionSettingError extends SiteOpsError {
  override readonly code: string = "INVALID_SETTING";
  /** The option or environment variable the value came from. */
  readonly setting: string;
  constructor(setting: string, message: string) {
    super(message);
    this.setting = setting;
  }
}

/** A webhook delivery whose signature, timestamp or payload cannot be trusted. */
export class WebhookVerificationError extends SiteOpsError {
  override readonly code: string = "WEBHOOK_VERIFICATION_FAILED";
}

function errorString(body: unknown): string | undefined {
  if (body && typeof body === "object" && "error" in body) {
    const error = (body as { error: unknown }).error;
    if (typeof error === "string") return error;
  }
  // A short plain sentence that is not JSON (Rails' `HTTP Token: Access denied.`) is the service's message too;
  // an HTML page or a long or multi-line text is not quoted.
  if (typeof body === "string") {
    const text = body.trim();
    if (text && text.length <= 200 && !/[<>\u0000-\u001f\u007f]/.test(text)) return text;
  }
  return undefined;
}

function fieldErrors(body: unknown): FieldErrors | undefined {
  if (!body || typeof body !== "object" || !("errors" in body)) return undefined;
  const errors = (body as { errors: unknown }).errors;
  if (!errors || typeof errors !== "object" || Array.isArray(errors)) return undefined;
  const out: FieldErrors = {};
  for (const [key, value] of Object.entries(errors)) {
    out[key] = Array.isArray(value) ? value.map((v) => redact(String(v))) : [redact(String(value))];
  }
  return out;
}

function statusText(status: number): string {
  const known: Record<number, string> = {
    401: "Authentication failed",
    403: "Permission denied",
    404: "Not found",
    408: "Request timeout",
    429: "Rate limited",
  };
  return known[status] ?? (status >= 500 ? "Server error" : "Request failed");
}
