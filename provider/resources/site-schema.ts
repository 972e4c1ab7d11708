// The schema of siteops_site: its attributes, their validators, plan modifiers and semantic equality, and the
// `upgrade` block. A module of its own so that what reads only the schema (siteops export, which the CLI
// bundles) does not load the resource's CRUD.
import type { Model } from "../framework/model.js";
import { useStateForUnknown } from "../framework/plan-modifiers.js";
import { defineSchema } from "../framework/schema.js";
import { httpUrl, stringLengthBetween, stringMatches } from "../framework/validators.js";
import { sameUrl, sameVersion } from "./same-meaning.js";
import { deletionProtectionAttribute } from "./site-protection.js";
import { upgradeBlock } from "./site-upgrade-policy.js";

const majorMinor = stringMatches(/^\d+\.\d+$/, 'must be a major.minor version such as "6.4"');

export const siteSchema = defineSchema({
  description:
    "A WordPress site managed by Site Operations. All arguments can be changed in place; a change of `wp_version` or `php_version` runs an upgrade pipeline (see the `upgrade` block). Terraform deletes a site only after `deletion_protection = false` has been applied. Import by id, URL or `name:NAME`.",
  // 1: deletion_protection (state written before it reads as protected).
  version: 1,
  attributes: {
    id: { type: "string", computed: true, description: "Site identifier (`site_...`).", planModifiers: [useStateForUnknown()] },
    name: { type: "string", required: true, description: "Display name, 1 to 255 characters.", validators: [stringLengthBetween(1, 255)] },
    url: {
      type: "string",
      required: true,
      description:
        "Absolute http or https URL of the site; unique within the account. Compared by meaning: where the service stores it spelled otherwise (host case, a trailing `/`, a default port), the state keeps the configured spelling.",
      validators: [httpUrl()],
      semanticEquals: sameUrl,
    },
    wp_version: {
      type: "string",
      optional: true,
      computed: true,
      description: "WordPress version, `major.minor`. Defaults to the service's current version. `6.5` and `6.5.0` are one version.",
      validators: [majorMinor],
      planModifiers: [useStateForUnknown()],
      semanticEquals: sameVersion,
    },
    php_version: {
      type: "string",
      optional: true,
      computed: true,
      description: "PHP version, `major.minor`. Defaults to the service's current version. `6.5` and `6.5.0` are one version.",
      validators: [majorMinor],
      planModifiers: [useStateForUnknown()],
      semanticEquals: sameVersion,
    },
    status: { type: "string", computed: true, description: "Health status: `healthy`, `degraded`, `down`, `maintenance` or `unknown`." },
    created_at: { type: "string", computed: true, description: "Creation time, ISO 8601 UTC.", planModifiers: [useStateForUnknown()] },
    deletion_protection: deletionProtectionAttribute,
  },
  blocks: { upgrade: upgradeBlock },
});

export type SiteModel = Model<typeof siteSchema>;
