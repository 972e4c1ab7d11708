// Pages of a list endpoint and async iteration over all of them. The service pages with `?page=n`; the spec
// shows no page size and no pagination metadata, so a page is the last only when the server says so: it is
// empty, or `Link` has no rel="next", or `Total-Pages` says so, or it is shorter than a page size the server
// stated (`Page-Limit`). A `per_page` the client asked for proves nothing: a server may ignore it or cap it
// (docs/design.md, "What the toolkit assumes"). Iteration that cannot reach the end fails loudly.

import type { APIClient, APIResponse, QueryValue, RequestOptions } from "./request-types.js";
import { PaginationError, SiteOpsError } from "./errors.js";
import { checkList, type RecordShape } from "./response-shapes.js";

/** Stops iteration from ever running away on a server that keeps announcing a next page. */
export const DEFAULT_MAX_PAGES = 10_000;

/** Query parameters every list endpoint accepts. */
export interface PageParams {
  /** 1-based page number. Iteration starts here (default 1). */
  page?: number;
  /** Items per page asked for (the emulator defaults to 20, allows at most 100). A server may ignore or cap it:
   * iteration never takes a page shorter than this for the last one. */
  per_page?: number;
}

export interface ListOptions extends RequestOptions {
  /** Maximum number of pages iteration fetches before failing with PaginationError (never a silently short
   * result). Default DEFAULT_MAX_PAGES (10 000). */
  maxPages?: number;
}

export class Page<T> implements AsyncIterable<T> {
  /** The items of this page. */
  readonly data: T[];
  /** The page number of this page. */
  readonly page: number;
  /** Page size as the server stated it (`Page-Limit`), when it did; never the `per_page` asked for. */
  readonly perPage: number | undefined;
  /** `Total-Pages`, when the service sent it. */
  readonly totalPages: number | undefined;
  /** `Total-Count`, when the service sent it. */
  readonly totalCount: number | undefined;
  /** `X-Request-Id` of the response. */
  readonly requestId: string | undefined;
  /** The number of the next page, or null when this is the last one. */
  readonly nextPage: number | null;

  #client: APIClient;
  #path: string;
  #query: Record<string, QueryValue>;
  #options: ListOptions;
  #pagesFetched: number;
  #shape: RecordShape | undefined;
  /** The ids of this page's items, to tell a server that ignores `page` (it sends the same page again). */
  #signature: string;

  constructor(
    client: APIClient,
    path: string,
    query: Record<string, QueryValue>,
    options: ListOptions,
    response: APIResponse<T[]>,
    pagesFetched = 1,
    shape?: RecordShape,
  ) {
    this.#client = client;
    this.#path = path;
    this.#query = query;
    this.#options = options;
    this.#pagesFetched = pagesFetched;
    this.#shape = shape;
    const h = response.headers;
    const data: unknown = response.data;
    checkList(shape, data, { endpoint: `GET ${path}`, requestId: response.requestId });
    this.data = data as T[];
    this.#signature = signature(this.data);
    this.page = intHeader(h["current-page"]) ?? (typeof query.page === "number" ? query.page : 1);
    this.perPage = intHeader(h["page-limit"]);
    this.totalPages = intHeader(h["total-pages"]);
    this.totalCount = intHeader(h["total-count"]);
    this.requestId = response.requestId;
    this.nextPage = nextPageNumber(this.page, this.data.length, this.perPage, this.totalPages, h["link"]);
  }

  hasNextPage(): boolean {
    return this.nextPage !== null;
  }

  /** Fetches the page after this one. Throws when there is none. */
  async getNextPage(): Promise<Page<T>> {
    if (this.nextPage === null) throw new SiteOpsError("No next page; check hasNextPage() first.");
    const maxPages = this.#options.maxPages ?? DEFAULT_MAX_PAGES;
    if (this.#pagesFetched >= maxPages) {
      throw new PaginationError(
        `GET ${this.#path}: stopped after ${maxPages} pages and the server still announces more; nothing past page ${this.page} was read (raise maxPages to read further).`,
      );
    }
    const next = await fetchPage<T>(this.#client, this.#path, { ...this.#query, page: this.nextPage }, this.#options, this.#pagesFetched + 1, this.#shape);
    if (next.data.length > 0 && next.#signature !== "" && next.#signature === this.#signature) {
      throw new PaginationError(
        `GET ${this.#path}: page ${this.nextPage} holds the same items as page ${this.page}; the server does not seem to honour \`page\`, so the listing cannot be read whole.`,
      );
    }
    return next;
  }

  /** This page and every page after it. */
  async *iterPages(): AsyncGenerator<Page<T>, void, undefined> {
    let page: Page<T> = this;
    for (;;) {
      yield page;
      if (!page.hasNextPage()) return;
      page = await page.getNextPage();
    }
  }

  /** Every item from this page on, fetching further pages as needed. */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    return itemIterator(Promise.resolve(this));
  }
}

/**
 * What a list method returns: `await` it for one Page, or `for await` over it for every item of every page.
 * The first request is sent when it is first awaited or iterated.
 */
export class PagePromise<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  #load: () => Promise<Page<T>>;
  #promise: Promise<Page<T>> | undefined;

  constructor(load: () => Promise<Page<T>>) {
    this.#load = load;
  }

  #page(): Promise<Page<T>> {
    return (this.#promise ??= this.#load());
  }

  then<R1 = Page<T>, R2 = never>(
    onfulfilled?: ((value: Page<T>) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#page().then(onfulfilled, onrejected);
  }

  catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<Page<T> | R> {
    return this.#page().catch(onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<Page<T>> {
    return this.#page().finally(onfinally);
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return itemIterator(this.#page());
  }

  /** Collects every item of every page into one array. */
  async toArray(): Promise<T[]> {
    const all: T[] = [];
    for await (const item of this) all.push(item);
    return all;
  }
}

/**
 * Items of a page and the pages after it. A hand-written iterator rather than nested async generators:
 * `yield*` through two generators cost several promise hops per item, which showed over 10,000 items.
 */
function itemIterator<T>(first: Promise<Page<T>>): AsyncIterator<T> {
  let page: Page<T> | undefined;
  let index = 0;
  return {
    async next(): Promise<IteratorResult<T, undefined>> {
      page ??= await first;
      for (;;) {
        if (index < page.data.length) return { value: page.data[index++], done: false };
        if (!page.hasNextPage()) return { value: undefined, done: true };
        page = await page.getNextPage();
        index = 0;
      }
    },
  };
}

/** Requests one page. Used by the resources' list methods. */
async function fetchPage<T>(
  client: APIClient,
  path: string,
  query: Record<string, QueryValue>,
  options: ListOptions = {},
  pagesFetched = 1,
  shape?: RecordShape,
): Promise<Page<T>> {
  const { maxPages: _maxPages, ...requestOptions } = options;
  const response = await client.request<T[]>({ method: "GET", path, query, ...requestOptions });
  return new Page<T>(client, path, query, options, response, pagesFetched, shape);
}

/** Builds the PagePromise for a list endpoint; `shape` names the fields each item must have. */
export function list<T>(client: APIClient, path: string, query: object | undefined, options?: ListOptions, shape?: RecordShape): PagePromise<T> {
  const q = { ...(query ?? {}) } as Record<string, QueryValue>;
  return new PagePromise<T>(() => fetchPage<T>(client, path, q, options ?? {}, 1, shape));
}

/** The page's size and its first and last items' ids ("" when either has none: such pages are not compared). A
 * page that repeats the one before has the same; a real next page cannot, since ids are unique. */
function signature(items: readonly unknown[]): string {
  const idOf = (item: unknown) => (typeof item === "object" && item !== null ? (item as { id?: unknown }).id : undefined);
  const first = idOf(items[0]);
  const last = idOf(items[items.length - 1]);
  return typeof first === "string" && typeof last === "string" ? `${items.length}\n${first}\n${last}` : "";
}

/** Extracts the target of rel="next" from an RFC 8288 Link header. */
export function parseLinkHeader(header: string | undefined): Record<string, string> {
  const links: Record<string, string> = {};
  if (!header) return links;
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!match) continue;
    const rel = /;\s*rel\s*=\s*"?([^";]+)"?/i.exec(match[2]);
    if (!rel) continue;
    for (const name of rel[1].trim().split(/\s+/)) links[name.toLowerCase()] = match[1];
  }
  return links;
}

export function nextPageNumber(
  page: number,
  count: number,
  perPage: number | undefined,
  totalPages: number | undefined,
  link: string | undefined,
): number | null {
  // An empty page is always the end: it is what the service returns past the last page.
  if (count === 0) return null;
  if (link !== undefined) {
    const next = parseLinkHeader(link)["next"];
    if (next === undefined) return null;
    const n = Number(new URL(next, "http://link.invalid/").searchParams.get("page"));
    // A next link that does not move forward would loop: treat it as the end.
    return Number.isInteger(n) && n > page ? n : null;
  }
  if (totalPages !== undefined) return page < totalPages ? page + 1 : null;
  // Only a page size the server stated: one the client asked for may have been ignored or capped.
  if (perPage !== undefined && count < perPage) return null;
  return page + 1;
}

function intHeader(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}
