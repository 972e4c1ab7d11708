// Snapshot on the wire (docs/design.md section 2): the resource, its create body, and the upload's 202 body.
import { Type, type Static } from "typebox";
import { Nullable, Text } from "./common.js";
import { allAssumed, spec } from "./field.js";

export const SnapshotStatusSchema = Type.Union([Type.Literal("requested"), Type.Literal("in_progress"), Type.Literal("completed"), Type.Literal("failed")]);

const SNAPSHOT_TRIGGERS = ["manual", "scheduled", "pre_upgrade", "system"] as const;
export type SnapshotTrigger = (typeof SNAPSHOT_TRIGGERS)[number];

export const SnapshotSchema = Type.Object({
  id: spec(Type.String()),
  site_id: spec(Type.String()),
  ...allAssumed({
    status: SnapshotStatusSchema,
    source: Type.Union([Type.Literal("service"), Type.Literal("upload")]),
    trigger: Type.Union([Type.Literal("manual"), Type.Literal("scheduled"), Type.Literal("pre_upgrade"), Type.Literal("system")]),
    description: Nullable(Type.String()),
    wp_version: Type.String(),
    php_version: Type.String(),
    size_bytes: Nullable(Type.Integer()),
    checksum_sha256: Nullable(Type.String({ description: "Lowercase hex SHA-256 of the data" })),
    error: Nullable(Type.String({ description: "Why the snapshot failed" })),
    created_at: Type.String(),
    completed_at: Nullable(Type.String()),
  }),
});

export type SnapshotJson = Static<typeof SnapshotSchema>;
export type SnapshotStatus = SnapshotJson["status"];

// An enum (not a union of literals) so that a wrong value reads "is not included in the list".
export const SnapshotCreateSchema = Type.Object(
  allAssumed({
    description: Type.Optional(Type.Union([Text({ maxLength: 1000 }), Type.Null()])),
    trigger: Type.Optional(Type.Unsafe<SnapshotTrigger>({ type: "string", enum: [...SNAPSHOT_TRIGGERS] })),
    upload: Type.Optional(Type.Boolean({ description: "true: wait in `requested` for data sent to the upload endpoint" })),
  }),
);

export type SnapshotInput = Static<typeof SnapshotCreateSchema>;

/** 202 of a resumable upload chunk or offset query. */
export const UploadReceivedSchema = Type.Object({ received_bytes: Type.Integer() });
