// The SiteOps client: options and their defaults, the resources, and the request pipeline every call goes
// through (auth header, JSON, timeout and cancellation, retries with backoff, idempotency keys, logging).

import type { Readable } from "node:stream";
import { Pool, type Dispatcher } from "undici";
import { ApiTokenAuth, obtainCredentials, type Auth, type LoginOptions } from "./auth.js";
import { APIConnectionError, APIError, APIUserAbortError, SiteOpsError, type HeadersRecord } from "./errors.js";
import { backoffDelay, RETRYABLE_STATUSES, retryDelay, sleep } from "./internal/backoff.js";
import { builtin } from "./internal/builtins.js";
import { createDebugLogger, type RequestLogger } from "./internal/logger.js";
import { envNumber } from "./internal/http.js";
import { sendOnce, type Transport } from "./internal/transport.js";
import { Operations } from "./operations/index.js";
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
/** Retries after the first attempt. Env SITEOPS_MAX_RETRIES. */
export const DEFAULT_MAX_RETRIES = 2;
/** Keep-alive connections to the service. */
export const DEFAULT_CONNECTIONS = 32;
/** Idle keep-alive sockets are closed after this. */
export const DEFAULT_KEEP_ALIVE_MS = 10_000;
/** Largest response head accepted: Node's default, stated here so that a response is read the same whatever
 * `--max-http-header-size` says, and so that undici does not load node:http (~4 ms of a cold start) to ask. */
export const MAX_HEADER_BYTES = 16 * 1024;

export interface ClientOptions {
  /** URL of the service, e.g. `https://siteops.example.com`. Env SITEOPS_BASE_URL. Required. */
  baseUrl?: string;
  /** API token (`sot_...`), sent as `Authorization: token ...`. Env SITEOPS_API_TOKEN. */
  apiToken?: string;
  /** Custom credentials (e.g. a JwtAuth); wins over `apiToken`. `SiteOps.login()` sets it for you. */
  auth?: Auth;
  /** Per-attempt timeout in ms: for the response headers, then for each gap in the response body.
   * Default DEFAULT_TIMEOUT_MS (60 000). Env SITEOPS_TIMEOUT_MS. */
  timeout?: number;
  /** Retries of a failed request (connection errors, 408, 429, 5xx). Default 2. Env SITEOPS_MAX_RETRIES. */
  maxRetries?: number;
  /** Maximum keep-alive connections to the service. Default DEFAULT_CONNECTIONS (32). */
  connections?: number;
  /** `X-Account-Id` sent with every request: act in another account the user belongs to. Env SITEOPS_ACCOUNT_ID. */
  accountId?: string;
  /** Headers added to every request. */
  defaultHeaders?: Record<string, string>;
  /** Called after every attempt with method, path, status, duration, request id and redacted headers.
   * Env SITEOPS_DEBUG=1 installs one that prints to stderr. */
  logger?: RequestLogger;
  /** undici dispatcher to send requests through instead of the client's own keep-alive Pool. */
  dispatcher?: Dispatcher;
}

/** Options every method accepts as its last argument; they override the client's. */
export interface RequestOptions {
  /** Per-attempt timeout in ms. */
  timeout?: number;
  maxRetries?: number;
  signal?: AbortSignal;
  /** Key for a POST; generated when absent, and the same across retries of the call. */
  idempotencyKey?: string;
  headers?: Record<string, string>;
  accountId?: string;
}

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type QueryValue = string | number | boolean | null | undefined;

/** A body that can be produced again for each attempt (a stream cannot be replayed). */
export type BodyFactory = () => Readable | AsyncIterable<Uint8Array> | Buffer | Uint8Array | string;

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
}

export interface APIResponse<T> {
  data: T;
  status: number;
  headers: HeadersRecord;
  requestId: string | undefined;
}

export class SiteOps {
  readonly baseUrl: string;
  readonly timeout: number;
  readonly maxRetries: number;

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
  #transport: Transport;
  #ownDispatcher: boolean;
  #logger: RequestLogger | undefined;

  constructor(options: ClientOptions = {}) {
    const env = process.env;
    const baseUrl = options.baseUrl ?? env.SITEOPS_BASE_URL;
    if (!baseUrl) throw new SiteOpsError("No base URL: pass `baseUrl` or set SITEOPS_BASE_URL.");
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      throw new SiteOpsError(`Invalid base URL: ${baseUrl}`);
    }
    this.baseUrl = url.href.replace(/\/+$/, "");
    this.timeout = options.timeout ?? envNumber("SITEOPS_TIMEOUT_MS") ?? DEFAULT_TIMEOUT_MS;
    this.maxRetries = options.maxRetries ?? envNumber("SITEOPS_MAX_RETRIES") ?? DEFAULT_MAX_RETRIES;
    const apiToken = options.apiToken ?? env.SITEOPS_API_TOKEN;
    this.#credentials = options.auth ?? (apiToken ? new ApiTokenAuth(apiToken) : undefined);
    this.#logger = options.logger ?? (env.SITEOPS_DEBUG ? createDebugLogger() : undefined);
    this.#ownDispatcher = !options.dispatcher;
    this.#transport = {
      origin: url.origin,
      basePath: url.pathname.replace(/\/+$/, ""),
      dispatcher:
        options.dispatcher ??
        new Pool(url.origin, { connections: options.connections ?? DEFAULT_CONNECTIONS, keepAliveTimeout: DEFAULT_KEEP_ALIVE_MS, maxHeaderSize: MAX_HEADER_BYTES }),
      defaultHeaders: { ...options.defaultHeaders },
      accountId: options.accountId ?? env.SITEOPS_ACCOUNT_ID,
      timeout: this.timeout,
      logger: this.#logger,
    };
  }

  /** Logs in with email and password (JWT). The client refreshes its tokens itself; `logout()` revokes them.
   * Throws OtpRequiredError when the user has 2FA and no `otp` was given. */
  static async login(options: LoginOptions & Omit<ClientOptions, "apiToken" | "auth">): Promise<SiteOps> {
    const { email, password, otp, tokenType, name, ...clientOptions } = options;
    const client = new SiteOps(clientOptions);
    client.#credentials = undefined; // not SITEOPS_API_TOKEN from the environment
    try {
      client.#credentials = await obtainCredentials(client, { email, password, otp, tokenType, name });
    } catch (err) {
      await client.close();
      throw err;
    }
    return client;
  }

  /** The signed-in user and their current account id. */
  me(options?: RequestOptions): Promise<Me> {
    return this.get<Me>("/api/v1/me", options);
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

  /** Closes the keep-alive connections. The client cannot be used afterwards. */
  async close(): Promise<void> {
    if (this.#ownDispatcher) await this.#transport.dispatcher.close();
  }

  get<T>(path: string, options?: RequestOptions & { query?: Record<string, QueryValue> }): Promise<T> {
    return this.request<T>({ method: "GET", path, ...options }).then((r) => r.data);
  }
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return this.request<T>({ method: "POST", path, body, ...options }).then((r) => r.data);
  }
  patch<T>(path: string, body: unknown, options?: RequestOptions): Promise<T> {
    return this.request<T>({ method: "PATCH", path, body, ...options }).then((r) => r.data);
  }
  delete(path: string, options?: RequestOptions): Promise<void> {
    return this.request<unknown>({ method: "DELETE", path, ...options }).then(() => undefined);
  }

  /** Sends a request with retries; resolves with the parsed body and response metadata. */
  async request<T>(init: RequestInit): Promise<APIResponse<T>> {
    const maxRetries = init.maxRetries ?? this.maxRetries;
    // POSTs are retried only with a key, so a create that reached the server before the failure is replayed,
    // not repeated. The key is fixed once here and shared by every attempt.
    const idempotencyKey = init.idempotencyKey ?? (init.method === "POST" ? `siteops-${builtin("node:crypto").randomUUID()}` : undefined);
    const authenticate = init.authenticate !== false;
    let recovered = false;
    for (let retry = 0; ; ) {
      let authorization = authenticate && this.#credentials ? this.#credentials.authorization(this) : undefined;
      if (typeof authorization === "object") authorization = await authorization; // a token needs no await
      let delay: number;
      try {
        const response = await sendOnce(this.#transport, init, authorization, idempotencyKey, retry);
        if (response.status < 400) return response as APIResponse<T>;
        const error = APIError.generate(response.status, response.data, response.headers);
        // An expired access token is renewed once (single-flight across concurrent calls), outside the retry budget.
        if (response.status === 401 && authorization && !recovered && this.#credentials) {
          recovered = true;
          if (await this.#credentials.recover(this, authorization, error)) continue;
        }
        // 409 on a keyed POST means "the same request is still in progress": wait and replay it.
        const retryable = RETRYABLE_STATUSES.has(response.status) || (response.status === 409 && idempotencyKey !== undefined);
        const wait = retry < maxRetries && retryable ? retryDelay(response.headers, retry) : undefined;
        if (wait === undefined) throw error;
        delay = wait;
      } catch (err) {
        if (err instanceof APIError || err instanceof APIUserAbortError || retry >= maxRetries) throw err;
        if (!(err instanceof APIConnectionError)) throw err;
        delay = backoffDelay(retry);
      }
      this.#logger?.({ kind: "retry", method: init.method, path: init.path, attempt: retry + 1, delayMs: delay });
      try {
        await sleep(delay, init.signal);
      } catch (reason) {
        throw new APIUserAbortError(undefined, { cause: reason });
      }
      retry++;
    }
  }
}
