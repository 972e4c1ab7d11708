// Pagination over a few hundred real records, plus the pure Link/next-page logic.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Page } from "../../src/index.js";
import { nextPageNumber, parseLinkHeader } from "../../src/pagination.js";
import { OTHER_TOKEN, startTestEmulator, TRANSPORTS, type TestEmulator } from "./helpers.js";

describe.each(TRANSPORTS)("over %s", (transport) => {
  let env: TestEmulator;

  beforeAll(async () => {
    env = await startTestEmulator({}, { transport });
    // 250 sites in the "Other" account (which starts with one).
    const so = env.client({ apiToken: OTHER_TOKEN });
    for (let i = 0; i < 249; i += 25) {
      await Promise.all(
        Array.from({ length: Math.min(25, 249 - i) }, (_, j) =>
          so.sites.create({ name: `bulk-${String(i + j).padStart(3, "0")}`, url: `https://bulk-${i + j}.other.test` }),
        ),
      );
    }
  });
  afterAll(async () => env.close());

  describe("pagination against the emulator", () => {
    it("iterates every one of 250 sites, in order, following the pages", async () => {
      const so = env.client({ apiToken: OTHER_TOKEN, logger: () => undefined });
      const events: string[] = [];
      const logged = env.client({ apiToken: OTHER_TOKEN, logger: (e) => e.kind === "response" && events.push(e.path) });
      const names: string[] = [];
      for await (const site of logged.sites.list()) names.push(site.name);
      expect(names).toHaveLength(250);
      expect(new Set(names).size).toBe(250);
      expect(names[0]).toBe("Private");
      expect(events).toHaveLength(13); // 20 per page: 12 full pages and one of 10
      expect(await so.sites.list({ per_page: 100 }).toArray()).toHaveLength(250);
    });

    it("awaits one page with its metadata", async () => {
      const so = env.client({ apiToken: OTHER_TOKEN });
      const page = await so.sites.list({ page: 2, per_page: 100 });
      expect(page).toBeInstanceOf(Page);
      expect(page.data).toHaveLength(100);
      expect(page).toMatchObject({ page: 2, perPage: 100, totalPages: 3, totalCount: 250, nextPage: 3 });
      const last = await page.getNextPage();
      expect(last.data).toHaveLength(50);
      expect(last.hasNextPage()).toBe(false);
      const beyond = await so.sites.list({ page: 99 });
      expect(beyond.data).toEqual([]);
      expect(beyond.hasNextPage()).toBe(false);
    });

    it("iterates pages from a given page on", async () => {
      const so = env.client({ apiToken: OTHER_TOKEN });
      const sizes: number[] = [];
      for await (const page of (await so.sites.list({ page: 2, per_page: 100 })).iterPages()) sizes.push(page.data.length);
      expect(sizes).toEqual([100, 50]);
    });
  });
});

describe("next page logic", () => {
  it("parses RFC 8288 Link headers", () => {
    const links = parseLinkHeader(
      '<https://x/api/v1/sites?page=1>; rel="first", <https://x/api/v1/sites?page=3&per_page=20>; rel="next", <https://x/a?page=9>; rel=last',
    );
    expect(links).toEqual({ first: "https://x/api/v1/sites?page=1", next: "https://x/api/v1/sites?page=3&per_page=20", last: "https://x/a?page=9" });
    expect(parseLinkHeader(undefined)).toEqual({});
  });

  it("prefers Link, then Total-Pages, then a short or empty page", () => {
    expect(nextPageNumber(2, 20, 20, 9, '<https://x/s?page=3>; rel="next"')).toBe(3);
    expect(nextPageNumber(9, 20, 20, 9, '<https://x/s?page=1>; rel="first"')).toBeNull();
    expect(nextPageNumber(2, 20, 20, 3, undefined)).toBe(3);
    expect(nextPageNumber(3, 20, 20, 3, undefined)).toBeNull();
    expect(nextPageNumber(1, 20, 20, undefined, undefined)).toBe(2);
    expect(nextPageNumber(1, 7, 20, undefined, undefined)).toBeNull();
    expect(nextPageNumber(1, 0, undefined, undefined, undefined)).toBeNull();
  });

  it("treats a next link that does not move forward as the end", () => {
    expect(nextPageNumber(4, 20, 20, undefined, '<https://x/s?page=4>; rel="next"')).toBeNull();
  });
});
