// One attempt of a request: headers, body, response parsing, the debug event, and the mapping of a failure to
// the client's errors, whichever HTTP stack sends it (wire.ts: undici or node:http). Retries, auth renewal
// and backoff are the request loop's (request-loop.ts).

import type { APIResponse, RequestInit } from "../request-types.js";
import { APIConnectionError, APIConnectionTimeoutError, APIUserAbortError, SiteOpsError } from "../errors.js";
import { parseBody, queryString } from "./http.js";
import type { RequestLogger } from "./logger.js";
import { redactHeaders } from "./redact.js";
import { VERSION } from "../../common/version.js";
import type { Wire, WireBody } from "./wire.js";

/** What an attempt needs from the client, fixed at construction. */
export interface Transport {
  origin: string;
  /** Path prefix of the base URL, without trailing slash ("" for none). */
  basePath: string;
  /** The HTTP stack (the client's `transport` option). */
  wire: Wire;
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
  let body: WireBody | undefined;
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
  const timeout = init.timeout ?? t.timeout;
  const path = t.basePath + init.path + queryString(init.query);
  // Timed for the logger only, with hrtime: performance.now() would load node:perf_hooks at a cold start, and the
  // CLI and the action always have a logger (retry lines).
  const started = t.logger ? process.hrtime.bigint() : 0n;
  let status: number | undefined;
  let requestId: string | undefined;
  try {
    const res = await t.wire.request({ path, method: init.method, headers, body, signal, timeout });
    status = res.status;
    requestId = res.headers["x-request-id"];
    let data: unknown;
    if (status === 204) await res.dump();
    else data = parseBody(await res.text(), res.headers["content-type"]);
    return { data, status, headers: res.headers, requestId };
  } catch (err) {
    if (signal?.aborted) throw new APIUserAbortError(undefined, { cause: err });
    const kind = t.wire.failure(err);
    if (kind === "timeout") throw new APIConnectionTimeoutError(`Request timed out after ${timeout} ms.`, { cause: err });
    if (err instanceof SiteOpsError) throw err;
    if (kind === "closed") throw new SiteOpsError("This client was closed (close() or logout()); create a new one.", { cause: err });
    const code = (err as { code?: string }).code;
    throw new APIConnectionError(`Connection error${code ? ` (${code})` : ""}: ${(err as Error).message}`, { cause: err });
  } finally {
    let redacted: Record<string, string> | undefined;
    t.logger?.({
      kind: "response",
      method: init.method,
      path,
      status,
      durationMs: Number((process.hrtime.bigint() - started) / 100_000n) / 10,
      requestId,
      attempt: attempt + 1,
      // Redacted when read: most loggers (the provider's) look only at retries, and this runs at every response.
      get requestHeaders() {
        return (redacted ??= redactHeaders(headers));
      },
    });
  }
}
