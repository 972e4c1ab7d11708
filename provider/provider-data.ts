// What ConfigureProvider hands every resource and data source: a way to get the API client (logging in
// lazily, once, for email/password), the boundary for its errors, and the batched site reader.
import type { SiteOps } from "../src/index.js";
import type { ApiErrors } from "./api-errors.js";
import type { SiteReader } from "./resources/site-reader.js";

export interface ProviderData {
  client(): Promise<SiteOps>;
  /** Turns the client's errors into diagnostics naming where the credentials came from. */
  errors: ApiErrors;
  /** Site reads, served from a streamed listing of the account during large refreshes. */
  sites: SiteReader;
}
