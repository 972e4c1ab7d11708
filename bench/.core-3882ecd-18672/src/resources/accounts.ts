import type { RequestOptions } from "../client.js";
import { list, type ListOptions, type PagePromise, type PageParams } from "../pagination.js";
import { APIResource, seg } from "./resource.js";

export interface Account {
  id: string;
  name: string;
  personal: boolean;
  owner_id: string;
  created_at: string;
  updated_at: string;
}

export class Accounts extends APIResource {
  /** GET /api/v1/accounts: the accounts the user belongs to (oldest first). */
  list(params?: PageParams, options?: ListOptions): PagePromise<Account> {
    return list<Account>(this.client, "/api/v1/accounts", params, options);
  }
  /** GET /api/v1/accounts/:id */
  get(id: string, options?: RequestOptions): Promise<Account> {
    return this.client.get<Account>(`/api/v1/accounts/${seg(id)}`, options);
  }
}
