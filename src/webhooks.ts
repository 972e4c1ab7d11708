// Verification of webhook deliveries (Standard Webhooks): HMAC-SHA256 over "{id}.{timestamp}.{body}" with
// the endpoint's whsec_ secret, compared in constant time, with stale timestamps rejected against replay.

import { createHmac, timingSafeEqual } from "node:crypto";
import { WebhookVerificationError } from "./errors.js";
import type { WEBHOOK_EVENT_TYPES } from "../common/webhook-events.js";
import type { HealthCheck } from "./resources/health-checks.js";
import type { Site } from "./resources/sites.js";
import type { Snapshot } from "./resources/snapshots.js";
import type { UpgradePipeline } from "./resources/upgrade-pipelines.js";
import type { VulnerabilityRecord } from "./resources/vulnerability-records.js";
import type { WebhookEndpoint } from "./resources/webhook-endpoints.js";

/** Deliveries older (or further in the future) than this are rejected. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

interface Event<T extends string, D> {
  type: T;
  /** ISO 8601 time of the event. */
  timestamp: string;
  data: D;
}

export type WebhookEvent =
  | Event<"site.created" | "site.updated" | "site.deleted" | "site.status_changed", Site>
  | Event<"health_check.completed", HealthCheck>
  | Event<"snapshot.created" | "snapshot.completed" | "snapshot.failed" | "snapshot.deleted", Snapshot>
  | Event<
      | "upgrade_pipeline.created"
      | "upgrade_pipeline.awaiting_approval"
      | "upgrade_pipeline.approved"
      | "upgrade_pipeline.succeeded"
      | "upgrade_pipeline.failed"
      | "upgrade_pipeline.rolled_back",
      UpgradePipeline
    >
  | Event<"vulnerability_record.detected" | "vulnerability_record.updated" | "vulnerability_record.fixed", VulnerabilityRecord>
  | Event<"webhook_endpoint.ping", WebhookEndpoint>;

export type WebhookEventType = WebhookEvent["type"];

// Both lists name the same events: a type missing from either fails the typecheck here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const sameEvents: Same<WebhookEventType, (typeof WEBHOOK_EVENT_TYPES)[number]> = true;
void sameEvents;

/** Incoming headers as Node (IncomingMessage.headers), fetch (Headers) or a plain object give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** The raw request body, exactly as received (not re-serialised JSON). */
  payload: string | Buffer | Uint8Array;
  headers: WebhookHeaders;
  /** The endpoint's secret, `whsec_<base64>`. */
  secret: string;
  /** Allowed clock difference in seconds. Default DEFAULT_WEBHOOK_TOLERANCE_SECONDS (300). */
  toleranceSeconds?: number;
  /** Current time in unix seconds (tests). Default now. */
  now?: number;
}

/** Verifies a delivery and returns its event. Throws WebhookVerificationError when it cannot be trusted. */
export function verifyWebhook(options: VerifyWebhookOptions): WebhookEvent {
  const { payload, headers, secret } = options;
  if (typeof payload !== "string" && !(payload instanceof Uint8Array)) {
    throw new WebhookVerificationError("payload must be the raw body (string or Buffer), not parsed JSON");
  }
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError("Missing webhook-id, webhook-timestamp or webhook-signature header");
  // As the Standard Webhooks reference library reads it (parseInt: leading spaces and a sign are accepted), and
  // the number read, not the header's text, is what was signed.
  const seconds = Number.parseInt(timestamp, 10);
  if (Number.isNaN(seconds)) throw new WebhookVerificationError("Invalid webhook-timestamp");
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  const age = now - seconds;
  if (age > tolerance) throw new WebhookVerificationError("Webhook timestamp is too old");
  if (age < -tolerance) throw new WebhookVerificationError("Webhook timestamp is too new");

  const body = typeof payload === "string" ? Buffer.from(payload, "utf8") : Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  // The signature is compared as the base64 text the reference library computes, padding included: a signature
  // with its padding stripped (or any other spelling of the same bytes) is refused there and so here.
  const expected = Buffer.from(createHmac("sha256", secretKey(secret)).update(`${id}.${seconds}.`).update(body).digest("base64"));
  let valid = false;
  for (const entry of signatures.split(" ")) {
    const [version, signature] = entry.split(",", 2);
    if (version !== "v1" || !signature) continue;
    const given = Buffer.from(signature);
    // Check every entry without an early exit, and compare in constant time.
    if (given.length === expected.length && timingSafeEqual(given, expected)) valid = true;
  }
  if (!valid) throw new WebhookVerificationError("No matching webhook signature");

  let event: unknown;
  try {
    event = JSON.parse(body.toString("utf8"));
  } catch {
    throw new WebhookVerificationError("Webhook payload is not JSON");
  }
  if (!event || typeof event !== "object" || typeof (event as { type?: unknown }).type !== "string") {
    throw new WebhookVerificationError("Webhook payload has no event type");
  }
  return event as WebhookEvent;
}

/** Signs a payload as the service does: the `webhook-signature` value for tests and local tooling. */
export function signWebhook(secret: string, id: string, timestamp: number, payload: string | Buffer): string {
  const mac = createHmac("sha256", secretKey(secret)).update(`${id}.${timestamp}.`).update(payload).digest("base64");
  return `v1,${mac}`;
}

function secretKey(secret: string): Buffer {
  if (typeof secret !== "string" || secret === "") throw new WebhookVerificationError("Missing webhook secret");
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
  if (key.length === 0) throw new WebhookVerificationError("Invalid webhook secret");
  return key;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  let value = record[name];
  if (value === undefined) {
    const key = Object.keys(record).find((k) => k.toLowerCase() === name);
    value = key === undefined ? undefined : record[key];
  }
  return Array.isArray(value) ? value[0] : value;
}
