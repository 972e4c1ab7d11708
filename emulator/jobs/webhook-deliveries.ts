// Sends queued webhook deliveries, signed per Standard Webhooks, and retries failures on the
// emulator's clock (5 s, 5 m, 30 m, 2 h, 5 h, 10 h); after the last retry fails the delivery is
// `failed` and its endpoint `disabled`. Sending is asynchronous: the scheduler loop only marks a
// delivery in flight (`sending`) and moves on, so a slow receiver never blocks requests.
// Every connection goes to an address services/webhook-targets.ts allowed, resolved just before connecting
// (DNS may have changed since the endpoint was created); a refused target is a failed attempt with its reason.
import { createHmac } from "node:crypto";
import { Agent, buildConnector, request } from "undici";
import type { EmulatorContext } from "../context.js";
import { resolveTarget } from "../services/webhook-targets.js";
import type { Job } from "./scheduler.js";
import {
  dueDeliveries,
  markFailed,
  markRetry,
  markSending,
  markSucceeded,
  nextDeliveryDueMs,
  recordAttemptTimestamp,
  requeueSending,
  type DueDelivery,
} from "../store/webhook-deliveries.js";

const RETRY_DELAYS_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600] as const;
const TIMEOUT_MS = 10_000;
const BATCH = 50;
const MAX_ERROR_LENGTH = 500;

/** `v1,<base64 HMAC-SHA256>` of `{id}.{timestamp}.{body}` keyed with the decoded secret. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

/** Records one attempt's outcome: succeeded, a retry later, or (after the last) failed. */
function finish(ctx: EmulatorContext, d: DueDelivery, attempts: number, ok: boolean, status: number | null, error: string | null): void {
  try {
    const nowMs = ctx.clock.nowMs();
    const at = ctx.clock.iso(nowMs);
    if (ok) return markSucceeded(ctx.db, d.id, attempts, status, at);
    const delay = RETRY_DELAYS_SECONDS[attempts - 1];
    const lastError = error?.slice(0, MAX_ERROR_LENGTH) ?? null;
    if (delay === undefined) return markFailed(ctx.db, { id: d.id, endpointId: d.endpoint_id, attempts, status, error: lastError, at });
    const nextMs = nowMs + delay * 1000;
    markRetry(ctx.db, d.id, { attempts, nextMs, status, error: lastError, at });
    ctx.scheduler.poke(nextMs);
  } catch (err) {
    // The emulator may have been reset or closed while the request was in flight.
    ctx.log(`webhook delivery ${d.id}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function send(ctx: EmulatorContext, dispatcher: Agent, d: DueDelivery): Promise<void> {
  const attempts = d.attempts + 1;
  const timestamp = Math.floor(ctx.clock.nowMs() / 1000);
  try {
    recordAttemptTimestamp(ctx.db, d.id, timestamp);
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
    finish(ctx, d, attempts, ok, res.statusCode, ok ? null : `HTTP ${res.statusCode}`);
  } catch (err) {
    finish(ctx, d, attempts, false, null, err instanceof Error ? `${(err as { code?: string }).code ?? err.name}: ${err.message}` : String(err));
  }
}

/**
 * undici's connector, given the checked address instead of the name: TLS still verifies (and sends SNI for)
 * the URL's host, which undici derives from `host`.
 */
function checkedConnector(ctx: EmulatorContext): buildConnector.connector {
  const connect = buildConnector({ timeout: TIMEOUT_MS });
  return (opts, callback) => {
    const port = Number(opts.port) || (opts.protocol === "https:" ? 443 : 80);
    resolveTarget(ctx, opts.hostname, port).then(
      ({ address }) => connect({ ...opts, hostname: address }, callback),
      (err: Error) => callback(err, null),
    );
  };
}

export function webhookDeliveriesJob(ctx: EmulatorContext): Job {
  // Deliveries left in flight by a stopped emulator are sent again (same webhook-id, so receivers dedupe).
  requeueSending(ctx.db, ctx.clock.nowMs());
  const dispatcher = new Agent({ keepAliveTimeout: 1000, connect: checkedConnector(ctx) });
  return {
    name: "webhook-deliveries",
    runDue(nowMs: number): void {
      for (;;) {
        const due = dueDeliveries(ctx.db, nowMs, BATCH);
        if (due.length === 0) return;
        const at = ctx.clock.iso();
        for (const d of due) {
          markSending(ctx.db, d.id, at);
          void send(ctx, dispatcher, d);
        }
        if (due.length < BATCH) return;
      }
    },
    nextDueMs: () => nextDeliveryDueMs(ctx.db),
  };
}
