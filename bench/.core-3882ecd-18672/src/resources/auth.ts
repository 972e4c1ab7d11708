// The authentication endpoints. SiteOps.login() and logout() build on these; call them directly only to
// manage tokens yourself.

import type { RequestOptions } from "../client.js";
import type { User } from "./users.js";
import { APIResource } from "./resource.js";

/** POST /api/v1/jwt and /api/v1/jwt/refresh response. */
export interface JwtTokens {
  access_token: string;
  refresh_token: string;
  token_type: string;
  /** Seconds until the access token expires (900). */
  expires_in: number;
}

export interface JwtLoginParams {
  email: string;
  password: string;
  /** TOTP code; required when the user has two-factor authentication. */
  otp_attempt?: string;
}

export interface ApiTokenLoginParams extends JwtLoginParams {
  /** Name of the token, shown in the account settings. */
  name?: string;
}

/** POST /api/v1/auth response: a new API token (shown once) and its user. */
export interface ApiTokenLogin {
  token: string;
  user: User;
}

export interface RevokeResult {
  revoked: boolean;
}

export class Authentication extends APIResource {
  /** POST /api/v1/jwt: logs in, returns a JWT pair. */
  createJwt(body: JwtLoginParams, options?: RequestOptions): Promise<JwtTokens> {
    return this.client.request<JwtTokens>({ method: "POST", path: "/api/v1/jwt", body, authenticate: false, ...options }).then((r) => r.data);
  }

  /** POST /api/v1/jwt/refresh: exchanges a refresh token (which rotates) for a new pair. */
  refreshJwt(refreshToken: string, options?: RequestOptions): Promise<JwtTokens> {
    return this.client
      .request<JwtTokens>({ method: "POST", path: "/api/v1/jwt/refresh", body: { refresh_token: refreshToken }, authenticate: false, ...options })
      .then((r) => r.data);
  }

  /** POST /api/v1/jwt/revoke: invalidates an access or refresh token. */
  revokeJwt(token: string, options?: RequestOptions): Promise<RevokeResult> {
    return this.client.post<RevokeResult>("/api/v1/jwt/revoke", { token }, options);
  }

  /** POST /api/v1/auth: the native-client login; creates an API token. */
  createApiToken(body: ApiTokenLoginParams, options?: RequestOptions): Promise<ApiTokenLogin> {
    return this.client.request<ApiTokenLogin>({ method: "POST", path: "/api/v1/auth", body, authenticate: false, ...options }).then((r) => r.data);
  }

  /** DELETE /api/v1/auth: revokes the API token the client authenticates with. */
  deleteApiToken(options?: RequestOptions): Promise<void> {
    return this.client.delete("/api/v1/auth", options);
  }
}
