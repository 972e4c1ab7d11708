// GENERATED FILE - DO NOT EDIT. Regenerate with `npm run generate:wire` (scripts/generate-wire.mjs) from the
// resources wire/registry.ts lists. Plain data: the parts import it without typebox.

/** One field of a resource, as the service shows and takes it. */
export interface WireField {
  /** JSON type of the value; `items`: of an array's elements. */
  readonly type: "string" | "integer" | "number" | "boolean" | "array" | "object";
  readonly items?: string;
  /** The values a string may take, where the wire lists them. */
  readonly values?: readonly string[];
  /** JSON null is one of its values. */
  readonly nullable: boolean;
  /** Answers show it: always (true), in the answer to the create only ("created"), or never (false: write only). */
  readonly read: boolean | "created";
  /** The create request takes it: "required", "optional", or not (false). */
  readonly create: "required" | "optional" | false;
  /** The update (PATCH) request takes it, always optional. */
  readonly update: boolean;
  readonly description?: string;
  /**
   * "spec": docs/spec/site-operations-service.md lists it. "assumed": the spec leaves it "not shown"; what the
   * toolkit relies on of such a field is in docs/design.md section 2, "What the toolkit assumes". Whether create or
   * update takes a field is assumed for every field.
   */
  readonly origin: "spec" | "assumed";
}

/** A resource's fields by name, in the order answers show them. */
export type FieldTable = Readonly<Record<string, WireField>>;

export const siteFields = {
  id: { type: "string", nullable: false, read: true, create: false, update: false, description: "Site identifier (`site_...`).", origin: "spec" },
  name: { type: "string", nullable: false, read: true, create: "required", update: true, description: "Display name, 1 to 255 characters.", origin: "spec" },
  url: { type: "string", nullable: false, read: true, create: "required", update: true, description: "Absolute http or https URL of the site; unique within the account.", origin: "spec" },
  status: { type: "string", nullable: false, values: ["healthy", "degraded", "down", "maintenance", "unknown"], read: true, create: false, update: false, description: "Health status: `healthy`, `degraded`, `down`, `maintenance` or `unknown`.", origin: "spec" },
  wp_version: { type: "string", nullable: false, read: true, create: "optional", update: true, description: "WordPress version, `major.minor`.", origin: "spec" },
  php_version: { type: "string", nullable: false, read: true, create: "optional", update: true, description: "PHP version, `major.minor`.", origin: "spec" },
  created_at: { type: "string", nullable: false, read: true, create: false, update: false, description: "Creation time, ISO 8601 UTC.", origin: "spec" },
  updated_at: { type: "string", nullable: false, read: true, create: false, update: false, description: "Time of the last change, ISO 8601 UTC.", origin: "assumed" },
} as const satisfies FieldTable;

export const webhookEndpointFields = {
  id: { type: "string", nullable: false, read: true, create: false, update: false, description: "Webhook endpoint identifier (`we_...`).", origin: "spec" },
  url: { type: "string", nullable: false, read: true, create: "required", update: true, description: "https URL that receives the deliveries.", origin: "assumed" },
  description: { type: "string", nullable: true, read: true, create: "optional", update: true, description: "Free text shown in the service's UI.", origin: "assumed" },
  enabled_events: { type: "array", nullable: false, items: "string", read: true, create: "optional", update: true, description: "Event types to deliver, e.g. `site.created`; `[\"*\"]` (the default) means all.", origin: "assumed" },
  status: { type: "string", nullable: false, values: ["enabled", "disabled"], read: true, create: "optional", update: true, description: "Whether deliveries are sent: `enabled` (the default) or `disabled`.", origin: "assumed" },
  created_at: { type: "string", nullable: false, read: true, create: false, update: false, description: "Creation time, ISO 8601 UTC.", origin: "assumed" },
  updated_at: { type: "string", nullable: false, read: true, create: false, update: false, description: "Time of the last change, ISO 8601 UTC.", origin: "assumed" },
  secret: { type: "string", nullable: false, read: "created", create: false, update: false, description: "Signing secret (`whsec_...`), returned by the service only when the endpoint is created.", origin: "assumed" },
} as const satisfies FieldTable;

export const snapshotFields = {
  id: { type: "string", nullable: false, read: true, create: false, update: false, origin: "spec" },
  site_id: { type: "string", nullable: false, read: true, create: false, update: false, origin: "spec" },
  status: { type: "string", nullable: false, values: ["requested", "in_progress", "completed", "failed"], read: true, create: false, update: false, origin: "assumed" },
  source: { type: "string", nullable: false, values: ["service", "upload"], read: true, create: false, update: false, origin: "assumed" },
  trigger: { type: "string", nullable: false, values: ["manual", "scheduled", "pre_upgrade", "system"], read: true, create: "optional", update: false, origin: "assumed" },
  description: { type: "string", nullable: true, read: true, create: "optional", update: false, origin: "assumed" },
  wp_version: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
  php_version: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
  size_bytes: { type: "integer", nullable: true, read: true, create: false, update: false, origin: "assumed" },
  checksum_sha256: { type: "string", nullable: true, read: true, create: false, update: false, origin: "assumed" },
  error: { type: "string", nullable: true, read: true, create: false, update: false, origin: "assumed" },
  created_at: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
  completed_at: { type: "string", nullable: true, read: true, create: false, update: false, origin: "assumed" },
  upload: { type: "boolean", nullable: false, read: false, create: "optional", update: false, description: "true: wait in `requested` for data sent to the upload endpoint", origin: "assumed" },
} as const satisfies FieldTable;

export const upgradePipelineFields = {
  id: { type: "string", nullable: false, read: true, create: false, update: false, origin: "spec" },
  site_id: { type: "string", nullable: false, read: true, create: false, update: false, origin: "spec" },
  status: { type: "string", nullable: false, values: ["pending", "running", "awaiting_approval", "applying", "succeeded", "failed", "rolled_back"], read: true, create: false, update: false, origin: "assumed" },
  from_wp_version: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
  to_wp_version: { type: "string", nullable: false, read: true, create: "optional", update: false, description: "The current version when the pipeline does not change it", origin: "assumed" },
  from_php_version: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
  to_php_version: { type: "string", nullable: false, read: true, create: "optional", update: false, origin: "assumed" },
  snapshot_id: { type: "string", nullable: true, read: true, create: "optional", update: false, origin: "assumed" },
  requires_approval: { type: "boolean", nullable: false, read: true, create: "optional", update: false, origin: "assumed" },
  approved_at: { type: "string", nullable: true, read: true, create: false, update: false, origin: "assumed" },
  approved_by: { type: "string", nullable: true, read: true, create: false, update: false, origin: "assumed" },
  comment: { type: "string", nullable: true, read: true, create: false, update: false, origin: "assumed" },
  error: { type: "string", nullable: true, read: true, create: false, update: false, origin: "assumed" },
  steps: { type: "array", nullable: false, items: "object", read: true, create: false, update: false, origin: "assumed" },
  created_at: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
  updated_at: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
  completed_at: { type: "string", nullable: true, read: true, create: false, update: false, origin: "assumed" },
} as const satisfies FieldTable;

export const vulnerabilityRecordFields = {
  id: { type: "string", nullable: false, read: true, create: false, update: false, origin: "spec" },
  site_id: { type: "string", nullable: false, read: true, create: false, update: false, origin: "spec" },
  title: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
  description: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
  software: { type: "object", nullable: false, read: true, create: false, update: false, origin: "assumed" },
  fixed_in: { type: "string", nullable: true, read: true, create: false, update: false, origin: "assumed" },
  cve: { type: "string", nullable: true, read: true, create: false, update: false, origin: "assumed" },
  cvss: { type: "object", nullable: true, read: true, create: false, update: false, origin: "assumed" },
  severity: { type: "string", nullable: false, values: ["low", "medium", "high", "critical"], read: true, create: false, update: false, origin: "assumed" },
  status: { type: "string", nullable: false, values: ["open", "ignored", "fixed"], read: true, create: false, update: true, origin: "assumed" },
  dismissed_reason: { type: "string", nullable: true, values: ["fix_started", "inaccurate", "no_bandwidth", "not_used", "tolerable_risk"], read: true, create: false, update: true, origin: "assumed" },
  dismissed_comment: { type: "string", nullable: true, read: true, create: false, update: true, origin: "assumed" },
  detected_at: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
  fixed_at: { type: "string", nullable: true, read: true, create: false, update: false, origin: "assumed" },
  updated_at: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
} as const satisfies FieldTable;

export const healthCheckFields = {
  id: { type: "string", nullable: false, read: true, create: false, update: false, origin: "spec" },
  site_id: { type: "string", nullable: false, read: true, create: false, update: false, origin: "spec" },
  status: { type: "string", nullable: false, values: ["passed", "warning", "failed"], read: true, create: false, update: false, origin: "assumed" },
  http_status: { type: "integer", nullable: true, read: true, create: false, update: false, origin: "assumed" },
  response_time_ms: { type: "integer", nullable: true, read: true, create: false, update: false, origin: "assumed" },
  wp_version: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
  php_version: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
  checks: { type: "array", nullable: false, items: "object", read: true, create: false, update: false, origin: "assumed" },
  checked_at: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
} as const satisfies FieldTable;

export const activityLogFields = {
  id: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
  account_id: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
  site_id: { type: "string", nullable: true, read: true, create: false, update: false, origin: "assumed" },
  action: { type: "string", nullable: false, read: true, create: false, update: false, description: "Dotted, e.g. `snapshot.created`", origin: "assumed" },
  actor: { type: "object", nullable: false, read: true, create: false, update: false, origin: "assumed" },
  subject_type: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
  subject_id: { type: "string", nullable: true, read: true, create: false, update: false, origin: "assumed" },
  changes: { type: "object", nullable: true, read: true, create: false, update: false, origin: "assumed" },
  ip_address: { type: "string", nullable: true, read: true, create: false, update: false, origin: "assumed" },
  request_id: { type: "string", nullable: true, read: true, create: false, update: false, origin: "assumed" },
  created_at: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
} as const satisfies FieldTable;

export const userFields = {
  id: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
  email: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
  name: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
  role: { type: "string", nullable: false, values: ["owner", "admin", "member"], read: true, create: false, update: false, origin: "assumed" },
  two_factor_enabled: { type: "boolean", nullable: false, read: true, create: false, update: false, origin: "assumed" },
  created_at: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
} as const satisfies FieldTable;

export const accountFields = {
  id: { type: "string", nullable: false, read: true, create: false, update: false, origin: "spec" },
  name: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
  personal: { type: "boolean", nullable: false, read: true, create: false, update: false, origin: "assumed" },
  owner_id: { type: "string", nullable: true, read: true, create: false, update: false, origin: "assumed" },
  created_at: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
  updated_at: { type: "string", nullable: false, read: true, create: false, update: false, origin: "assumed" },
} as const satisfies FieldTable;

/** Every table, by resource. */
export const FIELD_TABLES = { site: siteFields, webhookEndpoint: webhookEndpointFields, snapshot: snapshotFields, upgradePipeline: upgradePipelineFields, vulnerabilityRecord: vulnerabilityRecordFields, healthCheck: healthCheckFields, activityLog: activityLogFields, user: userFields, account: accountFields } as const;
