// Health check on the wire (docs/design.md section 2): read only, modelled on the WordPress Site Health screen.
import { Type, type Static } from "typebox";
import { Nullable } from "./common.js";
import { allAssumed, spec } from "./field.js";

export const HealthCheckItemSchema = Type.Object({
  test: Type.String(),
  label: Type.String(),
  status: Type.Union([Type.Literal("good"), Type.Literal("recommended"), Type.Literal("critical")]),
  description: Type.String(),
});

export const HealthCheckSchema = Type.Object({
  id: spec(Type.String()),
  site_id: spec(Type.String()),
  ...allAssumed({
    status: Type.Union([Type.Literal("passed"), Type.Literal("warning"), Type.Literal("failed")]),
    http_status: Nullable(Type.Integer()),
    response_time_ms: Nullable(Type.Integer()),
    wp_version: Type.String(),
    php_version: Type.String(),
    checks: Type.Array(HealthCheckItemSchema),
    checked_at: Type.String(),
  }),
});

export type HealthCheckJson = Static<typeof HealthCheckSchema>;
export type HealthCheckItem = Static<typeof HealthCheckItemSchema>;
export type HealthStatus = HealthCheckJson["status"];
