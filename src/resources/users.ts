// `so.users`: the users of the caller's account.
import { apiPath } from "../internal/api-path.js";
import { list, type ListOptions, type PagePromise, type PageParams } from "../pagination.js";
import { SHAPES } from "../response-shapes.js";
import { APIResource } from "./resource.js";
import type { User } from "../generated/wire.js";

export type { Role, User } from "../generated/wire.js";

export class Users extends APIResource {
  /** GET /api/v1/users: users of the current account (oldest first). */
  list(params?: PageParams, options?: ListOptions): PagePromise<User> {
    return list<User>(this.client, apiPath`/users`, params, options, SHAPES.user);
  }
}
