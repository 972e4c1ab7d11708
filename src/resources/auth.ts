// The authentication endpoints. SiteOps.login() and logout() build on these; call them directly only to
// manage tokens yourself.

import type { RequestOptions } from "../client.js";
import type { ApiTokenLogin, ApiTokenLoginParams, JwtLoginParams, JwtTokens, RevokeResult } from "../generated/wire.js";
import { APIResource } from "./resource.js";

export type { ApiTokenLogin, ApiTokenLoginParams, JwtLoginParams, JwtTokens, RevokeResult } from "../generated/wire.js";

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
