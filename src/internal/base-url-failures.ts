// Failures that say the base URL is wrong, or leads nowhere, rather than that the service is busy: an unknown host,
// a server that does not speak TLS to an https:// URL, nothing listening before the service ever answered, and a
// 404 that is not the API's. Waiting does not fix them, so they end a call at once (a refused connection after one
// short retry: a service still starting), each with one sentence naming the URL and the likely fix. The long
// retry budget stays for what is transient (docs/design.md, "When the core retries").

import { ServiceUnreachableError, WrongBaseURLError, type HeadersRecord, type UnreachableCode } from "../errors.js";
import { codeOf } from "./outcome.js";

/** A server that answers an https:// request with something other than TLS (plain HTTP). */
const TLS_MISMATCH_CODES: ReadonlySet<string> = new Set(["ERR_SSL_WRONG_VERSION_NUMBER", "ERR_SSL_PACKET_LENGTH_TOO_LONG"]);

/** Retries of a refused connection before the service has answered this client once: one, for a service that
 * is starting as the client does (`siteops emulator &` then a command). */
const FIRST_CONTACT_RETRIES = 1;

/** What the client knows of the service when an attempt fails (its connection circuit, circuit.ts). */
export interface ContactState {
  baseUrl: string;
  /** The service has answered this client before: a refused connection or an unknown host is then plausibly a
   * restart or a resolver's blip, and is retried within the budget. */
  contacted: boolean;
  /** Rounds of refused connections since the service last answered, this attempt's included: the client's
   * concurrent calls share them, so a first contact gets one short retry in all, not one per call. */
  refusals: number;
  /** The client already ended calls on an unreachable service and has had no answer since: no more short retries. */
  abandoned: boolean;
}

/**
 * The error that ends a call after a failure to connect, or undefined when the failure may pass and the call's
 * retries go on.
 */
export function unreachableError(err: unknown, at: ContactState): ServiceUnreachableError | undefined {
  const code = codeOf(err);
  if (code === undefined) return undefined;
  const { baseUrl, contacted, refusals, abandoned } = at;
  if (TLS_MISMATCH_CODES.has(code)) {
    const plain = baseUrl.replace(/^https:/i, "http:");
    return fail(
      "TLS_MISMATCH",
      baseUrl,
      `the server there does not speak TLS (${code}); use ${plain} if it is a plain-HTTP service such as a local emulator, or check the port`,
      err,
    );
  }
  if (contacted) return undefined;
  if (code === "ENOTFOUND") {
    return fail("HOST_NOT_FOUND", baseUrl, `its host name ${new URL(baseUrl).hostname} was not found (${code}); check the base URL for a typo`, err);
  }
  if (code === "ECONNREFUSED" && (refusals > FIRST_CONTACT_RETRIES || abandoned)) return refused(baseUrl, refusals, err);
  return undefined;
}

/** The error of a refused first contact when the call's retries ran out before FIRST_CONTACT_RETRIES (maxRetries 0). */
export function refusedFirstContact(err: unknown, at: ContactState): ServiceUnreachableError | undefined {
  return !at.contacted && codeOf(err) === "ECONNREFUSED" ? refused(at.baseUrl, at.refusals, err) : undefined;
}

function refused(baseUrl: string, attempts: number, err: unknown): ServiceUnreachableError {
  const tries = attempts <= 1 ? "" : ` in ${attempts} attempts`;
  return fail(
    "SERVICE_UNREACHABLE",
    baseUrl,
    `nothing accepted the connection (ECONNREFUSED)${tries}; check that the service is running and the base URL's host and port`,
    err,
  );
}

function fail(code: UnreachableCode, baseUrl: string, why: string, cause: unknown): ServiceUnreachableError {
  return new ServiceUnreachableError(code, baseUrl, `Cannot reach ${baseUrl}: ${why}.`, { cause });
}

/** A base URL's path that is the API's own prefix, not the service's root. */
const API_PREFIX = /\/api(\/v\d+)?$/i;

/**
 * The error of a 404 that says the base URL is not the service's root, or undefined for the service's own 404
 * (a JSON body with an `error` string). The base URL's path ends in /api or /api/v1 (every request then goes to
 * /api/v1/api/v1/...), or the body is a page that is not the API's JSON error (the path is not the API at all).
 */
export function wrongBaseUrl(
  request: { method: string; baseUrl: string; origin: string; basePath: string; path: string },
  response: { status: number; data: unknown; headers: HeadersRecord },
): WrongBaseURLError | undefined {
  const { method, baseUrl, origin, basePath, path } = request;
  const url = `${origin}${basePath}${path}`;
  const root = `${origin}${basePath.replace(API_PREFIX, "")}`;
  const body = response.data;
  const serviceJson = !!body && typeof body === "object" && typeof (body as { error?: unknown }).error === "string";
  const page = typeof body === "string" && body.trim() !== "" ? body : undefined;
  let why: string;
  if (API_PREFIX.test(basePath)) why = `the base URL ${baseUrl} ends in ${API_PREFIX.exec(basePath)?.[0]}, so ${method} ${url} was not found (HTTP 404)`;
  else if (!serviceJson && (page !== undefined || (body && typeof body === "object")))
    why = `${method} ${url} answered 404 with ${page !== undefined ? "a page" : "JSON"} that is not the Site Operations API's`;
  else return undefined;
  const fix =
    root === baseUrl
      ? `check that the base URL ${baseUrl} is the service's root (e.g. https://host, not https://host/api/v1)`
      : `the base URL should be the service's root, ${root}`;
  return new WrongBaseURLError(baseUrl, url, `${capitalize(why)}; ${fix}.`, { status: response.status, body, headers: response.headers });
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
