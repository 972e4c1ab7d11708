// The key of each object `siteops export` writes (`local.sites["blog_x4k2m9qa"]`, `siteops_site.blog_x4k2m9qa`, the
// CDK app's `site_blog_x4k2m9qa`): its resource address, so it must stay the same for the object's whole life,
// whatever the object is renamed to, and never pass to another object (docs/design.md section 4, "Adopting a
// fleet"). A key is chosen once, from the name (sites) or the URL's host and path (endpoints) and the end of the id,
// when an object is first exported; an earlier export's key is kept for every object it held (previous-export.ts
// reads them), so a renamed site, a new twin or a form change never moves an object that stays. Pure:
// test/provider/export-keys.test.ts holds it over generated fleets.
import type { WebhookEndpoint } from "../../src/index.js";

/** How keys are written: quoted map keys ("map"), resource names ("blocks") or construct ids ("cdktn"). */
export type KeyForm = "map" | "blocks" | "cdktn";

/** Where an earlier export put an object: resource `resource`, and `key` within its for_each (map form). */
export interface PreviousPlace {
  key: string;
  /** The Terraform address in the earlier file, as resource name and for_each key; absent for a CDK app (its
   * addresses are in another configuration: no `moved` block can name them). */
  address?: { resource: string; key?: string };
}

/** A Terraform identifier (a resource name): a letter or `_`, then letters, digits, `_` and `-`. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** Whether `key` can be written in `form`: a resource name must be an identifier; a map key or construct id may be
 * any short text without control characters or a `/` (a construct path's separator). */
export function validKey(key: string, form: KeyForm): boolean {
  if (form === "blocks") return IDENTIFIER.test(key);
  return key.length > 0 && key.length <= 256 && !/[\u0000-\u001f\u007f-\u009f/]/.test(key);
}

/** A key from a name: lowercase ASCII letters, digits and `_`, starting with a letter. */
export function slugOf(name: string, fallback: string): string {
  const slug = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  if (!slug) return fallback;
  return /^[a-z]/.test(slug) ? slug : `s_${slug}`;
}

/** An endpoint's key base: its URL's host and path. */
export function endpointBase(e: Pick<WebhookEndpoint, "url">): string {
  let text = e.url;
  try {
    const u = new URL(e.url);
    text = `${u.host}${u.pathname}`;
  } catch {
    // keep the raw URL
  }
  return slugOf(text, "endpoint");
}

/**
 * Each object's key, by id. First every object an earlier export held keeps its key there (when the form can
 * write it and no other object took it). Each new object gets the slug of `base` and the end of its id
 * (`blog_x4k2m9qa`): a key names one object for good, so a later export that cannot read the earlier one (written
 * to standard output) never gives a renamed object's old key to another object, which Terraform would plan as an
 * in-place update of the wrong object; it gives the renamed object a new key, which the provider refuses naming
 * `moved` (framework/import-guard.ts). Keys the earlier export used are not given to new objects either, and a
 * key taken already gets the whole id, then a number. So adding, renaming or deleting objects never changes
 * another's key.
 */
export function assignKeys<T extends { id: string }>(
  items: readonly T[],
  base: (item: T) => string,
  form: KeyForm,
  previous: ReadonlyMap<string, PreviousPlace> = new Map(),
): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set([...previous.values()].map((p) => p.key));
  const kept = new Set<string>();
  for (const item of items) {
    const key = previous.get(item.id)?.key;
    if (key === undefined || !validKey(key, form) || kept.has(key)) continue;
    out.set(item.id, key);
    kept.add(key);
  }
  for (const item of items) {
    if (out.has(item.id)) continue;
    const b = base(item);
    const tail = idTail(item.id);
    let key = `${b}_${tail.slice(-TAIL_LENGTH)}`;
    if (taken.has(key)) key = `${b}_${tail}`;
    for (let n = 2; taken.has(key); n++) key = `${b}_${tail}_${n}`;
    out.set(item.id, key);
    taken.add(key);
  }
  return out;
}

/** Characters of an id's end in a new key: with ids of 16 or more random characters (the service's are 20), two
 * objects of one name share them about once in 10^12; it is the end so that time-ordered ids (ULIDs) differ. */
const TAIL_LENGTH = 8;

/** An id without its type prefix, as key material: `site_01HX` -> `01hx` (only what a slug may hold). */
const idTail = (id: string) =>
  id
    .replace(/^[a-z]+_/, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "") || "x";
