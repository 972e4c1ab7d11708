// Upgrade pipeline on the wire (docs/design.md section 2): the resource, its create and approve bodies.
import { Type, type Static } from "typebox";
import { Nullable, Text } from "./common.js";
import { allAssumed, spec } from "./field.js";

export const PipelineStatusSchema = Type.Union([
  Type.Literal("pending"),
  Type.Literal("running"),
  Type.Literal("awaiting_approval"),
  Type.Literal("applying"),
  Type.Literal("succeeded"),
  Type.Literal("failed"),
  Type.Literal("rolled_back"),
]);

export const PipelineStepSchema = Type.Object({
  name: Type.Union([Type.Literal("snapshot"), Type.Literal("preflight"), Type.Literal("apply"), Type.Literal("verify")]),
  status: Type.Union([Type.Literal("pending"), Type.Literal("running"), Type.Literal("passed"), Type.Literal("failed"), Type.Literal("skipped")]),
  started_at: Nullable(Type.String()),
  finished_at: Nullable(Type.String()),
});

export const UpgradePipelineSchema = Type.Object({
  id: spec(Type.String()),
  site_id: spec(Type.String()),
  ...allAssumed({
    status: PipelineStatusSchema,
    from_wp_version: Type.String(),
    to_wp_version: Type.String({ description: "The current version when the pipeline does not change it" }),
    from_php_version: Type.String(),
    to_php_version: Type.String(),
    snapshot_id: Nullable(Type.String()),
    requires_approval: Type.Boolean(),
    approved_at: Nullable(Type.String()),
    approved_by: Nullable(Type.String({ description: "Id of the user who approved" })),
    comment: Nullable(Type.String()),
    error: Nullable(Type.String()),
    steps: Type.Array(PipelineStepSchema),
    created_at: Type.String(),
    updated_at: Type.String(),
    completed_at: Nullable(Type.String()),
  }),
});

export type UpgradePipelineJson = Static<typeof UpgradePipelineSchema>;
export type PipelineStatus = Static<typeof PipelineStatusSchema>;
export type Step = Static<typeof PipelineStepSchema>;
export type StepName = Step["name"];
export type StepStatus = Step["status"];

export const PipelineCreateSchema = Type.Object(
  allAssumed({
    to_wp_version: Type.Optional(Type.String({ description: "Target WordPress version (major.minor); at least one target is required" })),
    to_php_version: Type.Optional(Type.String({ description: "Target PHP version (major.minor)" })),
    requires_approval: Type.Optional(Type.Boolean({ description: "Stop at awaiting_approval before applying (default true)" })),
    snapshot_id: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: "A completed snapshot of this site; else the pipeline takes one" })),
  }),
);

export type PipelineInput = Static<typeof PipelineCreateSchema>;

export const PipelineApproveSchema = Type.Object(
  allAssumed({
    comment: Type.Optional(Type.Union([Text({ maxLength: 1000 }), Type.Null()])),
  }),
);
