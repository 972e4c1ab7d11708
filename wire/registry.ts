// What scripts/generate-wire.mjs publishes of wire/: the types the client exports, by the name it exports them
// under (each a TypeScript type in src/generated/wire.ts; a schema used inside another under its own name here
// becomes a reference to that name), and the resources whose field tables it writes to wire/generated/fields.ts.
// Adding a field to a resource: docs/project-layout.md, "Adding a field to a resource".
import type { TObject, TSchema } from "typebox";
import { ActivityLogFiltersSchema, ActivityLogSchema } from "./activity-logs.js";
import { ApiTokenLoginSchema, ApiTokenSchema, LoginSchema, RevokeResultSchema, TokenPairSchema } from "./auth.js";
import { ErrorSchema, UploadConflictSchema, ValidationErrorSchema } from "./common.js";
import { HealthCheckItemSchema, HealthCheckSchema } from "./health-checks.js";
import { SiteCreateSchema, SiteSchema, SiteStatusSchema, SiteUpdateSchema } from "./sites.js";
import { SnapshotCreateSchema, SnapshotSchema, SnapshotStatusSchema, UploadReceivedSchema } from "./snapshots.js";
import { PipelineApproveSchema, PipelineCreateSchema, PipelineStatusSchema, PipelineStepSchema, UpgradePipelineSchema } from "./upgrade-pipelines.js";
import { AccountSchema, MeSchema, RoleSchema, UserSchema } from "./users.js";
import {
  DismissedReasonSchema,
  RecordUpdateSchema,
  VulnerabilityRecordSchema,
  VulnerabilitySeveritySchema,
  VulnerabilityStatusSchema,
} from "./vulnerability-records.js";
import { EndpointCreateSchema, EndpointUpdateSchema, WebhookEndpointCreatedSchema, WebhookEndpointSchema } from "./webhook-endpoints.js";

export interface WireType {
  /** The exported TypeScript name. */
  name: string;
  schema: TSchema;
  /** Doc comment of the type (else the schema's description). */
  doc?: string;
}

const t = (name: string, schema: TSchema, doc?: string): WireType => ({ name, schema, doc });

/** A resource of the field tables: what answers show, and what create and update take. */
export interface WireResource {
  /** The table's name in wire/generated/fields.ts is this plus `Fields` (siteFields). */
  name: string;
  read: TObject;
  /** The answer to the create where it shows more than `read` (a webhook endpoint's secret). */
  created?: TObject;
  create?: TObject;
  update?: TObject;
}

/** The resources of the field tables, in the order they are written out. */
export const RESOURCES: readonly WireResource[] = [
  { name: "site", read: SiteSchema, create: SiteCreateSchema, update: SiteUpdateSchema },
  { name: "webhookEndpoint", read: WebhookEndpointSchema, created: WebhookEndpointCreatedSchema, create: EndpointCreateSchema, update: EndpointUpdateSchema },
  { name: "snapshot", read: SnapshotSchema, create: SnapshotCreateSchema },
  { name: "upgradePipeline", read: UpgradePipelineSchema, create: PipelineCreateSchema },
  { name: "vulnerabilityRecord", read: VulnerabilityRecordSchema, update: RecordUpdateSchema },
  { name: "healthCheck", read: HealthCheckSchema },
  { name: "activityLog", read: ActivityLogSchema },
  { name: "user", read: UserSchema },
  { name: "account", read: AccountSchema },
];

/** The published types, in the order they are written out. */
export const WIRE_TYPES: readonly WireType[] = [
  t("Site", SiteSchema),
  t("SiteStatus", SiteStatusSchema),
  t("SiteCreateParams", SiteCreateSchema, "POST /api/v1/sites body."),
  t("SiteUpdateParams", SiteUpdateSchema, "PATCH /api/v1/sites/:id body: any of the create fields."),
  t("HealthCheck", HealthCheckSchema),
  t("HealthCheckItem", HealthCheckItemSchema, "One test of a health check, as on the WordPress Site Health screen."),
  t("Snapshot", SnapshotSchema),
  t("SnapshotStatus", SnapshotStatusSchema),
  t("SnapshotCreateParams", SnapshotCreateSchema, "POST /api/v1/sites/:site_id/snapshots body."),
  t("SnapshotUploadProgress", UploadReceivedSchema, "202 of a resumable upload: the bytes the service holds."),
  t("UpgradePipeline", UpgradePipelineSchema),
  t("UpgradePipelineStatus", PipelineStatusSchema),
  t("UpgradePipelineStep", PipelineStepSchema),
  t("UpgradePipelineCreateParams", PipelineCreateSchema, "POST /api/v1/sites/:site_id/upgrade_pipelines body (one active pipeline per site, no downgrades)."),
  t("UpgradePipelineApproveParams", PipelineApproveSchema, "POST /api/v1/sites/:site_id/upgrade_pipelines/:id/approve body."),
  t("VulnerabilityRecord", VulnerabilityRecordSchema),
  t("VulnerabilitySeverity", VulnerabilitySeveritySchema),
  t("VulnerabilityStatus", VulnerabilityStatusSchema),
  t("DismissedReason", DismissedReasonSchema),
  t("VulnerabilityRecordUpdate", RecordUpdateSchema, "PATCH /api/v1/sites/:site_id/vulnerability_records/:id body as the service validates it."),
  t("WebhookEndpoint", WebhookEndpointSchema),
  t("WebhookEndpointCreated", WebhookEndpointCreatedSchema, "POST /api/v1/webhook_endpoints response: the endpoint with its signing secret, shown once."),
  t("WebhookEndpointCreateParams", EndpointCreateSchema),
  t("WebhookEndpointUpdateParams", EndpointUpdateSchema),
  t("User", UserSchema),
  t("Role", RoleSchema),
  t("Me", MeSchema, "GET /api/v1/me: the user plus the account requests act in."),
  t("Account", AccountSchema),
  t("ActivityLog", ActivityLogSchema),
  t("ActivityLogFilters", ActivityLogFiltersSchema, "Filters of GET /api/v1/activity_logs."),
  t("JwtTokens", TokenPairSchema, "POST /api/v1/jwt and /api/v1/jwt/refresh response."),
  t("JwtLoginParams", LoginSchema),
  t("ApiTokenLoginParams", ApiTokenLoginSchema),
  t("ApiTokenLogin", ApiTokenSchema, "POST /api/v1/auth response: a new API token (shown once) and its user."),
  t("RevokeResult", RevokeResultSchema),
  t("ErrorBody", ErrorSchema, "The body of every error response (400, 401, 403, 404, 409, 413, 415, 429, 5xx)."),
  t("ValidationErrorBody", ValidationErrorSchema, "The body of a 422."),
  t("UploadConflictBody", UploadConflictSchema, "The body of a 409 from the upload endpoint."),
];
