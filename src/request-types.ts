// The types of a request, below the client and everything it hands requests to (resources, pagination,
// uploads, auth, operations), so that none of them needs to import the client itself.

import type { Readable } from "node:stream";
import type { APIPromise, APIResponse } from "./api-promise.js";
import type { APIError } from "./errors.js";
import type { RecordShape } from "./response-shapes.js";

export type { APIResponse } from "./api-promise.js";

/** Options every method accepts as its last argument; they override the client's. */
export interface RequestOptions {
  /** Per-attempt timeout in ms. */
  timeout?: number;
  /** Retries after the first attempt. */
  maxRetries?: number;
  /** No retry starts later than this many ms after the call's first attempt. */
  retryBudgetMs?: number;
  /** Bounds the call's whole time in ms, waits behind the client's rate limiter included (0: none); the call then
   * fails with CallTimeoutError. */
  callTimeoutMs?: number;
  signal?: AbortSignal;
  /** Key for a POST or PATCH; generated when absent, and the same across retries of the call. */
  idempotencyKey?: string;
  headers?: Record<string, string>;
  accountId?: string;
}

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type QueryValue = string | number | boolean | null | undefined;

/** A body that can be produced again for each attempt (a stream cannot be replayed). */
export type BodyFactory = () => Readable | AsyncIterable<Uint8Array> | Buffer | Uint8Array | string;

/**
 * Decides a call whose earlier attempt's outcome is unknown (connection lost after sending, timeout, 5xx)
 * and which now failed with `error`, e.g. 404 on a DELETE: the earlier attempt did the work. Resolves with
 * the response the call returns and a note for the debug log, or undefined to let `error` stand.
 */
export type Settle = (error: APIError) => Promise<Settled | undefined> | Settled | undefined;
export interface Settled {
  response: APIResponse<unknown>;
  /** What was concluded, for the debug log: "deleted by an earlier attempt". */
  note: string;
}

export interface RequestInit extends RequestOptions {
  method: HttpMethod;
  /** Path below the base URL, starting with `/api/v1`. */
  path: string;
  query?: Record<string, QueryValue>;
  /** JSON body. */
  body?: unknown;
  /** Raw body instead of JSON, made once per attempt. */
  rawBody?: BodyFactory;
  /** Content type of `rawBody`. */
  contentType?: string;
  /** false for the endpoints that take no credentials (login, refresh). */
  authenticate?: boolean;
  /** How a failure after an uncertain attempt is decided. Default for DELETE: 404 means deleted. */
  settle?: Settle;
  /** The fields the caller needs of a successful response's record: one missing, or of another type, fails the
   * call with UnexpectedResponseError naming the endpoint and the field. */
  expect?: RecordShape;
}

/** What resources, pagination, uploads and credentials need of a client (SiteOps implements it). */
export interface APIClient {
  /** The client's retry policy: retries after the first attempt, and their time budget in ms. */
  readonly maxRetries: number;
  readonly retryBudgetMs: number;
  /** Sends a request with retries; resolves with the parsed body and response metadata. */
  request<T>(init: RequestInit): Promise<APIResponse<T>>;
  /** As request(), resolving with the parsed body; `.withResponse()` gives the metadata. */
  send<T>(init: RequestInit): APIPromise<T>;
  get<T>(path: string, options?: RequestOptions & { query?: Record<string, QueryValue> }): APIPromise<T>;
  post<T>(path: string, body?: unknown, options?: RequestOptions): APIPromise<T>;
  patch<T>(path: string, body: unknown, options?: RequestOptions): APIPromise<T>;
  delete(path: string, options?: RequestOptions): APIPromise<void>;
}
