// Reads of siteops_site during a refresh. Terraform refreshes every resource with its own ReadResource call
// (10 at a time by default). For a large configuration one walk through the account's listing, 100 sites a
// page, answers them with 1/100th of the requests; small configurations keep plain GETs.
//
// The walk streams: it fetches the next page only while a read waits for a site it has not listed yet or
// while fewer than a page of listed sites wait to be asked for, and it keeps at most LISTING_WINDOW listed
// sites that no read has asked for. Terraform reads in about the order the sites were created, which is the
// listing's order, so the window rarely fills; memory stays flat however large the fleet. A site the walk
// does not hand over (deleted out of band, created after the walk passed it, or dropped from a full window)
// is fetched with a GET, which also yields the 404 of a deleted site.
import type { Site, SiteOps } from "../../src/index.js";

/** Reads in one provider process that are plain GETs before the listing walk starts. */
export const LISTING_THRESHOLD = 20;
/** Listed sites kept for reads still to come; beyond it the oldest are dropped (and fetched by GET if read). */
export const LISTING_WINDOW = 2_000;
/** Sites per listing page: the API's largest page. */
const PAGE_SIZE = 100;

type Waiter = (site: Site | undefined) => void;

export class SiteReader {
  private reads = 0;
  private walk: "none" | "running" | "done" = "none";
  /** Reads waiting for the walk, by site id. */
  private readonly waiting = new Map<string, Waiter[]>();
  /** Listed sites no read has asked for yet, oldest first. */
  private readonly window = new Map<string, Site>();
  /** Ids dropped from a full window: their reads go straight to a GET. */
  private readonly dropped = new Set<string>();
  private wake: (() => void) | undefined;

  constructor(
    private readonly client: () => Promise<SiteOps>,
    private readonly windowSize = LISTING_WINDOW,
  ) {}

  /** Listed sites held for reads still to come (never more than the window). */
  get held(): number {
    return this.window.size;
  }

  /** The site; throws the client's error (NotFoundError for a deleted site: the caller decides what it means). */
  async get(id: string, signal: AbortSignal): Promise<Site> {
    this.reads++;
    const listed = await this.fromListing(id, signal);
    return listed ?? (await this.client()).sites.get(id, { signal });
  }

  /** Create, update and delete make a listed copy stale. */
  forget(id: string): void {
    this.window.delete(id);
  }

  private fromListing(id: string, signal: AbortSignal): Site | undefined | Promise<Site | undefined> {
    const held = this.window.get(id);
    if (held) {
      this.window.delete(id);
      this.wake?.();
      return held;
    }
    if (this.walk === "done" || this.dropped.has(id) || (this.walk === "none" && this.reads <= LISTING_THRESHOLD)) return undefined;
    if (this.walk === "none") {
      this.walk = "running";
      void this.runWalk(signal);
    }
    return new Promise<Site | undefined>((resolve) => {
      const list = this.waiting.get(id);
      if (list) list.push(resolve);
      else this.waiting.set(id, [resolve]);
      this.wake?.();
    });
  }

  private async runWalk(signal: AbortSignal): Promise<void> {
    try {
      const client = await this.client();
      const first = await client.sites.list({ per_page: PAGE_SIZE }, { signal });
      for await (const page of first.iterPages()) {
        for (const site of page.data) this.deliver(site);
        while (this.waiting.size === 0 && this.window.size >= PAGE_SIZE) await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
      }
    } catch {
      // The listing failed (after the client's retries): every read falls back to its own GET, which
      // reports the failure with the site it concerns.
    } finally {
      this.walk = "done";
      for (const list of this.waiting.values()) for (const resolve of list) resolve(undefined);
      this.waiting.clear();
    }
  }

  private deliver(site: Site): void {
    const list = this.waiting.get(site.id);
    if (list) {
      this.waiting.delete(site.id);
      for (const resolve of list) resolve(site);
      return;
    }
    this.window.set(site.id, site);
    if (this.window.size > this.windowSize) {
      for (const oldest of this.window.keys()) {
        this.window.delete(oldest);
        this.dropped.add(oldest);
        break;
      }
    }
  }
}
