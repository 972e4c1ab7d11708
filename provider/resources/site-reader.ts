// Reads of siteops_site during a refresh. Terraform refreshes every resource with its own ReadResource call
// (10 at a time by default); for a large configuration, one paginated listing of the account's sites
// answers them all with 1/100th of the requests. Small configurations keep plain GETs.
import type { Site, SiteOps } from "../../src/index.js";

/** Reads in one provider process after which the remaining ones are served from a listing. */
export const LISTING_THRESHOLD = 20;

export class SiteReader {
  private reads = 0;
  private listing: Promise<Map<string, Site>> | undefined;

  constructor(private readonly client: () => Promise<SiteOps>) {}

  /** The site, or null when the service answers 404 (the caller decides what a 404 means). */
  async get(id: string, signal: AbortSignal): Promise<Site> {
    this.reads++;
    if (this.reads > LISTING_THRESHOLD && !this.listing) {
      this.listing = this.listAll(signal);
      this.listing.catch(() => (this.listing = undefined)); // fall back to GETs; retry the listing later
    }
    if (this.listing) {
      const found = await this.listing.then((m) => m.get(id)).catch(() => undefined);
      if (found) return found;
      // Not in the listing (created after it, or gone): ask for it directly, which also yields the 404.
    }
    return (await this.client()).sites.get(id, { signal });
  }

  /** Create, update and delete make a listed copy stale. */
  forget(id: string): void {
    void this.listing?.then((m) => m.delete(id)).catch(() => {});
  }

  private async listAll(signal: AbortSignal): Promise<Map<string, Site>> {
    const client = await this.client();
    const all = new Map<string, Site>();
    for await (const site of client.sites.list({ per_page: 100 }, { signal })) all.set(site.id, site);
    return all;
  }
}
