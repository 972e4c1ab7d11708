import type { User } from "./users.js";

/** GET /api/v1/me (see SiteOps.me()): the user plus the account requests act in. */
export interface Me extends User {
  current_account_id: string;
}
