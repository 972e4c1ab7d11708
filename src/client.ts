// The SiteOps client: options and their defaults, the resources, and the per-client state every call goes
// through (keep-alive connections, credentials, connection circuit, rate limiter); one call's attempts, retries
// and idempotency keys are in internal/request-loop.ts, one attempt on the wire in internal/transport.ts, over
// undici (internal/undici-wire.ts) or node:http (internal/node-http-wire.ts).

import type { Dispatcher } from "undici";
import { APIPromise, type APIResponse } from "./api-promise.js";
import { ApiTokenAuth, obtainCredentials, type Auth, type LoginOptions } from "./auth.js";
import { apiTokenProblem, baseUrlOf, baseUrlProblem, firstSetting } from "../common/settings.js";
import { ConnectionSettingError, SiteOpsError } from "./errors.js";
import { ConnectionCircuit } from "./internal/circuit.js";
import { createDebugLogger, type RequestLogger } from "./internal/logger.js";
import { envNumber } from "./internal/http.js";
import { NodeHttpWire } from "./internal/node-http-wire.js";
import { RateLimiter } from "./internal/rate-limiter.js";
import { runCall, type CallContext } from "./internal/request-loop.js";
import type { Transport } from "./internal/transport.js";
import { UndiciWire } from "./internal/undici-wire.js";
import type { Wire } from "./internal/wire.js";
import { Operations } from "./operations/index.js";
import type { APIClient, QueryValue, RequestInit, RequestOptions } from "./request-types.js";
import { checkRecord, SHAPES } from "./response-shapes.js";
import { apiPath } from "./internal/api-path.js";
import { Accounts } from "./resources/accounts.js";
import { ActivityLogs } from "./resources/activity-logs.js";
import { Authentication } from "./resources/auth.js";
import { HealthChecks } from "./resources/health-checks.js";
import type { Me } from "./resources/me.js";
import { Sites } from "./resources/sites.js";
import { Snapshots } from "./resources/snapshots.js";
import { UpgradePipelines } from "./resources/upgrade-pipelines.js";
import { Users } from "./resources/users.js";
import { VulnerabilityRecords } from "./resources/vulnerability-records.js";
import { WebhookEndpoints } from "./resources/webhook-endpoints.js";

/** Per-attempt timeout. Env SITEOPS_TIMEOUT_MS. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Retries after the first attempt (within DEFAULT_RETRY_BUDGET_MS). Env SITEOPS_MAX_RETRIES. */
export const DEFAULT_MAX_RETRIES = 8;
/** No retry starts later than this after a call's first attempt. Env SITEOPS_RETRY_BUDGET_MS. */
export const DEFAULT_RETRY_BUDGET_MS = 60_000;
/** A call's whole time, waits behind the rate limiter included: 0, no bound (a fleet run prefers waiting out a
 * busy service to failing). Env SITEOPS_CALL_TIMEOUT_MS. */
export const DEFAULT_CALL_TIMEOUT_MS = 0;
/** Pace requests by the service's RateLimit-* headers. */
export const DEFAULT_PACING = true;
/** Keep-alive connections to the service. */
export const DEFAULT_CONNECTIONS = 32;
/** The HTTP stack requests go through: undici's Pool, the faster once its code is warm (long-lived processes).
 * `"node:http"` takes less CPU in a fresh process making a few hundred requests (the Terraform provider's apply):
 * Node's parser is native and its JS precompiled, where undici's parser is WebAssembly and its JS cold. Figures:
 * BENCHMARKS.md, "Transports" (`npm run bench -- core-transport`). */
export const DEFAULT_TRANSPORT: HttpTransport = "undici";
/** Idle keep-alive sockets are closed after this. */
export const DEFAULT_KEEP_ALIVE_MS = 10_000;
/** Largest response head accepted: Node's default, stated here so that a response is read the same whatever
 * `--max-http-header-size` says (on either transport), and so that undici does not load node:http (a cost at
 * every cold start) to ask. */
export const MAX_HEADER_BYTES = 16 * 1024;

/** The HTTP stack of a client: undici (its Pool, or the `dispatcher` given), or Node's built-in node:http. */
export type HttpTransport = "undici" | "node:http";

export interface ClientOptions {
  /** URL of the service, e.g. `https://siteops.example.com` (absolute http(s), no credentials, query or fragment;
   * trimmed). Env SITEOPS_BASE_URL. Required. */
  baseUrl?: string;
  /** API token (`sot_...`), sent as `Authorization: token ...`; trimmed, and refused with whitespace inside.
   * Env SITEOPS_API_TOKEN. */
  apiToken?: string;
  /** Where `apiToken` came from, as your users know it (`MY_APP_TOKEN`, `the token in ~/.myapp`): an
   * AuthenticationError names it (`credentialSource`) when the service refuses the token. Default `apiToken`, or
   * `SITEOPS_API_TOKEN` when the token was read from the environment. */
  apiTokenSource?: string;
  /** Custom credentials (e.g. a JwtAuth); wins over `apiToken`. `SiteOps.login()` sets it for you. */
  auth?: Auth;
  /** Per-attempt timeout in ms: for the response headers, then for each gap in the response body.
   * Default DEFAULT_TIMEOUT_MS (60 000). Env SITEOPS_TIMEOUT_MS. */
  timeout?: number;
  /** Retries of a failed request (connection errors, 408, 5xx, 409 of a keyed request in progress). 429s are
   * waited out within retryBudgetMs without spending these (0 turns them off too). An unknown host, an https://
   * URL on a plain-HTTP port and a refused connection before the service ever answered are not retried this way:
   * ServiceUnreachableError at once (after one short retry when refused).
   * Default DEFAULT_MAX_RETRIES (8). Env SITEOPS_MAX_RETRIES. */
  maxRetries?: number;
  /** No retry starts later than this many ms after a call's first attempt; a server asking for a longer
   * wait fails the call at once. Default DEFAULT_RETRY_BUDGET_MS (60 000). Env SITEOPS_RETRY_BUDGET_MS. */
  retryBudgetMs?: number;
  /** Bounds a call's whole time in ms: its attempts, retries, backoffs and 429 waits, and its waits behind the
   * client's rate limiter and connection circuit (which `retryBudgetMs` does not count). When it runs out the call
   * fails with CallTimeoutError, naming its last failure. 0: no bound. Default DEFAULT_CALL_TIMEOUT_MS (0).
   * Env SITEOPS_CALL_TIMEOUT_MS. */
  callTimeoutMs?: number;
  /** Pace requests by the service's RateLimit-Remaining/-Reset headers, and hold them all after a 429.
   * Default DEFAULT_PACING (true). */
  pacing?: boolean;
  /** Maximum keep-alive connections to the service. Default DEFAULT_CONNECTIONS (32). */
  connections?: number;
  /** The HTTP stack: `"undici"` (long-lived processes) or `"node:http"` (short-lived processes making a few hundred
   * requests: less CPU to load and to run cold). The same timeouts, errors, retries and connection reuse either
   * way; undici is not loaded at all with `"node:http"`. Default DEFAULT_TRANSPORT (`"undici"`). */
  transport?: HttpTransport;
  /** `X-Account-Id` sent with every request: act in another account the user belongs to. Env SITEOPS_ACCOUNT_ID. */
  accountId?: string;
  /** Headers added to every request. */
  defaultHeaders?: Record<string, string>;
  /** Called after every attempt with method, path, status, duration, request id and redacted headers, and
   * on every retry, rate-limit wait and settled uncertain outcome.
   * Env SITEOPS_DEBUG=1 installs one that prints to stderr. */
  logger?: RequestLogger;
  /** undici dispatcher to send requests through instead of the client's own keep-alive Pool (transport
   * `"undici"` only). `close()` leaves it open. */
  dispatcher?: Dispatcher;
}

export class SiteOps implements APIClient {
  readonly baseUrl: string;
  readonly timeout: number;
  readonly maxRetries: number;
  readonly retryBudgetMs: number;
  /** The bound on a call's whole time in ms (0: none); see ClientOptions.callTimeoutMs. */
  readonly callTimeoutMs: number;

  readonly sites = new Sites(this);
  readonly healthChecks = new HealthChecks(this);
  readonly snapshots = new Snapshots(this);
  readonly upgradePipelines = new UpgradePipelines(this);
  readonly vulnerabilityRecords = new VulnerabilityRecords(this);
  readonly activityLogs = new ActivityLogs(this);
  readonly webhookEndpoints = new WebhookEndpoints(this);
  readonly accounts = new Accounts(this);
  readonly users = new Users(this);
  /** The authentication endpoints themselves; most code wants `SiteOps.login()` and `logout()` instead. */
  readonly auth = new Authentication(this);
  /** Multi-step workflows with waiters: snapshot, upgrade, approve. */
  readonly operations = new Operations(this);

  #credentials: Auth | undefined;
  /** Where the token of `#credentials` came from, while it is the one the constructor read. */
  #credentialSource: string | undefined;
  #transport: Transport;
  #call: CallContext;

  constructor(options: ClientOptions = {}) {
    const env = process.env;
    const foundBase = firstSetting([
      { value: options.baseUrl, name: "baseUrl" },
      { value: env.SITEOPS_BASE_URL, name: "SITEOPS_BASE_URL" },
    ]);
    if (!foundBase) throw new SiteOpsError("No base URL: pass `baseUrl` or set SITEOPS_BASE_URL.");
    const baseProblem = baseUrlProblem(foundBase);
    if (baseProblem) throw new ConnectionSettingError(foundBase.name, baseProblem);
    this.baseUrl = baseUrlOf(foundBase.value);
    const url = new URL(this.baseUrl);
    this.timeout = options.timeout ?? envNumber("SITEOPS_TIMEOUT_MS") ?? DEFAULT_TIMEOUT_MS;
    this.maxRetries = options.maxRetries ?? envNumber("SITEOPS_MAX_RETRIES") ?? DEFAULT_MAX_RETRIES;
    this.retryBudgetMs = options.retryBudgetMs ?? envNumber("SITEOPS_RETRY_BUDGET_MS") ?? DEFAULT_RETRY_BUDGET_MS;
    this.callTimeoutMs = options.callTimeoutMs ?? envNumber("SITEOPS_CALL_TIMEOUT_MS") ?? DEFAULT_CALL_TIMEOUT_MS;
    const foundToken = options.auth
      ? undefined
      : firstSetting([
          { value: options.apiToken, name: "apiToken" },
          { value: env.SITEOPS_API_TOKEN, name: "SITEOPS_API_TOKEN" },
        ]);
    const tokenProblem = foundToken && apiTokenProblem(foundToken);
    if (tokenProblem) throw new ConnectionSettingError(foundToken.name, tokenProblem);
    this.#credentials = options.auth ?? (foundToken ? new ApiTokenAuth(foundToken.value) : undefined);
    if (foundToken) this.#credentialSource = foundToken.name === "apiToken" ? (options.apiTokenSource ?? "apiToken") : foundToken.name;
    const logger = options.logger ?? (env.SITEOPS_DEBUG ? createDebugLogger() : undefined);
    this.#transport = {
      origin: url.origin,
      basePath: url.pathname.replace(/\/+$/, ""),
      wire: makeWire(url.origin, options),
      defaultHeaders: { ...options.defaultHeaders },
      accountId: options.accountId ?? env.SITEOPS_ACCOUNT_ID,
      timeout: this.timeout,
      logger,
    };
    const policy = { maxRetries: this.maxRetries, budgetMs: this.retryBudgetMs };
    this.#call = {
      client: this,
      transport: this.#transport,
      credentials: () => this.#credentials,
      credentialSource: () => this.#credentialSource,
      policy,
      callTimeoutMs: this.callTimeoutMs,
      // One circuit and one limiter per client, shared by all its calls (the provider, the action and the
      // CLI each make one client per process).
      circuit: new ConnectionCircuit(url.origin, policy),
      limiter: (options.pacing ?? DEFAULT_PACING) ? new RateLimiter() : undefined,
      logger,
    };
  }

  /** Logs in with email and password (JWT). The client refreshes its tokens itself; `logout()` revokes them.
   * Throws OtpRequiredError when the user has 2FA and no `otp` was given. */
  static async login(options: LoginOptions & Omit<ClientOptions, "apiToken" | "auth">): Promise<SiteOps> {
    const { email, password, otp, tokenType, name, ...clientOptions } = options;
    const client = new SiteOps(clientOptions);
    client.#credentials = undefined; // not SITEOPS_API_TOKEN from the environment
    client.#credentialSource = undefined;
    try {
      client.#credentials = await obtainCredentials(client, { email, password, otp, tokenType, name });
    } catch (err) {
      await client.close();
      throw err;
    }
    return client;
  }

  /** The signed-in user and their current account id. */
  me(options?: RequestOptions): APIPromise<Me> {
    return this.send<Me>({ method: "GET", path: apiPath`/me`, ...options, expect: SHAPES.user });
  }

  /** The credentials in use (undefined after logout). */
  get credentials(): Auth | undefined {
    return this.#credentials;
  }

  /** Revokes the client's credentials (JWT pair, or the API token via DELETE /api/v1/auth) and closes it. */
  async logout(options?: RequestOptions): Promise<void> {
    const credentials = this.#credentials;
    if (credentials) await credentials.logout(this, options);
    this.#credentials = undefined;
    await this.close();
  }

  /** Closes the keep-alive connections once the requests in flight are done (a `dispatcher` given in the options
   * stays open). The client cannot be used afterwards. */
  close(): Promise<void> {
    return this.#transport.wire.close();
  }

  get<T>(path: string, options?: RequestOptions & { query?: Record<string, QueryValue> }): APIPromise<T> {
    return this.send<T>({ method: "GET", path, ...options });
  }
  post<T>(path: string, body?: unknown, options?: RequestOptions): APIPromise<T> {
    return this.send<T>({ method: "POST", path, body, ...options });
  }
  patch<T>(path: string, body: unknown, options?: RequestOptions): APIPromise<T> {
    return this.send<T>({ method: "PATCH", path, body, ...options });
  }
  delete(path: string, options?: RequestOptions): APIPromise<void> {
    return this.send<void>({ method: "DELETE", path, ...options });
  }

  /** Sends a request with retries; resolves with the parsed body and response metadata. */
  request<T>(init: RequestInit): Promise<APIResponse<T>> {
    const call = runCall<T>(this.#call, init);
    const shape = init.expect;
    if (!shape) return call;
    return call.then((response) => {
      checkRecord(shape, response.data, { endpoint: `${init.method} ${init.path}`, requestId: response.requestId });
      return response;
    });
  }

  /** As request(), resolving with the parsed body; `.withResponse()` gives the status, headers and request id. */
  send<T>(init: RequestInit): APIPromise<T> {
    return new APIPromise<T>(this.request<T>(init));
  }
}

function makeWire(origin: string, options: ClientOptions): Wire {
  const transport = options.transport ?? DEFAULT_TRANSPORT;
  const own = { connections: options.connections ?? DEFAULT_CONNECTIONS, keepAliveMs: DEFAULT_KEEP_ALIVE_MS, maxHeaderSize: MAX_HEADER_BYTES };
  if (transport === "undici") return new UndiciWire(origin, own, options.dispatcher);
  if (transport !== "node:http") throw new SiteOpsError(`Invalid transport: ${String(transport)} (use "undici" or "node:http").`);
  if (options.dispatcher) {
    throw new SiteOpsError('`dispatcher` is an undici Dispatcher: it cannot be used with `transport: "node:http"`; pass one or the other.');
  }
  return new NodeHttpWire(origin, own);
}
