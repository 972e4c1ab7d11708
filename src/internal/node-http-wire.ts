// The attempt's HTTP stack on Node's built-in node:http (node:https for an https base URL), with one keep-alive
// Agent per client. For short-lived processes: its parser is native and its JS is compiled into the node
// binary, where undici's parser is WebAssembly and its JS cold in a new process (bench/core-transport.bench.ts).
// It behaves as the undici wire does: the same timeouts, kinds of failure and connection reuse.

import type { Agent, ClientRequest, IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import type { HeadersRecord } from "../errors.js";
import { builtin } from "./builtins.js";
import type { Wire, WireFailure, WireOptions, WireRequest, WireResponse } from "./wire.js";

/** undici's default connect timeout, so that a host that never accepts the connection fails alike on both
 * stacks: as a connection that could not be made (never sent), whatever the request's `timeout`. */
const CONNECT_TIMEOUT_MS = 10_000;

/** Methods that send `content-length: 0` without a body, as undici does. */
const PAYLOAD_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH"]);

/** A failure this wire detects itself; `code` says which (the retry policy reads codes, outcome.ts). */
class WireError extends Error {
  constructor(
    message: string,
    readonly code: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** node:https reports a TLS record it cannot read (an https:// URL on a plain-HTTP port) as `EPROTO` with OpenSSL's
 * text, where undici gives OpenSSL's reason as the code (`ERR_SSL_WRONG_VERSION_NUMBER`): the same code here. */
function withTlsCode(err: Error): Error {
  if ((err as NodeJS.ErrnoException).code !== "EPROTO") return err;
  const reason = /:SSL routines:[^:]*:([a-z ]+):/i.exec(err.message)?.[1];
  return reason ? new WireError(`TLS error: ${reason}`, `ERR_SSL_${reason.toUpperCase().replace(/ /g, "_")}`, { cause: err }) : err;
}

const CLOSED = "CLIENT_CLOSED";
const TIMEOUT_CODES: ReadonlySet<string> = new Set(["HEADERS_TIMEOUT", "BODY_TIMEOUT"]);

export class NodeHttpWire implements Wire {
  /** node:http, or node:https (the same request and Agent, over TLS). */
  readonly #http: Pick<typeof import("node:http"), "request" | "Agent">;
  readonly #agent: Agent;
  readonly #host: string;
  readonly #port: number;
  readonly #secure: boolean;
  readonly #maxHeaderSize: number;
  #inFlight = 0;
  #closed = false;
  #closing: Promise<void> | undefined;
  #idle: (() => void) | undefined;

  constructor(origin: string, options: WireOptions) {
    const url = new URL(origin);
    this.#secure = url.protocol === "https:";
    // Loaded here, not when the core loads: a client on undici never needs them, and they cost every cold start.
    this.#http = this.#secure ? builtin("node:https") : builtin("node:http");
    this.#host = url.hostname.replace(/^\[(.*)\]$/, "$1"); // [::1] -> ::1
    this.#port = Number(url.port) || (this.#secure ? 443 : 80);
    this.#maxHeaderSize = options.maxHeaderSize;
    // `timeout` is the idle time after which a free socket is closed; a request in use sets its own.
    this.#agent = new this.#http.Agent({ keepAlive: true, maxSockets: options.connections, timeout: options.keepAliveMs });
  }

  request(r: WireRequest): Promise<WireResponse> {
    if (this.#closed) return Promise.reject(new WireError("This client was closed.", CLOSED));
    return new Promise((resolve, reject) => {
      /** The first failure of this exchange: what the request and the reading of its response fail with. */
      let failed: Error | undefined;
      let responded = false;
      let connected = false;
      let req: ClientRequest;
      try {
        req = this.#http.request(
          {
            agent: this.#agent,
            host: this.#host,
            port: this.#port,
            path: r.path,
            method: r.method,
            headers: r.headers,
            // The socket's idle timeout while this request has it: from the moment it does, the wait for the
            // response headers and each gap in the body (writing the request body counts as activity).
            timeout: r.timeout,
            maxHeaderSize: this.#maxHeaderSize,
          },
          (res) => {
            responded = true;
            // An answer complete before the body was all sent (a 413, a 401) ends the sending, as undici does: the
            // rest of the body is not read, and the connection, in an unknown state, is closed.
            res.once("end", () => {
              if (!req.writableFinished) req.destroy();
            });
            resolve(response(res, () => failed));
          },
        );
      } catch (err) {
        // Invalid headers or path, refused before anything is sent.
        reject(err);
        return;
      }
      // Rejects at once: a request still queued for a socket reports its destruction only once it gets one.
      const fail = (err: Error): void => {
        failed ??= err;
        req.destroy(failed); // also the socket: it is not reused
        reject(failed);
      };
      // The caller's signal, handled here rather than by node:http for the same reason.
      const signal = r.signal;
      const onAbort = (): void => fail(new WireError("The request was aborted.", "ABORT_ERR"));
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#inFlight++;
      req.on("close", () => {
        signal?.removeEventListener("abort", onAbort);
        if (--this.#inFlight === 0) this.#idle?.();
      });
      req.on("error", (err) => reject(failed ?? withTlsCode(err)));
      req.on("socket", (socket) => {
        if (!socket.connecting) {
          connected = true;
          return;
        }
        socket.setTimeout(CONNECT_TIMEOUT_MS);
        socket.once(this.#secure ? "secureConnect" : "connect", () => {
          connected = true;
          socket.setTimeout(r.timeout);
        });
      });
      req.on("timeout", () => {
        if (!connected) {
          fail(
            new WireError(
              `Connect timeout (attempted address: ${this.#host}:${this.#port}, timeout: ${CONNECT_TIMEOUT_MS} ms)`,
              "ERR_SOCKET_CONNECTION_TIMEOUT",
            ),
          );
        } else if (responded) fail(new WireError("Body timeout", "BODY_TIMEOUT"));
        else fail(new WireError("Headers timeout", "HEADERS_TIMEOUT"));
      });
      const body = r.body;
      if (body === undefined) {
        if (PAYLOAD_METHODS.has(r.method) && !req.hasHeader("content-length")) req.setHeader("content-length", "0");
        req.end();
      } else if (typeof body === "string" || body instanceof Uint8Array) {
        if (!req.hasHeader("content-length")) req.setHeader("content-length", String(Buffer.byteLength(body)));
        req.end(body);
      } else {
        void writeStream(req, body, fail);
      }
    });
  }

  failure(err: unknown): WireFailure {
    const code = (err as { code?: unknown } | undefined)?.code;
    if (typeof code === "string" && TIMEOUT_CODES.has(code)) return "timeout";
    if (code === CLOSED) return "closed";
    return "connection";
  }

  close(): Promise<void> {
    this.#closed = true;
    this.#closing ??= new Promise<void>((resolve) => {
      this.#idle = resolve;
      if (this.#inFlight === 0) resolve();
    }).then(() => this.#agent.destroy());
    return this.#closing;
  }
}

/** Writes a streamed body at the socket's pace: the next chunk is pulled only once the previous one was handed
 * to the socket (upload-data.ts reuses its read buffers on that promise). A failure of the source ends the
 * request (and its socket) with that error. */
async function writeStream(req: ClientRequest, body: Readable | AsyncIterable<Uint8Array>, fail: (err: Error) => void): Promise<void> {
  try {
    for await (const chunk of body as AsyncIterable<Uint8Array>) {
      if (req.destroyed) return; // the attempt failed: leaving the loop ends the source
      if (!req.write(chunk)) await drained(req);
    }
    if (!req.destroyed) req.end();
  } catch (err) {
    fail(err instanceof Error ? err : new Error(String(err)));
  }
}

function drained(req: ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      req.off("drain", done);
      req.off("close", done);
      resolve();
    };
    req.on("drain", done);
    req.on("close", done);
  });
}

function response(res: IncomingMessage, failed: () => Error | undefined): WireResponse {
  // Until the body is read, a failure is kept for the reader (a stream error without a listener would throw).
  res.on("error", () => undefined);
  return {
    status: res.statusCode ?? 0,
    headers: joinHeaders(res.rawHeaders),
    text: () => read(res, failed, true),
    dump: () => read(res, failed, false).then(() => undefined),
  };
}

function read(res: IncomingMessage, failed: () => Error | undefined, keep: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    if (res.errored) return reject(failed() ?? res.errored);
    const chunks: Buffer[] = [];
    if (keep) res.on("data", (chunk: Buffer) => chunks.push(chunk));
    else res.resume();
    res.on("end", () => {
      const text = chunks.length === 1 ? chunks[0]!.toString() : Buffer.concat(chunks).toString();
      resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text); // a BOM dropped, as undici's text() does
    });
    res.on("error", (err) => reject(failed() ?? err));
    res.on("close", () => {
      if (!res.complete) reject(failed() ?? new WireError("The connection closed before the response ended.", "ECONNRESET"));
    });
  });
}

/** Response headers as undici gives them to the undici wire: lower-case names, a repeated header's values
 * joined with ", " (node:http's own `headers` drops repeats of some, e.g. content-type). */
function joinHeaders(raw: string[]): HeadersRecord {
  const out: HeadersRecord = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const previous = out[name];
    out[name] = previous === undefined ? raw[i + 1]! : `${previous}, ${raw[i + 1]}`;
  }
  return out;
}
