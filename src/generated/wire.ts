// GENERATED FILE - DO NOT EDIT. Regenerate with `npm run generate:wire` (scripts/generate-wire.mjs)
// from the TypeBox schemas of wire/ (wire/registry.ts), the ones the emulator validates with and /openapi.json documents.

export interface Site {
  /** Site identifier (`site_...`). */
  id: string;
  /** Display name, 1 to 255 characters. */
  name: string;
  /** Absolute http or https URL of the site; unique within the account. */
  url: string;
  /** Health status: `healthy`, `degraded`, `down`, `maintenance` or `unknown`. */
  status: SiteStatus;
  /** WordPress version, `major.minor`. */
  wp_version: string;
  /** PHP version, `major.minor`. */
  php_version: string;
  /** Creation time, ISO 8601 UTC. */
  created_at: string;
  /** Time of the last change, ISO 8601 UTC. */
  updated_at: string;
}

/** Derived from the latest health check; `maintenance` while a pipeline applies */
export type SiteStatus = "healthy" | "degraded" | "down" | "maintenance" | "unknown";

/** POST /api/v1/sites body. */
export interface SiteCreateParams {
  /** Display name, 1 to 255 characters. */
  name: string;
  /** Absolute http or https URL of the site; unique within the account. */
  url: string;
  /** WordPress version, `major.minor`; on create, the service's current version when not given. */
  wp_version?: string;
  /** PHP version, `major.minor`; on create, the service's current version when not given. */
  php_version?: string;
}

/** PATCH /api/v1/sites/:id body: any of the create fields. */
export interface SiteUpdateParams {
  /** Display name, 1 to 255 characters. */
  name?: string;
  /** Absolute http or https URL of the site; unique within the account. */
  url?: string;
  /** WordPress version, `major.minor`; on create, the service's current version when not given. */
  wp_version?: string;
  /** PHP version, `major.minor`; on create, the service's current version when not given. */
  php_version?: string;
}

export interface HealthCheck {
  id: string;
  site_id: string;
  status: "passed" | "warning" | "failed";
  http_status: number | null;
  response_time_ms: number | null;
  wp_version: string;
  php_version: string;
  checks: HealthCheckItem[];
  checked_at: string;
}

/** One test of a health check, as on the WordPress Site Health screen. */
export interface HealthCheckItem {
  test: string;
  label: string;
  status: "good" | "recommended" | "critical";
  description: string;
}

export interface Snapshot {
  id: string;
  site_id: string;
  status: SnapshotStatus;
  source: "service" | "upload";
  trigger: "manual" | "scheduled" | "pre_upgrade" | "system";
  description: string | null;
  wp_version: string;
  php_version: string;
  size_bytes: number | null;
  checksum_sha256: string | null;
  error: string | null;
  created_at: string;
  completed_at: string | null;
}

export type SnapshotStatus = "requested" | "in_progress" | "completed" | "failed";

/** POST /api/v1/sites/:site_id/snapshots body. */
export interface SnapshotCreateParams {
  description?: string | null;
  trigger?: "manual" | "scheduled" | "pre_upgrade" | "system";
  /** true: wait in `requested` for data sent to the upload endpoint */
  upload?: boolean;
}

/** 202 of a resumable upload: the bytes the service holds. */
export interface SnapshotUploadProgress {
  received_bytes: number;
}

export interface UpgradePipeline {
  id: string;
  site_id: string;
  status: UpgradePipelineStatus;
  from_wp_version: string;
  /** The current version when the pipeline does not change it */
  to_wp_version: string;
  from_php_version: string;
  to_php_version: string;
  snapshot_id: string | null;
  requires_approval: boolean;
  approved_at: string | null;
  approved_by: string | null;
  comment: string | null;
  error: string | null;
  steps: UpgradePipelineStep[];
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export type UpgradePipelineStatus = "pending" | "running" | "awaiting_approval" | "applying" | "succeeded" | "failed" | "rolled_back";

export interface UpgradePipelineStep {
  name: "snapshot" | "preflight" | "apply" | "verify";
  status: "pending" | "running" | "passed" | "failed" | "skipped";
  started_at: string | null;
  finished_at: string | null;
}

/** POST /api/v1/sites/:site_id/upgrade_pipelines body (one active pipeline per site, no downgrades). */
export interface UpgradePipelineCreateParams {
  /** Target WordPress version (major.minor); at least one target is required */
  to_wp_version?: string;
  /** Target PHP version (major.minor) */
  to_php_version?: string;
  /** Stop at awaiting_approval before applying (default true) */
  requires_approval?: boolean;
  /** A completed snapshot of this site; else the pipeline takes one */
  snapshot_id?: string | null;
}

/** POST /api/v1/sites/:site_id/upgrade_pipelines/:id/approve body. */
export interface UpgradePipelineApproveParams {
  comment?: string | null;
}

export interface VulnerabilityRecord {
  id: string;
  site_id: string;
  title: string;
  description: string;
  software: {
    type: "core" | "plugin" | "theme";
    slug: string;
    name: string;
    installed_version: string;
  };
  fixed_in: string | null;
  cve: string | null;
  cvss: {
    score: number;
    vector: string;
    rating: string;
  } | null;
  severity: VulnerabilitySeverity;
  status: VulnerabilityStatus;
  dismissed_reason: DismissedReason | null;
  dismissed_comment: string | null;
  detected_at: string;
  fixed_at: string | null;
  updated_at: string;
}

export type VulnerabilitySeverity = "low" | "medium" | "high" | "critical";

export type VulnerabilityStatus = "open" | "ignored" | "fixed";

export type DismissedReason = "fix_started" | "inaccurate" | "no_bandwidth" | "not_used" | "tolerable_risk";

/** PATCH /api/v1/sites/:site_id/vulnerability_records/:id body as the service validates it. */
export interface VulnerabilityRecordUpdate {
  status?: "open" | "ignored" | "fixed";
  dismissed_reason?: "fix_started" | "inaccurate" | "no_bandwidth" | "not_used" | "tolerable_risk" | null;
  dismissed_comment?: string | null;
}

export interface WebhookEndpoint {
  /** Webhook endpoint identifier (`we_...`). */
  id: string;
  /** https URL that receives the deliveries. */
  url: string;
  /** Free text shown in the service's UI. */
  description: string | null;
  /** Event types to deliver, e.g. `site.created`; `["*"]` (the default) means all. */
  enabled_events: string[];
  /** Whether deliveries are sent: `enabled` (the default) or `disabled`. */
  status: "enabled" | "disabled";
  /** Creation time, ISO 8601 UTC. */
  created_at: string;
  /** Time of the last change, ISO 8601 UTC. */
  updated_at: string;
  /** Signing secret (`whsec_...`), returned by the service only when the endpoint is created. */
  secret?: string;
}

/** POST /api/v1/webhook_endpoints response: the endpoint with its signing secret, shown once. */
export interface WebhookEndpointCreated {
  /** Webhook endpoint identifier (`we_...`). */
  id: string;
  /** https URL that receives the deliveries. */
  url: string;
  /** Free text shown in the service's UI. */
  description: string | null;
  /** Event types to deliver, e.g. `site.created`; `["*"]` (the default) means all. */
  enabled_events: string[];
  /** Whether deliveries are sent: `enabled` (the default) or `disabled`. */
  status: "enabled" | "disabled";
  /** Creation time, ISO 8601 UTC. */
  created_at: string;
  /** Time of the last change, ISO 8601 UTC. */
  updated_at: string;
  /** Signing secret (`whsec_...`), returned by the service only when the endpoint is created. */
  secret: string;
}

export interface WebhookEndpointCreateParams {
  /** https; private and loopback targets (also over http) only where the emulator allows them (--allow-private-webhooks) */
  url: string;
  /** Free text shown in the service's UI. */
  description?: string | null;
  /** Event types to deliver, e.g. `site.created`; `["*"]` (the default) means all. */
  enabled_events?: string[];
  /** Whether deliveries are sent: `enabled` (the default) or `disabled`. */
  status?: "enabled" | "disabled";
}

export interface WebhookEndpointUpdateParams {
  /** https; private and loopback targets (also over http) only where the emulator allows them (--allow-private-webhooks) */
  url?: string;
  /** Free text shown in the service's UI. */
  description?: string | null;
  /** Event types to deliver, e.g. `site.created`; `["*"]` (the default) means all. */
  enabled_events?: string[];
  /** Whether deliveries are sent: `enabled` (the default) or `disabled`. */
  status?: "enabled" | "disabled";
}

export interface User {
  id: string;
  email: string;
  name: string;
  role: Role;
  two_factor_enabled: boolean;
  created_at: string;
}

export type Role = "owner" | "admin" | "member";

/** GET /api/v1/me: the user plus the account requests act in. */
export interface Me {
  id: string;
  email: string;
  name: string;
  role: Role;
  two_factor_enabled: boolean;
  created_at: string;
  current_account_id: string;
}

export interface Account {
  id: string;
  name: string;
  personal: boolean;
  owner_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface ActivityLog {
  id: string;
  account_id: string;
  site_id: string | null;
  /** Dotted, e.g. `snapshot.created` */
  action: string;
  actor: {
    type: "user" | "api_token" | "system";
    id: string;
    name: string;
  };
  subject_type: string;
  subject_id: string | null;
  changes: Record<string, unknown> | null;
  ip_address: string | null;
  request_id: string | null;
  created_at: string;
}

/** Filters of GET /api/v1/activity_logs. */
export interface ActivityLogFilters {
  /** Only entries about this site */
  site_id?: string;
  /** Exact action (site.created), or a prefix ending in .* (site.*) */
  action?: string;
  /** ISO 8601 time; entries at or after it */
  since?: string;
  /** ISO 8601 time; entries before it */
  until?: string;
}

/** POST /api/v1/jwt and /api/v1/jwt/refresh response. */
export interface JwtTokens {
  access_token: string;
  refresh_token: string;
  token_type: "Bearer";
  /** Seconds until the access token expires (900) */
  expires_in: number;
}

export interface JwtLoginParams {
  email: string;
  password: string;
  /** TOTP code; required when the user has two-factor authentication */
  otp_attempt?: string;
}

export interface ApiTokenLoginParams {
  email: string;
  password: string;
  /** TOTP code; required when the user has two-factor authentication */
  otp_attempt?: string;
  /** Name of the token, shown in the account settings */
  name?: string;
}

/** POST /api/v1/auth response: a new API token (shown once) and its user. */
export interface ApiTokenLogin {
  token: string;
  user: User;
}

export interface RevokeResult {
  revoked: true;
}

/** The body of every error response (400, 401, 403, 404, 409, 413, 415, 429, 5xx). */
export interface ErrorBody {
  /** What went wrong, one sentence */
  error: string;
}

/** The body of a 422. */
export interface ValidationErrorBody {
  /** `Validation failed: ...` (field errors), or the rule that was broken */
  error: string;
  /** Messages per field, e.g. `{"name": ["can't be blank"]}` */
  errors?: Record<string, string[]>;
}

/** The body of a 409 from the upload endpoint. */
export interface UploadConflictBody {
  error: string;
  /** Bytes the service holds; resume from this offset */
  received_bytes?: number;
}
