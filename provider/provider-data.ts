// What ConfigureProvider hands every resource and data source: a way to get the API client (logging in
// lazily, once, for email/password) and where its credentials came from, for error messages.
import type { SiteOps } from "../src/index.js";
import type { SiteReader } from "./resources/site-reader.js";

export interface ProviderData {
  client(): Promise<SiteOps>;
  /** e.g. "the SITEOPS_API_TOKEN environment variable"; never the credential itself. */
  credentialSource: string;
  /** Site reads, batched into one listing during large refreshes. */
  sites: SiteReader;
}
