// The API core (client, errors, site lookup, shards: core-api.ts), loaded when first needed, not at start-up: processes that only serve
// the schema or validation never need it. The bundle keeps it in a CommonJS file of its own, loaded with
// require (an import() of CommonJS would first scan the whole file for export names).
import { createRequire } from "node:module";

declare const __SITEOPS_CLIENT_FILE__: string | undefined;

export async function loadClient(): Promise<typeof import("./core-api.js")> {
  if (typeof __SITEOPS_CLIENT_FILE__ !== "undefined") return createRequire(import.meta.url)(__SITEOPS_CLIENT_FILE__) as typeof import("./core-api.js");
  return import("./core-api.js");
}
