// The one place endpoint paths are built: the version prefix written once, and every value put into a path
// escaped as one segment (ids come from users and from the service, and must never change which path is asked
// for). Modelled on openai-node's `path` tag.

import { SiteOpsError } from "../errors.js";

/** The version prefix every endpoint of the spec starts with. */
export const API_PREFIX = "/api/v1";

/**
 * An endpoint's path below the base URL: `apiPath\`/sites/${id}/snapshots\`` is `/api/v1/sites/<id>/snapshots`,
 * each interpolated value one percent-encoded segment. Throws SiteOpsError for a value that is not a non-empty
 * string, or is `.` or `..` (which would climb out of the segment once a URL is resolved).
 */
export function apiPath(strings: TemplateStringsArray, ...values: readonly unknown[]): string {
  let out = API_PREFIX + strings[0];
  for (let i = 0; i < values.length; i++) out += segment(values[i], strings[i]!) + strings[i + 1];
  return out;
}

function segment(value: unknown, before: string): string {
  const where = `${API_PREFIX}${before}`;
  if (typeof value !== "string" || value === "") {
    throw new SiteOpsError(`Invalid id after ${where}: an id must be a non-empty string (got ${value === "" ? "an empty string" : typeof value}).`);
  }
  if (value === "." || value === "..") throw new SiteOpsError(`Invalid id after ${where}: ${JSON.stringify(value)} is not an id.`);
  return encodeURIComponent(value);
}
