// Webhook events: an event becomes one delivery row per subscribed, enabled endpoint of the account.
// The deliveries job (jobs/webhook-deliveries.ts) sends them, signs them and retries them.
import type { Database } from "./store/db.js";
import type { Clock } from "./clock.js";
import type { Scheduler } from "./jobs/scheduler.js";
import { enabledEndpoints } from "./store/webhook-endpoints.js";
import { insertDelivery } from "./store/webhook-deliveries.js";

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

  /**
   * Queue `type` with `data` (the resource as the API returns it) for every matching endpoint. `data` may be a
   * function: it is called (and the payload built) only when some endpoint takes the event.
   */
  emit(accountId: string, type: EventType, data: object | (() => object), onlyEndpointId?: string): number {
    const nowMs = this.#clock.nowMs();
    const now = this.#clock.iso(nowMs);
    let payload: string | undefined;
    let queued = 0;
    for (const ep of enabledEndpoints(this.#db, accountId)) {
      if (onlyEndpointId && ep.id !== onlyEndpointId) continue;
      if (!onlyEndpointId && !ep.events.includes("*") && !ep.events.includes(type)) continue;
      payload ??= JSON.stringify({ type, timestamp: now, data: typeof data === "function" ? data() : data });
      insertDelivery(this.#db, { endpointId: ep.id, accountId, type, payload, dueMs: nowMs, at: now });
      queued++;
    }
    if (queued) this.#scheduler.poke(nowMs);
    return queued;
  }
}
