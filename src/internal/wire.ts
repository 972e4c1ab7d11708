// One request and its response on an HTTP stack: what the attempt in transport.ts asks of undici
// (undici-wire.ts) or of Node's built-in node:http (node-http-wire.ts). Everything above the attempt (retries,
// the circuit, the rate limiter, uploads) sees neither.

import type { Readable } from "node:stream";
import type { HeadersRecord } from "../errors.js";
import type { HttpMethod } from "../request-types.js";

/** A request body as the core sends it: JSON text, bytes, or a stream of bytes (uploads). */
export type WireBody = string | Buffer | Uint8Array | Readable | AsyncIterable<Uint8Array>;

/** The client's own connections (undici's Pool, or node:http's Agent). */
export interface WireOptions {
  /** At most this many keep-alive connections; requests beyond them wait for one. */
  connections: number;
  /** Idle keep-alive connections are closed after this many ms. */
  keepAliveMs: number;
  /** Largest response head accepted, in bytes. */
  maxHeaderSize: number;
}

export interface WireRequest {
  /** Path and query, below the origin. */
  path: string;
  method: HttpMethod;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: WireBody | undefined;
  signal: AbortSignal | undefined;
  /** Bounds the wait for the response headers and each gap in the response body, in ms. */
  timeout: number;
}

export interface WireResponse {
  status: number;
  /** Lower-case names; a repeated header's values joined with ", ". */
  headers: HeadersRecord;
  /** Reads the whole body as UTF-8 text. */
  text(): Promise<string>;
  /** Reads the body and discards it, so that the connection can serve the next request. */
  dump(): Promise<void>;
}

/** What a failure of request(), text() or dump() was, for the attempt's error. Anything else is a connection
 * failure (refused, reset, TLS, ...), whose `code` the retry policy reads (outcome.ts). */
export type WireFailure = "timeout" | "closed" | "connection";

export interface Wire {
  /** Sends one request; resolves once the response's status and headers arrived. */
  request(request: WireRequest): Promise<WireResponse>;
  /** The kind of a failure this wire threw. */
  failure(err: unknown): WireFailure;
  /** Closes the keep-alive connections once the requests in flight are done; later requests fail as "closed". */
  close(): Promise<void>;
}
