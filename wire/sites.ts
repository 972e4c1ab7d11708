// Site on the wire (docs/design.md section 2, Site): its fields declared once (the seven the spec lists, and
// updated_at), and from them the resource and its create/update bodies.
import { Type, type Static } from "typebox";
import { Text } from "./common.js";
import { assumed, defineFields, spec, writable } from "./field.js";

export const SiteStatusSchema = Type.Union(
  [Type.Literal("healthy"), Type.Literal("degraded"), Type.Literal("down"), Type.Literal("maintenance"), Type.Literal("unknown")],
  { description: "Derived from the latest health check; `maintenance` while a pipeline applies" },
);

const version = (product: string) => spec(Type.String({ description: `${product} version, \`major.minor\`.` }));
const versionInput = (product: string) =>
  Type.String({ description: `${product} version, \`major.minor\`; on create, the service's current version when not given.` });

const site = defineFields({
  id: spec(Type.String({ description: "Site identifier (`site_...`)." })),
  name: writable(spec(Type.String({ description: "Display name, 1 to 255 characters." })), { create: "required", update: true, input: Text() }),
  url: writable(spec(Type.String({ description: "Absolute http or https URL of the site; unique within the account." })), {
    create: "required",
    update: true,
  }),
  status: spec(Type.With(SiteStatusSchema, { description: "Health status: `healthy`, `degraded`, `down`, `maintenance` or `unknown`." })),
  wp_version: writable(version("WordPress"), { create: "optional", update: true, input: versionInput("WordPress") }),
  php_version: writable(version("PHP"), { create: "optional", update: true, input: versionInput("PHP") }),
  created_at: spec(Type.String({ description: "Creation time, ISO 8601 UTC." })),
  updated_at: assumed(Type.String({ description: "Time of the last change, ISO 8601 UTC." })),
});

export const SiteSchema = Type.Object(site.read, { additionalProperties: false });
export const SiteCreateSchema = Type.Object(site.create);
export const SiteUpdateSchema = Type.Object(site.update);

export type SiteStatus = Static<typeof SiteStatusSchema>;
export type SiteJson = Static<typeof SiteSchema>;
export type SiteInput = Static<typeof SiteCreateSchema>;
export type SitePatch = Static<typeof SiteUpdateSchema>;
