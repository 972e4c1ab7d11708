// GET /api/v1/me (see SiteOps.me()): the user plus the account requests act in.
export type { Me } from "../generated/wire.js";
