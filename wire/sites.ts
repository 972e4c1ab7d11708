// Site on the wire (docs/design.md section 2, Site): the resource and its create/update bodies.
import { Type, type Static } from "typebox";
import { Text } from "./common.js";

export const SiteStatusSchema = Type.Union(
  [Type.Literal("healthy"), Type.Literal("degraded"), Type.Literal("down"), Type.Literal("maintenance"), Type.Literal("unknown")],
  { description: "Derived from the latest health check; `maintenance` while a pipeline applies" },
);

export const SiteSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    url: Type.String(),
    status: SiteStatusSchema,
    wp_version: Type.String({ description: "major.minor" }),
    php_version: Type.String({ description: "major.minor" }),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { additionalProperties: false },
);

export type SiteStatus = Static<typeof SiteStatusSchema>;
export type SiteJson = Static<typeof SiteSchema>;

export const SiteCreateSchema = Type.Object({
  name: Text({ description: "1..255 characters, no control characters" }),
  url: Type.String({ description: "Absolute http(s) URL, unique per account" }),
  wp_version: Type.Optional(Type.String({ description: "major.minor; default: the service's current version" })),
  php_version: Type.Optional(Type.String({ description: "major.minor; default: the service's current version" })),
});

export const SiteUpdateSchema = Type.Object({
  name: Type.Optional(Text()),
  url: Type.Optional(Type.String()),
  wp_version: Type.Optional(Type.String()),
  php_version: Type.Optional(Type.String()),
});

export type SiteInput = Static<typeof SiteCreateSchema>;
export type SitePatch = Static<typeof SiteUpdateSchema>;
