// deletion_protection of siteops_site (issue 36), on by default as on Google's google_sql_database_instance: a
// protected site is never deleted. A destroy (`terraform destroy`, a `removed` block, a resource taken out of the
// configuration) and a replacement are refused at plan time where Terraform asks the provider, and delete()
// refuses at apply time whatever was planned (a tainted site's replacement is planned without the provider's
// say). Turning it off is an in-place change of the state alone: no API call.
import { path, type Diagnostics } from "../framework/diagnostics.js";
import type { PrivateState } from "../framework/resource.js";
import type { Attribute } from "../framework/schema.js";

export const deletionProtectionAttribute = {
  type: "bool",
  optional: true,
  computed: true,
  default: true,
  description:
    "Whether Terraform is kept from deleting the site: while `true`, `terraform destroy`, a `removed` block with `destroy = true`, a resource taken out of the configuration and a replacement (`-replace`) all fail with an error until `deletion_protection = false` has been applied. Changing it calls no API (it lives in the state only); `terraform import` and `siteops export` set it to `true`.",
} as const satisfies Attribute;

/** The key of the private state that carries the attribute to a replacement's plan (see refuseReplacement). */
const PRIVATE_KEY = "deletion_protection";

/** The private state that records whether the site is protected, beside what else it holds. */
export function withProtection(priv: PrivateState, on: boolean): PrivateState {
  return { ...priv, [PRIVATE_KEY]: on };
}

/** Unset (state written before the attribute existed, or by an import) means protected. */
export const isProtected = (value: boolean | null | undefined): boolean => value !== false;

const HOW = "set deletion_protection = false in its siteops_site block and run terraform apply first";

/** Before HOW: the one cause of a destroy that must not be answered by turning protection off. */
const MOVED =
  'If the configuration still has it at another address (a resource or for_each key renamed), it moved: write a moved block from this address (the "with" line above) to that one, and nothing is deleted.';

/** `site "Blog" (site_x)`, with what is known of the two. */
const label = (site: { id: string | null; name: string | null }) =>
  ["site", site.name === null ? "" : JSON.stringify(site.name), site.id === null ? "" : `(${site.id})`].filter(Boolean).join(" ");

/** A destroy of a protected site: an error (true) at plan time or in delete(). */
export function refuseDestroy(site: { id: string | null; name: string | null; deletion_protection: boolean | null }, diags: Diagnostics): boolean {
  if (!isProtected(site.deletion_protection)) return false;
  diags.error(
    `Cannot delete ${label(site)}: deletion_protection is on`,
    `Terraform would delete this WordPress site. ${MOVED} To delete it, ${HOW}.`,
    path("deletion_protection"),
  );
  return true;
}

/**
 * A replacement of a protected site: one the provider asks for (a requires-replace change, with the prior state
 * at hand), or `-replace` and `replace_triggered_by`, which Terraform plans as a create with the replaced site's
 * private state (resource.ts, ModifyPlanRequest.private): that carries the attribute, and a site's private state
 * without it (written before it existed) counts as protected.
 */
export function refuseReplacement(
  req: { prior: { id: string | null; name: string | null; deletion_protection: boolean | null } | null; private: PrivateState; requiresReplace: unknown[] },
  name: unknown,
  diags: Diagnostics,
): void {
  const { prior } = req;
  const replacing = prior ? req.requiresReplace.length > 0 : Object.keys(req.private).length > 0;
  if (!replacing) return;
  const on = prior ? isProtected(prior.deletion_protection) : req.private[PRIVATE_KEY] !== false;
  if (!on) return;
  const site = prior ?? { id: null, name: typeof name === "string" ? name : null };
  diags.error(
    `Cannot replace ${label(site)}: deletion_protection is on`,
    `Replacing it deletes this WordPress site and creates an empty one; to allow that, ${HOW}.`,
    path("deletion_protection"),
  );
}
