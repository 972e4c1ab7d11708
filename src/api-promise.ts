// What the client's calls return: a promise of the parsed body that also gives the response it came from
// (status, headers, request id) through `.withResponse()`, or `withResponse(call)` for any method.

import { SiteOpsError, type HeadersRecord } from "./errors.js";

/** A response: the parsed body and what came with it. */
export interface APIResponse<T> {
  data: T;
  status: number;
  /** Response headers, lower-case names. */
  headers: HeadersRecord;
  /** `X-Request-Id`: quote it when reporting a problem. */
  requestId: string | undefined;
  /** Attempts of this call before the one answered (0: the first attempt's answer). With `Idempotent-Replayed: true`
   * and retries, the replayed answer may be the call's own earlier attempt's, whose answer was lost. */
  retries?: number;
}

/** A Promise of the response body, with `.withResponse()` for the response itself. */
export class APIPromise<T> extends Promise<T> {
  // then/catch/finally make plain Promises: this constructor does not take an executor.
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  readonly #response: Promise<APIResponse<T>>;

  constructor(response: Promise<APIResponse<T>>) {
    let resolveData!: (data: T) => void;
    let rejectData!: (reason: unknown) => void;
    super((resolve, reject) => {
      resolveData = resolve;
      rejectData = reject;
    });
    this.#response = response;
    response.then((r) => resolveData(r.data), rejectData);
  }

  /** The body with the response's status, headers and request id: `const { data, requestId } = await ...`. */
  withResponse(): Promise<APIResponse<T>> {
    // Whoever asks for the response handles the failure there; the body promise must not also be reported
    // as an unhandled rejection.
    this.catch(() => undefined);
    return this.#response;
  }
}

/**
 * The response of a call made through a client method, e.g.
 * `const { data: site, requestId, headers } = await withResponse(so.sites.create(body))`.
 */
export function withResponse<T>(call: PromiseLike<T>): Promise<APIResponse<T>> {
  if (call instanceof APIPromise) return (call as APIPromise<T>).withResponse();
  return Promise.reject(
    new SiteOpsError("withResponse() takes the promise a SiteOps method returned (so.sites.get(...), so.get(...)), not a list or an operation."),
  );
}
