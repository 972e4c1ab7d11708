// `so.accounts`: the accounts the caller belongs to (GET /accounts, /accounts/:id).
import { apiPath } from "../internal/api-path.js";
import type { RequestOptions } from "../request-types.js";
import { list, type ListOptions, type PagePromise, type PageParams } from "../pagination.js";
import { SHAPES } from "../response-shapes.js";
import { APIResource } from "./resource.js";
import type { Account } from "../generated/wire.js";

export type { Account } from "../generated/wire.js";

export class Accounts extends APIResource {
  /** GET /api/v1/accounts: the accounts the user belongs to (oldest first). */
  list(params?: PageParams, options?: ListOptions): PagePromise<Account> {
    return list<Account>(this.client, apiPath`/accounts`, params, options, SHAPES.account);
  }
  /** GET /api/v1/accounts/:id */
  get(id: string, options?: RequestOptions): Promise<Account> {
    return this.client.send<Account>({ method: "GET", path: apiPath`/accounts/${id}`, ...options, expect: SHAPES.account });
  }
}
