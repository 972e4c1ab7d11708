// Activity log on the wire (docs/design.md section 2): the entry and the filters of its listing.
import { Type, type Static } from "typebox";
import { allAssumed } from "./field.js";

export const ActivityLogSchema = Type.Object(
  allAssumed({
    id: Type.String(),
    account_id: Type.String(),
    site_id: Type.Union([Type.String(), Type.Null()]),
    action: Type.String({ description: "Dotted, e.g. `snapshot.created`" }),
    actor: Type.Object({
      type: Type.Union([Type.Literal("user"), Type.Literal("api_token"), Type.Literal("system")]),
      id: Type.String(),
      name: Type.String(),
    }),
    subject_type: Type.String(),
    subject_id: Type.Union([Type.String(), Type.Null()]),
    changes: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
    ip_address: Type.Union([Type.String(), Type.Null()]),
    request_id: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String(),
  }),
);
export type ActivityLogJson = Static<typeof ActivityLogSchema>;

export const ActivityLogFiltersSchema = Type.Object(
  allAssumed({
    site_id: Type.Optional(Type.String({ description: "Only entries about this site" })),
    action: Type.Optional(Type.String({ description: "Exact action (site.created), or a prefix ending in .* (site.*)" })),
    since: Type.Optional(Type.String({ description: "ISO 8601 time; entries at or after it" })),
    until: Type.Optional(Type.String({ description: "ISO 8601 time; entries before it" })),
  }),
);
