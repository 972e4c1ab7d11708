// The authentication endpoints. SiteOps.login() and logout() build on these; call them directly only to
// manage tokens yourself.

import { apiPath } from "../internal/api-path.js";
import type { RequestOptions, Settle } from "../request-types.js";
import type { ApiTokenLogin, ApiTokenLoginParams, JwtLoginParams, JwtTokens, RevokeResult } from "../generated/wire.js";
import { SHAPES } from "../response-shapes.js";
import { APIResource } from "./resource.js";

export type { ApiTokenLogin, ApiTokenLoginParams, JwtLoginParams, JwtTokens, RevokeResult } from "../generated/wire.js";

export class Authentication extends APIResource {
  /** POST /api/v1/jwt: logs in, returns a JWT pair. */
  createJwt(body: JwtLoginParams, options?: RequestOptions): Promise<JwtTokens> {
    return this.client
      .request<JwtTokens>({ method: "POST", path: apiPath`/jwt`, body, authenticate: false, ...options, expect: SHAPES.jwtTokens })
      .then((r) => r.data);
  }

  /** POST /api/v1/jwt/refresh: exchanges a refresh token (which rotates) for a new pair. */
  refreshJwt(refreshToken: string, options?: RequestOptions): Promise<JwtTokens> {
    return this.client
      .request<JwtTokens>({
        method: "POST",
        path: apiPath`/jwt/refresh`,
        body: { refresh_token: refreshToken },
        authenticate: false,
        ...options,
        expect: SHAPES.jwtTokens,
      })
      .then((r) => r.data);
  }

  /** POST /api/v1/jwt/revoke: invalidates an access or refresh token. */
  revokeJwt(token: string, options?: RequestOptions): Promise<RevokeResult> {
    const path = apiPath`/jwt/revoke`;
    return this.client.send<RevokeResult>({ method: "POST", path, body: { token }, ...options, settle: revokedEarlier({ revoked: true }) });
  }

  /** POST /api/v1/auth: the native-client login; creates an API token. */
  createApiToken(body: ApiTokenLoginParams, options?: RequestOptions): Promise<ApiTokenLogin> {
    return this.client
      .request<ApiTokenLogin>({ method: "POST", path: apiPath`/auth`, body, authenticate: false, ...options, expect: SHAPES.apiToken })
      .then((r) => r.data);
  }

  /** DELETE /api/v1/auth: revokes the API token the client authenticates with. */
  deleteApiToken(options?: RequestOptions): Promise<void> {
    return this.client.send<void>({ method: "DELETE", path: apiPath`/auth`, ...options, settle: revokedEarlier(undefined) });
  }
}

/** Revoking the pair (or the token) that authenticates the request also revokes the request's own
 * credential: after an attempt whose answer was lost, the retry's 401 says the first one did the work. */
function revokedEarlier(data: unknown): Settle {
  return (error) =>
    error.status === 401
      ? { response: { data, status: 401, headers: error.headers, requestId: error.requestId }, note: "revoked by an earlier attempt" }
      : undefined;
}
