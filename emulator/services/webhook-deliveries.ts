// The console's view of webhook deliveries: each with its attempts, last status code, and the
// Standard Webhooks headers its last attempt carried, checked as a receiver checks them against the
// endpoint's current secret (a rotated or tampered secret shows "does not verify").
import { createHmac, timingSafeEqual } from "node:crypto";
import type { EmulatorContext } from "../context.js";
import { signWebhook } from "../jobs/webhook-deliveries.js";
import { recentDeliveries } from "../store/webhook-deliveries.js";

export interface DeliveryView {
  id: string;
  endpointId: string;
  url: string;
  eventType: string;
  status: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  /** The headers a receiver got on the last attempt (none before the first attempt). */
  headers: { "webhook-id": string; "webhook-timestamp": string; "webhook-signature": string } | null;
  /** Whether that signature verifies with the endpoint's secret, as a receiver checks it. */
  signatureVerifies: boolean | null;
}

/** A receiver's check (Standard Webhooks): HMAC-SHA256 of `{id}.{timestamp}.{body}`, constant-time compare. */
function verifySignature(secret: string, id: string, timestamp: string, body: string, header: string): boolean {
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64");
  const expected = Buffer.from(createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64"));
  return header.split(" ").some((part) => {
    const [version, sig] = part.split(",");
    const given = Buffer.from(sig ?? "");
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export function listDeliveryViews(ctx: EmulatorContext, accountId: string, limit = 50): DeliveryView[] {
  return recentDeliveries(ctx.db, accountId, limit).map((d) => {
    // The same function and inputs as the sender (jobs/webhook-deliveries.ts): the headers it sent.
    const timestamp = String(d.last_attempt_ts);
    const headers =
      d.last_attempt_ts !== null
        ? { "webhook-id": d.id, "webhook-timestamp": timestamp, "webhook-signature": signWebhook(d.secret, d.id, Number(timestamp), d.payload) }
        : null;
    return {
      id: d.id,
      endpointId: d.endpoint_id,
      url: d.url,
      eventType: d.event_type,
      status: d.status,
      attempts: d.attempts,
      lastStatus: d.last_status,
      lastError: d.last_error,
      createdAt: d.created_at,
      updatedAt: d.updated_at,
      headers,
      signatureVerifies: headers ? verifySignature(d.secret, d.id, headers["webhook-timestamp"], d.payload, headers["webhook-signature"]) : null,
    };
  });
}
