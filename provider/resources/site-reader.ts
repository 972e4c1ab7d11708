// Reads of siteops_site during a refresh. Terraform refreshes every resource with its own ReadResource call
// (10 at a time by default, in no particular order: about half the reads go to a lower index than the one
// before). For a large configuration one walk through the account's listing, 100 sites
// a page, answers them with about 1/100th of the requests; small configurations keep plain GETs.
//
// When to walk is decided like renting skis: the first LISTING_THRESHOLD reads are GETs; the next one asks
// for the first page, which says how many pages the whole listing has; the walk goes on once the reads so
// far are at least that many (until then reads stay GETs). A configuration that manages a small part of a
// large account thus never pays for a walk it cannot use, and no refresh costs more than twice the
// requests of the better of the two ways.
//
// The walk fetches the next page only while a read waits for a site it has not listed yet, or while fewer
// than a page of listed sites wait to be read. Listed sites are kept until read (each is read once per
// refresh) and at most LISTING_WINDOW of them: the oldest are dropped, and fetched by GET if read. A site
// the walk does not hand over (deleted out of band, created after the walk passed it, dropped) is fetched
// with a GET, which also yields the 404 of a deleted site.
import type { Page, Site, SiteOps } from "../../src/index.js";

/** Reads in one provider process that are plain GETs before the listing is considered. */
export const LISTING_THRESHOLD = 20;
/** Listed sites kept for reads still to come (~0.5 KB each); beyond it the oldest are dropped. */
const LISTING_WINDOW = 50_000;
/** Sites per listing page: the API's largest page. */
const PAGE_SIZE = 100;

type Waiter = (site: Site | undefined) => void;

export interface SiteReaderOptions {
  windowSize?: number;
  pageSize?: number;
}

export class SiteReader {
  private reads = 0;
  private walk: "none" | "first page" | "deferred" | "walking" | "done" = "none";
  private pages = Infinity;
  /** Reads waiting for the walk, by site id. */
  private readonly waiting = new Map<string, Waiter[]>();
  /** Listed sites no read has asked for yet, oldest first. */
  private readonly window = new Map<string, Site>();
  /** Ids dropped from a full window: their reads go straight to a GET. */
  private readonly dropped = new Set<string>();
  private wake: (() => void) | undefined;
  /** Sites the walk handed over: for messages that name the request a site came from. */
  private readonly listed = new WeakSet<Site>();
  private readonly windowSize: number;
  private readonly pageSize: number;

  constructor(
    private readonly client: () => Promise<SiteOps>,
    options: SiteReaderOptions = {},
  ) {
    this.windowSize = options.windowSize ?? LISTING_WINDOW;
    this.pageSize = options.pageSize ?? PAGE_SIZE;
  }

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

  /** The request whose answer `site` is: the listing, or the site's own GET. */
  endpointOf(site: Site): string {
    return this.listed.has(site) ? "GET /api/v1/sites" : `GET /api/v1/sites/${site.id}`;
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
    if (this.walk === "none" && this.reads > LISTING_THRESHOLD) {
      this.walk = "first page";
      void this.run(signal);
    }
    if (this.walk === "deferred" && this.reads >= this.pages) {
      this.walk = "walking";
      this.wake?.();
    }
    if ((this.walk !== "first page" && this.walk !== "walking") || this.dropped.has(id)) return undefined;
    return new Promise<Site | undefined>((resolve) => {
      const list = this.waiting.get(id);
      if (list) list.push(resolve);
      else this.waiting.set(id, [resolve]);
      this.wake?.();
    });
  }

  private async run(signal: AbortSignal): Promise<void> {
    try {
      const client = await this.client();
      const first: Page<Site> = await client.sites.list({ per_page: this.pageSize }, { signal });
      this.pages = first.totalPages ?? (first.totalCount !== undefined ? Math.ceil(first.totalCount / this.pageSize) : 0);
      let delivered = false;
      for await (const page of first.iterPages()) {
        if (!delivered) {
          for (const site of page.data) this.deliver(site);
          delivered = true;
          if (this.reads < this.pages) {
            // Not yet worth the walk: the reads waiting now, and the next ones, are GETs until it is.
            this.walk = "deferred";
            this.release();
          }
        } else for (const site of page.data) this.deliver(site);
        while (this.walk === "deferred" || (this.waiting.size === 0 && this.window.size >= this.pageSize)) {
          await new Promise<void>((resolve) => (this.wake = resolve));
        }
        this.wake = undefined;
        if (this.walk === "first page") this.walk = "walking";
      }
    } catch {
      // The listing failed (after the client's retries): every read falls back to its own GET, which
      // reports the failure with the site it concerns.
    } finally {
      this.walk = "done";
      this.release();
    }
  }

  /** Sends the waiting reads to their own GETs. */
  private release(): void {
    for (const list of this.waiting.values()) for (const resolve of list) resolve(undefined);
    this.waiting.clear();
  }

  private deliver(site: Site): void {
    this.listed.add(site);
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
