// Finding one site or webhook endpoint by what people know of it: its exact name, its URL, or its id. Used by
// the siteops_site data source and by `import` of siteops_site and siteops_webhook_endpoint, so a lookup
// reports "none" and "several" the same way everywhere.
import { path, type Diagnostics } from "../framework/diagnostics.js";

export type SiteKey = "id" | "name" | "url";

/**
 * The one item among `items` whose `key` is `wanted`, or undefined after a diagnostic at `at` saying that none
 * or several match (listing the ids of several, to look up or import by id instead).
 */
export function onlyMatch<T extends { id: string }>(
  items: readonly T[],
  what: { noun: string; plural: string; key: string; wanted: string },
  diags: Diagnostics,
  at: ReturnType<typeof path>,
  hint: string,
): T | undefined {
  const [match, ...others] = items;
  if (match && others.length === 0) return match;
  const value = JSON.stringify(what.wanted);
  diags.error(
    items.length ? `${items.length} ${what.plural} have ${what.key} ${value}` : `No ${what.noun} with ${what.key} ${value}`,
    items.length ? `Use the id instead: ${items.map((i) => i.id).join(", ")}.` : hint,
    at,
  );
  return undefined;
}

/** How an import id names an object: `name:Blog`, an http(s) URL, or else the object's id. */
export function parseImportId(ref: string): { key: SiteKey; wanted: string } {
  const trimmed = ref.trim();
  if (trimmed.startsWith("name:")) return { key: "name", wanted: trimmed.slice("name:".length) };
  if (/^https?:\/\//i.test(trimmed)) return { key: "url", wanted: trimmed };
  return { key: "id", wanted: trimmed };
}
