// Who is making a request: resolved by the authenticate hook and read by every route; and the
// origin of a write (who, from where, in which request), as the activity log records it.
export type Role = "owner" | "admin" | "member";

export interface Actor {
  type: "user" | "api_token" | "system";
  id: string;
  name: string;
}

export interface AuthContext {
  userId: string;
  userName: string;
  accountId: string;
  role: Role;
  actor: Actor;
  /** How the request authenticated, for logout/revoke. */
  credential: { kind: "api_token"; tokenId: string } | { kind: "jwt"; jti: string; expMs: number };
}

/** Who did a write, from where, in which request: the activity log's view of it. */
export interface Origin {
  actor: Actor;
  ip?: string | null;
  requestId?: string | null;
}

const SYSTEM_ACTOR: Actor = { type: "system", id: "system", name: "Site Operations" };

/** Writes the service makes by itself (jobs, the seed, state machines). */
export const SYSTEM_ORIGIN: Origin = { actor: SYSTEM_ACTOR };
