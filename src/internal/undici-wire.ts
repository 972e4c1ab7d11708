// The attempt's HTTP stack on undici: the client's own keep-alive Pool, or a Dispatcher the caller passed (a
// proxy agent, MockAgent in tests). undici is imported at the first request, not when the core loads, so that a
// client on node:http never evaluates it (the bundles keep it as a module that runs only then).

import type { Dispatcher } from "undici";
import { SiteOpsError } from "../errors.js";
import { flattenHeaders } from "./http.js";
import type { Wire, WireFailure, WireOptions, WireRequest, WireResponse } from "./wire.js";

const TIMEOUT_CODES: ReadonlySet<string> = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);
const CLOSED_CODES: ReadonlySet<string> = new Set(["UND_ERR_CLOSED", "UND_ERR_DESTROYED"]);

/** A request after close() when the Pool was never made (undici's own closed error is the same kind). */
class WireClosedError extends Error {
  readonly code = "UND_ERR_CLOSED";
}

export class UndiciWire implements Wire {
  readonly #origin: string;
  readonly #pool: WireOptions;
  /** The caller's dispatcher, or the own Pool once made. */
  #dispatcher: Dispatcher | undefined;
  #loading: Promise<Dispatcher> | undefined;
  readonly #own: boolean;
  #closed = false;
  #closing: Promise<void> | undefined;

  /** `dispatcher`: the caller's, which close() leaves open; without it the wire makes its own Pool. */
  constructor(origin: string, pool: WireOptions, dispatcher?: Dispatcher) {
    this.#origin = origin;
    this.#pool = pool;
    this.#dispatcher = dispatcher;
    this.#own = !dispatcher;
  }

  async request(r: WireRequest): Promise<WireResponse> {
    const dispatcher = this.#dispatcher ?? (await this.#load());
    const res = await dispatcher.request({
      origin: this.#origin,
      path: r.path,
      method: r.method,
      headers: r.headers,
      // undici sends async iterables too (documented), its typings only list the other kinds.
      body: r.body as Dispatcher.DispatchOptions["body"],
      signal: r.signal,
      // undici's own timers, not an AbortSignal per request: an AbortController + listener per call cost much of
      // the throughput of `npm run bench -- core-sites-get` (BENCHMARKS.md, API core).
      headersTimeout: r.timeout,
      bodyTimeout: r.timeout,
    });
    return {
      status: res.statusCode,
      headers: flattenHeaders(res.headers),
      text: () => res.body.text(),
      dump: () => res.body.dump(),
    };
  }

  failure(err: unknown): WireFailure {
    const code = (err as { code?: unknown } | undefined)?.code;
    if (typeof code === "string" && TIMEOUT_CODES.has(code)) return "timeout";
    if (typeof code === "string" && CLOSED_CODES.has(code)) return "closed";
    return "connection";
  }

  close(): Promise<void> {
    this.#closed = true;
    // Once: undici rejects a second close() of a Pool (logout() closes, and a caller's finally may close again).
    this.#closing ??= (async () => {
      if (!this.#own) return;
      const dispatcher = this.#dispatcher ?? (await this.#loading?.catch(() => undefined));
      await dispatcher?.close();
    })();
    return this.#closing;
  }

  /** Imports undici and makes the Pool, once (concurrent first requests share the import). */
  #load(): Promise<Dispatcher> {
    if (this.#closed && !this.#loading) return Promise.reject(new WireClosedError("This client was closed before it sent a request."));
    this.#loading ??= import("undici").then(
      ({ Pool }) => {
        if (this.#closed) throw new WireClosedError("This client was closed before it sent a request.");
        this.#dispatcher = new Pool(this.#origin, {
          connections: this.#pool.connections,
          keepAliveTimeout: this.#pool.keepAliveMs,
          maxHeaderSize: this.#pool.maxHeaderSize,
        });
        return this.#dispatcher;
      },
      // Not a connection failure: retrying cannot help.
      (err: unknown) => {
        throw new SiteOpsError(`undici could not be loaded: ${(err as Error).message}`, { cause: err });
      },
    );
    return this.#loading;
  }
}
