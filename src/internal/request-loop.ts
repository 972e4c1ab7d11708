// The life of one call, attempt by attempt: pacing by the rate limiter, the connection circuit, credentials
// (with one renewal on 401), the Idempotency-Key shared by every attempt, retries within the call's budget,
// and the settling of a failure that follows an attempt whose outcome is unknown. Failures that say the base URL
// is wrong end the call early (base-url-failures.ts). A call timeout (`callTimeoutMs`) bounds all of it, the
// waits behind the rate limiter and the circuit included: the call then fails with CallTimeoutError.

import type { Auth } from "../auth.js";
import type { APIClient, APIResponse, RequestInit, Settle } from "../request-types.js";
import { APIConnectionError, APIError, APIUserAbortError, CallTimeoutError } from "../errors.js";
import { refusedFirstContact, unreachableError, wrongBaseUrl } from "./base-url-failures.js";
import { builtin } from "./builtins.js";
import type { CircuitTicket, ConnectionCircuit } from "./circuit.js";
import type { RequestLogger } from "./logger.js";
import { connectFailed, failureReason, uncertainFailure, uncertainStatus } from "./outcome.js";
import type { RateLimiter } from "./rate-limiter.js";
import { jitterServerDelay, RETRYABLE_STATUSES, RetryState, serverDelay, type RetryPolicy } from "./retry.js";
import { sleep } from "./sleep.js";
import { sendOnce, type Transport } from "./transport.js";

/** What the loop needs of the client it runs for. */
export interface CallContext {
  client: APIClient;
  transport: Transport;
  credentials(): Auth | undefined;
  /** Where the client's API token came from, for a 401's error (undefined for other credentials). */
  credentialSource(): string | undefined;
  /** The client's retry policy (per-call options override it). */
  policy: RetryPolicy;
  /** The client's bound on a call's whole time in ms, 0 for none (a per-call `callTimeoutMs` overrides it). */
  callTimeoutMs: number;
  circuit: ConnectionCircuit;
  /** Absent when pacing is off. */
  limiter: RateLimiter | undefined;
  logger: RequestLogger | undefined;
}

/** A retried DELETE that finds nothing: an earlier attempt whose answer was lost deleted it. */
const goneMeansDeleted: Settle = (error) =>
  error.status === 404
    ? { response: { data: undefined, status: 404, headers: error.headers, requestId: error.requestId }, note: "deleted by an earlier attempt" }
    : undefined;

/** Methods that carry an Idempotency-Key: the service replays the first answer to a repeat instead of
 * carrying it out again (a PATCH repeated after another writer's change would undo that change). */
const KEYED: ReadonlySet<string> = new Set(["POST", "PATCH"]);

/** What a call was doing, for the message of a call that ran out of time. */
interface Progress {
  /** Why its last attempt failed ("429 response", "connection reset"). */
  lastFailure?: string;
  /** What it was waiting for when it was not sending. */
  waitingFor?: string;
}

export async function runCall<T>(ctx: CallContext, init: RequestInit): Promise<APIResponse<T>> {
  const limitMs = init.callTimeoutMs ?? ctx.callTimeoutMs;
  if (!(limitMs > 0)) return attempts<T>(ctx, init, {});
  // A timer of the global setTimeout (not AbortSignal.timeout), so that fake clocks drive it as they drive the waits.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error(`no success within ${limitMs} ms`)), limitMs);
  const signal = init.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal;
  const progress: Progress = {};
  try {
    return await attempts<T>(ctx, { ...init, signal }, progress);
  } catch (err) {
    if (deadline.signal.aborted && !init.signal?.aborted && err instanceof APIUserAbortError) {
      throw new CallTimeoutError({ method: init.method, path: init.path, timeoutMs: limitMs, ...progress }, { cause: err });
    }
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

async function attempts<T>(ctx: CallContext, init: RequestInit, progress: Progress): Promise<APIResponse<T>> {
  const policy: RetryPolicy = {
    maxRetries: init.maxRetries ?? ctx.policy.maxRetries,
    budgetMs: init.retryBudgetMs ?? ctx.policy.budgetMs,
  };
  const idempotencyKey = init.idempotencyKey ?? (KEYED.has(init.method) ? `siteops-${builtin("node:crypto").randomUUID()}` : undefined);
  const settle = init.settle ?? (init.method === "DELETE" ? goneMeansDeleted : undefined);
  const authenticate = init.authenticate !== false;
  const log = ctx.logger;
  let retries: RetryState | undefined;
  /** Why an earlier attempt's outcome is unknown, once one was. */
  let uncertain: string | undefined;
  let recovered = false;
  let lastFailure: unknown;
  const baseUrl = ctx.transport.origin + ctx.transport.basePath;
  const unreachable = () =>
    lastFailure instanceof Error ? lastFailure : new APIConnectionError(`Connection error: ${ctx.transport.origin} is not accepting connections.`);

  for (let attempt = 0; ; attempt++) {
    // Credentials first: renewing them is a request of its own, which must not wait behind this one.
    const credentials = authenticate ? ctx.credentials() : undefined;
    const header = credentials?.authorization(ctx.client);
    const authorization = typeof header === "object" ? await header : header; // a token needs no await
    if (ctx.limiter && !ctx.limiter.tryAcquire()) {
      // Waiting for the rate limit is not spending the retry budget; only a single wait longer than the whole
      // budget is not made (the request goes, and the service's 429 with its Retry-After ends the call).
      progress.waitingFor = "its turn behind the client's rate limit";
      const waited = await ctx.limiter.acquire(init.signal, policy.budgetMs);
      progress.waitingFor = undefined;
      retries?.extend(waited);
      if (waited > 0) log?.({ kind: "rate_limit", method: init.method, path: init.path, delayMs: waited });
    }
    retries ??= new RetryState(policy);
    let ticket: CircuitTicket | undefined;
    let response: APIResponse<unknown> | undefined;
    let failure: unknown;
    try {
      ticket = ctx.circuit.tryAdmit();
      if (!ticket) {
        progress.waitingFor = "another call's probe of the service";
        ticket = await ctx.circuit.admit(init.signal, retries.deadline, unreachable);
        progress.waitingFor = undefined;
      }
      response = await sendOnce(ctx.transport, { init, authorization, idempotencyKey, attempt });
    } catch (err) {
      failure = err;
    }
    if (!response) ctx.limiter?.failed();
    if (!ticket) throw failure; // the circuit is open, or the call gave up or was aborted waiting for it
    const refused = response === undefined && connectFailed(failure);
    ctx.circuit.report(ticket, refused ? "connect_failed" : response ? "response" : failure instanceof APIConnectionError ? "answered" : "other", failure);

    let delay: number | undefined;
    if (response) {
      ctx.limiter?.observe(response.status, response.headers);
      if (response.status < 400) return { ...response, retries: attempt } as APIResponse<T>;
      const error = APIError.generate(response.status, response.data, response.headers, authorization ? ctx.credentialSource() : undefined);
      if (response.status === 404) {
        const wrong = wrongBaseUrl({ method: init.method, baseUrl, origin: ctx.transport.origin, basePath: ctx.transport.basePath, path: init.path }, response);
        if (wrong) throw wrong;
      }
      // An expired access token is renewed once (single-flight across concurrent calls), outside the retry budget.
      if (response.status === 401 && authorization && !recovered && credentials) {
        recovered = true;
        if (await credentials.recover(ctx.client, authorization, error)) continue;
      }
      if (uncertain && settle) {
        const settled = await settle(error);
        if (settled) {
          log?.({ kind: "settled", method: init.method, path: init.path, status: response.status, uncertain, note: settled.note });
          return settled.response as APIResponse<T>;
        }
      }
      // 409 on a keyed request means "the same request is still in progress": wait and send it again.
      const retryable = RETRYABLE_STATUSES.has(response.status) || (response.status === 409 && idempotencyKey !== undefined);
      if (!retryable) throw error;
      uncertain ??= uncertainStatus(response.status, idempotencyKey !== undefined);
      const requested = serverDelay(response.headers);
      if (requested === undefined) delay = retries.next();
      else if (response.status === 429) delay = retries.rateLimited(jitterServerDelay(requested));
      else delay = retries.next(jitterServerDelay(requested));
      if (delay === undefined) throw error;
    } else {
      if (!(failure instanceof APIConnectionError)) throw failure;
      lastFailure = failure;
      const at = { baseUrl, contacted: ctx.circuit.contacted, refusals: ctx.circuit.refusals, abandoned: ctx.circuit.abandoned };
      let dead = unreachableError(failure, at);
      if (!dead) {
        if (refused) {
          // Never sent. The circuit spaces the next attempt out (one probe for all of the client's calls).
          delay = retries.next(0);
        } else {
          uncertain ??= uncertainFailure(failure);
          delay = retries.next();
        }
        if (delay === undefined) dead = refusedFirstContact(failure, at);
      }
      if (dead) {
        ctx.circuit.abandon(dead); // the calls waiting for this one's probe fail with it too
        throw dead;
      }
      if (delay === undefined) throw ctx.circuit.openError() ?? failure;
    }
    progress.lastFailure = response ? `${response.status} response` : failureReason(failure);
    log?.({
      kind: "retry",
      method: init.method,
      path: init.path,
      reason: progress.lastFailure,
      attempt: retries.retries + retries.rateLimits,
      delayMs: refused ? ctx.circuit.waitMs : delay,
    });
    await sleep(delay, { signal: init.signal });
  }
}
