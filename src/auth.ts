// Credentials: an API token (`Authorization: token ...`, never expires) or a JWT pair that renews itself.
// JWT renewal is proactive (shortly before the access token expires by our clock) and, when the server
// still answers 401, single-flight: however many requests fail together, one refresh runs and all retry.

import { AuthenticationError, OtpRequiredError, type APIError } from "./errors.js";
import type { APIClient, RequestOptions } from "./request-types.js";
import { Authentication, type JwtTokens } from "./resources/auth.js";

/** Refresh this long before the access token expires, so requests in flight do not meet the expiry. */
export const REFRESH_MARGIN_MS = 60_000;

/** How a client authenticates. Implement it for custom schemes; ApiTokenAuth and JwtAuth are built in. */
export interface Auth {
  readonly scheme: "token" | "bearer";
  /** The Authorization header value for the next request. May renew credentials first. */
  authorization(client: APIClient): string | Promise<string>;
  /** A request sent with `used` got a 401. Resolves true when the credentials changed and the request
   * should be sent again; rejects when renewal itself failed. */
  recover(client: APIClient, used: string, error: APIError): Promise<boolean>;
  /** Revokes the credentials on the service. */
  logout(client: APIClient, options?: RequestOptions): Promise<void>;
}

export class ApiTokenAuth implements Auth {
  readonly scheme = "token";
  readonly #header: string;

  constructor(token: string) {
    this.#header = `token ${token}`;
  }

  authorization(): string {
    return this.#header;
  }

  async recover(): Promise<boolean> {
    return false; // an API token cannot be renewed
  }

  /** DELETE /api/v1/auth: revokes this token on the service. */
  async logout(client: APIClient, options?: RequestOptions): Promise<void> {
    await new Authentication(client).deleteApiToken(options);
  }

  // Never print the token, whatever is logged.
  toJSON(): string {
    return "ApiTokenAuth([REDACTED])";
  }
}

export interface JwtAuthOptions {
  /** Clock in ms, injectable for tests. Default Date.now. */
  now?: () => number;
  /** Called with the new pair after every refresh, e.g. to store it. */
  onRefresh?: (tokens: JwtTokens) => void;
}

export class JwtAuth implements Auth {
  readonly scheme = "bearer";
  #access: string;
  #refresh: string;
  #expiresAt: number;
  #margin: number;
  #refreshing: Promise<void> | undefined;
  #now: () => number;
  #onRefresh: ((tokens: JwtTokens) => void) | undefined;
  #loggingOut = false;
  /** Number of refreshes done (diagnostics and tests). */
  refreshCount = 0;

  constructor(tokens: JwtTokens, options: JwtAuthOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#onRefresh = options.onRefresh;
    this.#access = tokens.access_token;
    this.#refresh = tokens.refresh_token;
    this.#expiresAt = this.#now() + tokens.expires_in * 1000;
    this.#margin = refreshMargin(tokens.expires_in);
  }

  async authorization(client: APIClient): Promise<string> {
    if (this.#refreshing) {
      await this.#refreshing;
    } else if (!this.#loggingOut && this.#now() >= this.#expiresAt - this.#margin) {
      try {
        await this.#refreshOnce(client);
      } catch (err) {
        // A failed early renewal is not fatal while the current token is still valid by our clock.
        if (this.#now() >= this.#expiresAt) throw err;
      }
    }
    return `Bearer ${this.#access}`;
  }

  async recover(client: APIClient, used: string): Promise<boolean> {
    if (this.#loggingOut) return false;
    // Another request already renewed the pair after this one was sent: just send it again.
    if (used !== `Bearer ${this.#access}`) return true;
    await this.#refreshOnce(client);
    return true;
  }

  /** Revokes the refresh token, then the access token (POST /api/v1/jwt/revoke). */
  async logout(client: APIClient, options?: RequestOptions): Promise<void> {
    this.#loggingOut = true;
    const endpoints = new Authentication(client);
    await endpoints.revokeJwt(this.#refresh, options);
    try {
      await endpoints.revokeJwt(this.#access, options);
    } catch (err) {
      // Services that revoke the whole session with its refresh token already refuse the access token.
      if (!(err instanceof AuthenticationError)) throw err;
    }
  }

  #refreshOnce(client: APIClient): Promise<void> {
    this.#refreshing ??= (async () => {
      try {
        const tokens = await new Authentication(client).refreshJwt(this.#refresh);
        this.#access = tokens.access_token;
        this.#refresh = tokens.refresh_token;
        this.#expiresAt = this.#now() + tokens.expires_in * 1000;
        this.#margin = refreshMargin(tokens.expires_in);
        this.refreshCount++;
        this.#onRefresh?.(tokens);
      } finally {
        this.#refreshing = undefined;
      }
    })();
    return this.#refreshing;
  }

  toJSON(): string {
    return "JwtAuth([REDACTED])";
  }
}

/** A short-lived token (a test server's 30 s) is not refreshed on every request: at most half its life early. */
function refreshMargin(expiresIn: number): number {
  return Math.min(REFRESH_MARGIN_MS, (expiresIn * 1000) / 2);
}

export interface LoginOptions {
  email: string;
  password: string;
  /** Current TOTP code, or a function asked for one only when the service requires it. */
  otp?: string | (() => string | Promise<string>);
  /** "jwt" (default): POST /api/v1/jwt, self-renewing pair. "api_token": POST /api/v1/auth, the
   * native-client login that creates an API token. */
  tokenType?: "jwt" | "api_token";
  /** Name of the API token created by an "api_token" login. */
  name?: string;
}

/** Logs in and returns the credentials; asks `otp` (when it is a function) only on OtpRequiredError. */
export async function obtainCredentials(client: APIClient, options: LoginOptions): Promise<Auth> {
  const { email, password, otp, tokenType, name } = options;
  const endpoints = new Authentication(client);
  const attempt = async (code: string | undefined): Promise<Auth> => {
    if (tokenType === "api_token") {
      const created = await endpoints.createApiToken({ email, password, otp_attempt: code, name });
      return new ApiTokenAuth(created.token);
    }
    return new JwtAuth(await endpoints.createJwt({ email, password, otp_attempt: code }));
  };
  try {
    return await attempt(typeof otp === "string" ? otp : undefined);
  } catch (err) {
    if (err instanceof OtpRequiredError && typeof otp === "function") return attempt(await otp());
    throw err;
  }
}
