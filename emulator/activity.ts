// The activity log: one entry for every write, made by the route (or job) that wrote.
import type { FastifyRequest } from "fastify";
import type { EmulatorContext } from "./context.js";
import { SYSTEM_ACTOR, type Actor } from "./auth/auth-context.js";
import { newId } from "./ids.js";

export interface ActivityEntry {
  accountId: string;
  siteId?: string | null;
  /** Dotted, e.g. `snapshot.created`. */
  action: string;
  subjectType: string;
  subjectId?: string | null;
  /** For updates: `{ field: [before, after] }`. */
  changes?: Record<string, unknown> | null;
}

export function recordActivity(
  ctx: EmulatorContext,
  entry: ActivityEntry,
  origin: { actor: Actor; ip?: string | null; requestId?: string | null } = { actor: SYSTEM_ACTOR },
): void {
  ctx.db
    .prepare(
      `INSERT INTO activity_logs (id, account_id, site_id, action, actor, subject_type, subject_id, changes, ip_address, request_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      newId("act"),
      entry.accountId,
      entry.siteId ?? null,
      entry.action,
      JSON.stringify(origin.actor),
      entry.subjectType,
      entry.subjectId ?? null,
      entry.changes ? JSON.stringify(entry.changes) : null,
      origin.ip ?? null,
      origin.requestId ?? null,
      ctx.clock.iso(),
    );
}

/** recordActivity with the actor, IP and request id of an authenticated request. */
export function logRequestActivity(ctx: EmulatorContext, req: FastifyRequest, entry: Omit<ActivityEntry, "accountId"> & { accountId?: string }): void {
  const auth = req.auth;
  recordActivity(
    ctx,
    { ...entry, accountId: entry.accountId ?? auth!.accountId },
    { actor: auth?.actor ?? SYSTEM_ACTOR, ip: req.ip, requestId: req.id },
  );
}

/** `{field: [before, after]}` for the fields whose value changed. */
export function diff<T extends object>(before: T, after: T, fields: (keyof T)[]): Record<string, [unknown, unknown]> | null {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const f of fields) {
    if (JSON.stringify(before[f]) !== JSON.stringify(after[f])) changes[String(f)] = [before[f], after[f]];
  }
  return Object.keys(changes).length ? changes : null;
}
