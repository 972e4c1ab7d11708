// One attempt of a request: headers, body, undici dispatch, response parsing, and the mapping of undici's
// failures to the client's errors. Retries, auth renewal and backoff are the client's (client.ts).

import type { Readable } from "node:stream";
import type { Dispatcher } from "undici";
import type { APIResponse, RequestInit } from "../request-types.js";
import { APIConnectionError, APIConnectionTimeoutError, APIUserAbortError, SiteOpsError } from "../errors.js";
import { flattenHeaders, parseBody, queryString } from "./http.js";
import type { RequestLogger } from "./logger.js";
import { redactHeaders } from "./redact.js";
import { VERSION } from "./version.js";

/** What an attempt needs from the client, fixed at construction. */
export interface Transport {
  origin: string;
  /** Path prefix of the base URL, without trailing slash ("" for none). */
  basePath: string;
  dispatcher: Dispatcher;
  defaultHeaders: Record<string, string>;
  accountId: string | undefined;
  /** The client's default per-attempt timeout. */
  timeout: number;
  logger: RequestLogger | undefined;
}

/** One attempt of a call. */
export interface Attempt {
  init: RequestInit;
  /** Authorization header value, when the call is authenticated. */
  authorization: string | undefined;
  /** The call's Idempotency-Key, the same on every attempt. */
  idempotencyKey: string | undefined;
  /** 0 for the first attempt. */
  attempt: number;
}

/** Sends one attempt and reads the whole response; throws only for failures without a response. */
export async function sendOnce(t: Transport, { init, authorization, idempotencyKey, attempt }: Attempt): Promise<APIResponse<unknown>> {
  const headers: Record<string, string> = {
    accept: "application/json",
    "user-agent": `siteops-node/${VERSION}`,
    ...t.defaultHeaders,
  };
  let body: string | Buffer | Uint8Array | Readable | AsyncIterable<Uint8Array> | undefined;
  if (init.rawBody) {
    body = init.rawBody();
    headers["content-type"] = init.contentType ?? "application/octet-stream";
  } else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers["content-type"] = "application/json";
  }
  if (authorization) headers.authorization = authorization;
  if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
  const accountId = init.accountId ?? t.accountId;
  if (accountId) headers["x-account-id"] = accountId;
  Object.assign(headers, init.headers);

  const signal = init.signal;
  if (signal?.aborted) throw new APIUserAbortError(undefined, { cause: signal.reason });
  // undici's own timers, not an AbortSignal per request: an AbortController + listener per call halved
  // throughput in the sites.get benchmark. `timeout` bounds the wait for the response headers and each
  // gap in the response body.
  const timeout = init.timeout ?? t.timeout;
  const path = t.basePath + init.path + queryString(init.query);
  // Timed for the logger only, with hrtime: performance.now() would load node:perf_hooks (~1 ms of a cold start),
  // and the CLI and the action always have a logger (retry lines).
  const started = t.logger ? process.hrtime.bigint() : 0n;
  let status: number | undefined;
  let requestId: string | undefined;
  try {
    const res = await t.dispatcher.request({
      origin: t.origin,
      path,
      method: init.method,
      headers,
      // undici sends async iterables too (documented), its typings only list the other kinds.
      body: body as Exclude<typeof body, AsyncIterable<Uint8Array>>,
      signal,
      headersTimeout: timeout,
      bodyTimeout: timeout,
    });
    status = res.statusCode;
    const responseHeaders = flattenHeaders(res.headers);
    requestId = responseHeaders["x-request-id"];
    let data: unknown;
    if (status === 204) {
      await res.body.dump();
    } else {
      const text = await res.body.text();
      data = parseBody(text, responseHeaders["content-type"]);
    }
    return { data, status, headers: responseHeaders, requestId };
  } catch (err) {
    if (signal?.aborted) throw new APIUserAbortError(undefined, { cause: err });
    const code = (err as { code?: string }).code;
    if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
      throw new APIConnectionTimeoutError(`Request timed out after ${timeout} ms.`, { cause: err });
    }
    if (err instanceof SiteOpsError) throw err;
    if (code === "UND_ERR_CLOSED" || code === "UND_ERR_DESTROYED") {
      throw new SiteOpsError("This client was closed (close() or logout()); create a new one.", { cause: err });
    }
    throw new APIConnectionError(`Connection error${code ? ` (${code})` : ""}: ${(err as Error).message}`, { cause: err });
  } finally {
    t.logger?.({
      kind: "response",
      method: init.method,
      path,
      status,
      durationMs: Number((process.hrtime.bigint() - started) / 100_000n) / 10,
      requestId,
      attempt: attempt + 1,
      requestHeaders: redactHeaders(headers),
    });
  }
}
