// The package root ("siteops"): the SDK. The client with its resources and operations (`so.operations`), webhook
// verification, errors and every request/response type. Tools for running it over a fleet: "siteops/fleet".

export {
  SiteOps,
  DEFAULT_CONNECTIONS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_PACING,
  DEFAULT_RETRY_BUDGET_MS,
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_TRANSPORT,
  type ClientOptions,
  type HttpTransport,
} from "./client.js";
export type { APIClient, BodyFactory, HttpMethod, QueryValue, RequestInit, RequestOptions, Settle, Settled } from "./request-types.js";
export { APIPromise, withResponse, type APIResponse } from "./api-promise.js";
export { INITIAL_RETRY_DELAY_MS, MAX_RETRY_DELAY_MS } from "./internal/retry.js";
export { CIRCUIT_OPEN_MS } from "./internal/circuit.js";
export { ApiTokenAuth, JwtAuth, REFRESH_MARGIN_MS, type Auth, type JwtAuthOptions, type LoginOptions } from "./auth.js";
export * from "./errors.js";
export { DEFAULT_MAX_PAGES, Page, PagePromise, type ListOptions, type PageParams } from "./pagination.js";
export {
  DEFAULT_CHUNK_RETRIES,
  DEFAULT_CHUNK_SIZE,
  DEFAULT_RESUMABLE_THRESHOLD,
  DEFAULT_UPLOAD_TIMEOUT_MS,
  type UploadOptions,
  type UploadProgress,
  type UploadSource,
} from "./uploads.js";
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  signWebhook,
  verifyWebhook,
  type VerifyWebhookOptions,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookHeaders,
} from "./webhooks.js";
export type { RateLimitLogEvent, RequestLogEvent, RequestLogger, ResponseLogEvent, RetryLogEvent, SettledLogEvent } from "./internal/logger.js";
export { describeRetry } from "./internal/logger.js";
export { Operations } from "./operations/index.js";
export type { OperationsClient } from "./operations/client.js";
export type { OperationEvent } from "./operations/events.js";
export type { CreateSnapshotOptions } from "./operations/snapshot.js";
export { PIPELINE_FINAL_STATES, ROLLBACK_GRACE_MS, type UpgradeWaitOptions } from "./operations/upgrade.js";
export type { PruneEvent, PruneOptions, PruneResult } from "./operations/prune.js";
export type { RetentionCandidate, RetentionDecision, RetentionOptions, RetentionPolicy } from "./retention.js";
export { compareVersions, sameUrl, sameVersion, urlKey } from "./equivalence.js";
export { checkRecord, type FieldKind, type RecordShape, type ResponseOrigin } from "./response-shapes.js";
export { DEFAULT_POLL_INTERVAL_MS, DEFAULT_WAIT_TIMEOUT_MS, INITIAL_POLL_DELAY_MS, waitUntil, type WaitOptions } from "./operations/wait.js";

export type { Account } from "./resources/accounts.js";
export type { ActivityLog, ActivityLogListParams } from "./resources/activity-logs.js";
export type { ApiTokenLogin, ApiTokenLoginParams, JwtLoginParams, JwtTokens, RevokeResult } from "./resources/auth.js";
export type { HealthCheck, HealthCheckItem } from "./resources/health-checks.js";
export type { Me } from "./resources/me.js";
export type { Site, SiteCreateParams, SiteStatus, SiteUpdateParams } from "./resources/sites.js";
export type { Snapshot, SnapshotCreateParams, SnapshotStatus } from "./resources/snapshots.js";
export type {
  UpgradePipeline,
  UpgradePipelineApproveParams,
  UpgradePipelineCreateParams,
  UpgradePipelineStatus,
  UpgradePipelineStep,
} from "./resources/upgrade-pipelines.js";
export type { Role, User } from "./resources/users.js";
export type {
  DismissedReason,
  VulnerabilityRecord,
  VulnerabilityRecordUpdateParams,
  VulnerabilitySeverity,
  VulnerabilityStatus,
} from "./resources/vulnerability-records.js";
export type { WebhookEndpoint, WebhookEndpointCreateParams, WebhookEndpointUpdateParams } from "./resources/webhook-endpoints.js";
// Wire types with no resource of their own: error bodies, and the service's views of a few requests and responses.
export type {
  ActivityLogFilters,
  ErrorBody,
  SnapshotUploadProgress,
  UploadConflictBody,
  ValidationErrorBody,
  VulnerabilityRecordUpdate,
  WebhookEndpointCreated,
} from "./generated/wire.js";
export { Accounts } from "./resources/accounts.js";
export { ActivityLogs } from "./resources/activity-logs.js";
export { Authentication } from "./resources/auth.js";
export { HealthChecks } from "./resources/health-checks.js";
export { Sites } from "./resources/sites.js";
export { Snapshots } from "./resources/snapshots.js";
export { UpgradePipelines } from "./resources/upgrade-pipelines.js";
export { Users } from "./resources/users.js";
export { VulnerabilityRecords } from "./resources/vulnerability-records.js";
export { WebhookEndpoints } from "./resources/webhook-endpoints.js";
