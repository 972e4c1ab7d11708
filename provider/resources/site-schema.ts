// The schema of siteops_site: its attributes from the site's field table (wire/generated/fields.ts) with the
// validators, plan modifiers and semantic equality Terraform adds, deletion_protection and the `upgrade` block. A
// module of its own so that what reads only the schema (siteops export, which the CLI bundles) does not load the
// resource's CRUD.
import type { Model } from "../framework/model.js";
import { useStateForUnknown } from "../framework/plan-modifiers.js";
import { defineSchema } from "../framework/schema.js";
import { httpUrl, stringLengthBetween, stringMatches } from "../framework/validators.js";
import { siteFields } from "../../wire/generated/fields.js";
import { resourceAttributes } from "../wire-attributes.js";
import { sameUrl, sameVersion } from "./same-meaning.js";
import { deletionProtectionAttribute } from "./site-protection.js";
import { upgradeBlock } from "./site-upgrade-policy.js";

const majorMinor = stringMatches(/^\d+\.\d+$/, 'must be a major.minor version such as "6.4"');
const version = {
  more: "Defaults to the service's current version. `6.5` and `6.5.0` are one version.",
  validators: [majorMinor],
  planModifiers: [useStateForUnknown()],
  semanticEquals: sameVersion,
} as const;

/** What Terraform adds to the site's fields, and the one it leaves out. */
export const SITE_LAYERS = {
  id: { planModifiers: [useStateForUnknown()] },
  name: { validators: [stringLengthBetween(1, 255)] },
  url: {
    more: "Compared by meaning: where the service stores it spelled otherwise (host case, a trailing `/`, a default port), the state keeps the configured spelling.",
    validators: [httpUrl()],
    semanticEquals: sameUrl,
  },
  wp_version: version,
  php_version: version,
  created_at: { planModifiers: [useStateForUnknown()] },
  updated_at: {
    leftOut:
      "changes with every write, Terraform's or another's: in state it would show a diff on every refresh; the resource keeps it in private state to tell its own writes from others'",
  },
} as const;

export const siteSchema = defineSchema({
  description:
    "A WordPress site managed by Site Operations. All arguments can be changed in place; a change of `wp_version` or `php_version` runs an upgrade pipeline (see the `upgrade` block). Terraform deletes a site only after `deletion_protection = false` has been applied. Import by id, URL or `name:NAME`.",
  // 1: deletion_protection (state written before it reads as protected).
  version: 1,
  attributes: {
    ...resourceAttributes(siteFields, SITE_LAYERS),
    deletion_protection: deletionProtectionAttribute,
  },
  blocks: { upgrade: upgradeBlock },
});

export type SiteModel = Model<typeof siteSchema>;
