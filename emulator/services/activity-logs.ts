// The activity log: one entry for every write, recorded by the service that wrote, with the Origin
// of the write (a request's caller, IP and id; or the system).
import type { EmulatorContext } from "../context.js";
import { SYSTEM_ORIGIN, type Origin } from "../auth/auth-context.js";
import type { ActivityLogJson } from "../../wire/activity-logs.js";
import { activityPage, insertActivity, type ActivityFilter } from "../store/activity-logs.js";
import type { PageSource } from "../store/db.js";

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

export function recordActivity(ctx: EmulatorContext, entry: ActivityEntry, origin: Origin = SYSTEM_ORIGIN): void {
  insertActivity(ctx.db, {
    id: ctx.newId("act"),
    accountId: entry.accountId,
    siteId: entry.siteId ?? null,
    action: entry.action,
    actor: origin.actor,
    subjectType: entry.subjectType,
    subjectId: entry.subjectId ?? null,
    changes: entry.changes ?? null,
    ip: origin.ip ?? null,
    requestId: origin.requestId ?? null,
    createdAt: ctx.clock.iso(),
  });
}

/** `{field: [before, after]}` for the fields whose value changed. */
export function diff<T extends object>(before: T, after: T, fields: (keyof T)[]): Record<string, [unknown, unknown]> | null {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const f of fields) {
    if (JSON.stringify(before[f]) !== JSON.stringify(after[f])) changes[String(f)] = [before[f], after[f]];
  }
  return Object.keys(changes).length ? changes : null;
}

/** The account's log, newest first, filtered. */
export function listActivity(ctx: EmulatorContext, filter: ActivityFilter): PageSource<ActivityLogJson> {
  return activityPage(ctx.db, filter);
}
