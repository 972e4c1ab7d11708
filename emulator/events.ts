// Webhook events: an event becomes one delivery row per subscribed, enabled endpoint of the account.
// The deliveries job (jobs/webhook-deliveries.ts) sends them, signs them and retries them.
import type { Database } from "./store/db.js";
import type { Clock } from "./clock.js";
import type { Scheduler } from "./jobs/scheduler.js";
import { newId } from "./ids.js";

export const EVENT_TYPES = [
  "site.created",
  "site.updated",
  "site.deleted",
  "site.status_changed",
  "health_check.completed",
  "snapshot.created",
  "snapshot.completed",
  "snapshot.failed",
  "snapshot.deleted",
  "upgrade_pipeline.created",
  "upgrade_pipeline.awaiting_approval",
  "upgrade_pipeline.approved",
  "upgrade_pipeline.succeeded",
  "upgrade_pipeline.failed",
  "upgrade_pipeline.rolled_back",
  "vulnerability_record.detected",
  "vulnerability_record.updated",
  "vulnerability_record.fixed",
  "webhook_endpoint.ping",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export class Events {
  readonly #db: Database;
  readonly #clock: Clock;
  readonly #scheduler: Scheduler;

  constructor(db: Database, clock: Clock, scheduler: Scheduler) {
    this.#db = db;
    this.#clock = clock;
    this.#scheduler = scheduler;
  }

  /** Queue `type` with `data` (the resource as the API returns it) for every matching endpoint. */
  emit(accountId: string, type: EventType, data: object, onlyEndpointId?: string): number {
    const endpoints = this.#db
      .prepare("SELECT id, enabled_events FROM webhook_endpoints WHERE account_id = ? AND status = 'enabled'")
      .all(accountId) as { id: string; enabled_events: string }[];
    const nowMs = this.#clock.nowMs();
    const now = this.#clock.iso(nowMs);
    const payload = JSON.stringify({ type, timestamp: now, data });
    const insert = this.#db.prepare(
      `INSERT INTO webhook_deliveries (id, endpoint_id, account_id, event_type, payload, status, attempts, next_attempt_ms, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)`,
    );
    let queued = 0;
    for (const ep of endpoints) {
      if (onlyEndpointId && ep.id !== onlyEndpointId) continue;
      const events = JSON.parse(ep.enabled_events) as string[];
      if (!onlyEndpointId && !events.includes("*") && !events.includes(type)) continue;
      insert.run(newId("msg"), ep.id, accountId, type, payload, nowMs, now, now);
      queued++;
    }
    if (queued) this.#scheduler.poke(nowMs);
    return queued;
  }
}
