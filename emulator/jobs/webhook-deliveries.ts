// Sends queued webhook deliveries, signed per Standard Webhooks, and retries failures on the
// emulator's clock (5 s, 5 m, 30 m, 2 h, 5 h, 10 h); after the last retry fails the delivery is
// `failed` and its endpoint `disabled`. Sending is asynchronous: the scheduler loop only marks a
// delivery in flight (`sending`) and moves on, so a slow receiver never blocks requests.
import { createHmac } from "node:crypto";
import { Agent, request } from "undici";
import type { EmulatorContext } from "../context.js";
import type { Job } from "./scheduler.js";
import { stmt } from "../store/db.js";

export const RETRY_DELAYS_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600] as const;
const TIMEOUT_MS = 10_000;
const BATCH = 50;
const MAX_ERROR_LENGTH = 500;

interface DueDelivery {
  id: string;
  endpoint_id: string;
  payload: string;
  attempts: number;
  url: string;
  secret: string;
}

/** `v1,<base64 HMAC-SHA256>` of `{id}.{timestamp}.{body}` keyed with the decoded secret. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

export function webhookDeliveriesJob(ctx: EmulatorContext): Job {
  const { db, clock } = ctx;
  // Deliveries left in flight by a stopped emulator are sent again (same webhook-id, so receivers dedupe).
  db.prepare("UPDATE webhook_deliveries SET status = 'pending', next_attempt_ms = ? WHERE status = 'sending'").run(clock.nowMs());

  const dispatcher = new Agent({ keepAliveTimeout: 1000, connect: { timeout: TIMEOUT_MS } });

  const finish = (d: DueDelivery, attempts: number, ok: boolean, status: number | null, error: string | null): void => {
    try {
      const nowMs = clock.nowMs();
      const now = clock.iso(nowMs);
      if (ok) {
        stmt(
          db,
          "UPDATE webhook_deliveries SET status = 'succeeded', attempts = ?, next_attempt_ms = NULL, last_status = ?, last_error = NULL, updated_at = ? WHERE id = ? AND status = 'sending'",
        ).run(attempts, status, now, d.id);
        return;
      }
      const delay = RETRY_DELAYS_SECONDS[attempts - 1];
      const lastError = error?.slice(0, MAX_ERROR_LENGTH) ?? null;
      if (delay !== undefined) {
        const next = nowMs + delay * 1000;
        stmt(
          db,
          "UPDATE webhook_deliveries SET status = 'pending', attempts = ?, next_attempt_ms = ?, last_status = ?, last_error = ?, updated_at = ? WHERE id = ? AND status = 'sending'",
        ).run(attempts, next, status, lastError, now, d.id);
        ctx.scheduler.poke(next);
        return;
      }
      db.transaction(() => {
        stmt(
          db,
          "UPDATE webhook_deliveries SET status = 'failed', attempts = ?, next_attempt_ms = NULL, last_status = ?, last_error = ?, updated_at = ? WHERE id = ? AND status = 'sending'",
        ).run(attempts, status, lastError, now, d.id);
        stmt(db, "UPDATE webhook_endpoints SET status = 'disabled', updated_at = ? WHERE id = ? AND status = 'enabled'").run(now, d.endpoint_id);
      })();
    } catch (err) {
      // The emulator may have been reset or closed while the request was in flight.
      ctx.log(`webhook delivery ${d.id}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  const send = async (d: DueDelivery): Promise<void> => {
    const attempts = d.attempts + 1;
    const timestamp = Math.floor(clock.nowMs() / 1000);
    try {
      const res = await request(d.url, {
        method: "POST",
        dispatcher,
        headers: {
          "content-type": "application/json",
          "user-agent": "siteops-emulator-webhooks/1",
          "webhook-id": d.id,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": signWebhook(d.secret, d.id, timestamp, d.payload),
        },
        body: d.payload,
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
      });
      await res.body.dump().catch(() => undefined);
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      finish(d, attempts, ok, res.statusCode, ok ? null : `HTTP ${res.statusCode}`);
    } catch (err) {
      finish(d, attempts, false, null, err instanceof Error ? `${(err as { code?: string }).code ?? err.name}: ${err.message}` : String(err));
    }
  };

  return {
    name: "webhook-deliveries",
    runDue(nowMs: number): void {
      for (;;) {
        const due = stmt(
          db,
          `SELECT d.id, d.endpoint_id, d.payload, d.attempts, e.url, e.secret
             FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
            WHERE d.status = 'pending' AND d.next_attempt_ms <= ? AND e.status = 'enabled'
            ORDER BY d.next_attempt_ms, d.seq LIMIT ?`,
        ).all(nowMs, BATCH) as DueDelivery[];
        if (due.length === 0) return;
        const now = clock.iso();
        for (const d of due) {
          stmt(db, "UPDATE webhook_deliveries SET status = 'sending', next_attempt_ms = NULL, updated_at = ? WHERE id = ?").run(now, d.id);
          void send(d);
        }
        if (due.length < BATCH) return;
      }
    },
    nextDueMs(): number | null {
      const row = stmt(
        db,
        `SELECT MIN(d.next_attempt_ms) AS due FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
          WHERE d.status = 'pending' AND e.status = 'enabled'`,
      ).get() as { due: number | null };
      return row.due;
    },
  };
}
