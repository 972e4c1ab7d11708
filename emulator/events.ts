// Webhook events: an event becomes one delivery row per subscribed, enabled endpoint of the account.
// The deliveries job (jobs/webhook-deliveries.ts) sends them, signs them and retries them.
import type { Database } from "./store/db.js";
import type { Clock } from "./clock.js";
import type { Scheduler } from "./jobs/scheduler.js";
import { enabledEndpoints } from "./store/webhook-endpoints.js";
import { insertDelivery } from "./store/webhook-deliveries.js";
import { WEBHOOK_EVENT_TYPES } from "../common/webhook-events.js";
import type { IdIssuer } from "./ids.js";

/** The event types the service delivers: the one list the client and the provider check subscriptions with. */
export const EVENT_TYPES = WEBHOOK_EVENT_TYPES;

export type EventType = (typeof EVENT_TYPES)[number];

export class Events {
  readonly #db: Database;
  readonly #clock: Clock;
  readonly #scheduler: Scheduler;
  readonly #newId: IdIssuer;

  constructor(db: Database, clock: Clock, scheduler: Scheduler, newId: IdIssuer) {
    this.#db = db;
    this.#clock = clock;
    this.#scheduler = scheduler;
    this.#newId = newId;
  }

  /**
   * Queue `type` with `data` (the resource as the API returns it) for every matching endpoint. `data` may be a
   * function: it is called (and the payload built) only when some endpoint takes the event.
   */
  emit(accountId: string, type: EventType, data: object | (() => object), onlyEndpointId?: string): number {
    const endpoints = enabledEndpoints(this.#db, accountId);
    if (endpoints.length === 0) return 0; // the common case: one query, nothing built
    const nowMs = this.#clock.nowMs();
    const now = this.#clock.iso(nowMs);
    let payload: string | undefined;
    let queued = 0;
    for (const ep of endpoints) {
      if (onlyEndpointId && ep.id !== onlyEndpointId) continue;
      if (!onlyEndpointId && !ep.events.includes("*") && !ep.events.includes(type)) continue;
      payload ??= JSON.stringify({ type, timestamp: now, data: typeof data === "function" ? data() : data });
      insertDelivery(this.#db, { id: this.#newId("msg"), endpointId: ep.id, accountId, type, payload, dueMs: nowMs, at: now });
      queued++;
    }
    if (queued) this.#scheduler.poke(nowMs);
    return queued;
  }
}
