// The webhook event types the service delivers, as a value (src/webhooks.ts types each event's payload): what a
// webhook endpoint may subscribe to besides "*", so a tool can refuse a typo before any request.

export const WEBHOOK_EVENT_TYPES = [
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
