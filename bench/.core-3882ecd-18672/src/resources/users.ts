import { list, type ListOptions, type PagePromise, type PageParams } from "../pagination.js";
import { APIResource } from "./resource.js";

export type Role = "owner" | "admin" | "member";

export interface User {
  id: string;
  email: string;
  name: string;
  role: Role;
  two_factor_enabled: boolean;
  created_at: string;
}

export class Users extends APIResource {
  /** GET /api/v1/users: users of the current account (oldest first). */
  list(params?: PageParams, options?: ListOptions): PagePromise<User> {
    return list<User>(this.client, "/api/v1/users", params, options);
  }
}
