// Who is making a request: resolved by the authenticate hook and read by every route.
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
  credential:
    | { kind: "api_token"; tokenId: string }
    | { kind: "jwt"; jti: string; expMs: number };
}

export const SYSTEM_ACTOR: Actor = { type: "system", id: "system", name: "Site Operations" };
