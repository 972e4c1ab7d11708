// The site reader against the emulator: small refreshes are GETs, large ones stream the listing (one
// request per 100 sites) while holding a bounded window, and drift still shows (404s, fresh values).
import { setMaxListeners } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { startSeededEmulator } from "../support/emulator.js";
import { NotFoundError, SiteOps, type RequestLogEvent, type Site } from "../../src/index.js";
import { LISTING_THRESHOLD, SiteReader, type SiteReaderOptions } from "../../provider/resources/site-reader.js";
import { OWNER_TOKEN, defaultSeed } from "./harness.js";

const COUNT = 450;
let emulator: RunningEmulator;
let ids: string[];
beforeAll(async () => {
  const sites = Array.from({ length: COUNT }, (_, i) => ({ name: `s${i}`, url: `https://s${i}.reader.test` }));
  emulator = await startSeededEmulator(defaultSeed(sites), { db: ":memory:" });
  const so = new SiteOps({ baseUrl: emulator.url, apiToken: OWNER_TOKEN });
  ids = (await so.sites.list({ per_page: 100 }).toArray()).map((s) => s.id);
  await so.close();
});
afterAll(async () => {
  await emulator?.close();
});

function reader(options: SiteReaderOptions = {}): { reader: SiteReader; requests: string[]; close(): Promise<void> } {
  const requests: string[] = [];
  const so = new SiteOps({
    baseUrl: emulator.url,
    apiToken: OWNER_TOKEN,
    logger: (e: RequestLogEvent) => e.kind === "response" && requests.push(`${e.method} ${e.path}`),
  });
  return { reader: new SiteReader(async () => so, options), requests, close: () => so.close() };
}

/** Reads `order` with `parallel` reads in flight, as Terraform's walk does. */
async function readAll(r: SiteReader, order: string[], parallel = 10): Promise<Map<string, Site | Error>> {
  const out = new Map<string, Site | Error>();
  // One signal for every read, as the provider's stop signal is (which carries no listener limit either).
  const signal = new AbortController().signal;
  setMaxListeners(0, signal);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < order.length) {
        const id = order[next++]!;
        out.set(id, await r.get(id, signal).catch((err: Error) => err));
      }
    }),
  );
  return out;
}

describe("SiteReader", () => {
  it("a small refresh is plain GETs", async () => {
    const { reader: r, requests, close } = reader();
    const got = await readAll(r, ids.slice(0, LISTING_THRESHOLD));
    expect([...got.values()].every((s) => !(s instanceof Error))).toBe(true);
    expect(requests).toHaveLength(LISTING_THRESHOLD);
    expect(requests.every((q) => q.startsWith("GET /api/v1/sites/site_"))).toBe(true);
    await close();
  });

  it("a large refresh in creation order walks the listing once: 1/100th of the requests", async () => {
    const { reader: r, requests, close } = reader();
    const got = await readAll(r, ids);
    for (const id of ids) expect((got.get(id) as Site).id).toBe(id);
    const pages = requests.filter((q) => q.includes("?"));
    expect(requests.length - pages.length).toBe(LISTING_THRESHOLD); // the GETs before the walk started
    expect(pages).toHaveLength(Math.ceil(COUNT / 100));
    await close();
  });

  it("any order is answered correctly; a deleted site is a 404 and an edit shows", async () => {
    const { reader: r, close } = reader();
    const so = new SiteOps({ baseUrl: emulator.url, apiToken: OWNER_TOKEN });
    const [gone, edited] = [ids[300]!, ids[301]!];
    const created = await so.sites.create({ name: "late", url: "https://late.reader.test" });
    await so.sites.delete(gone);
    await so.sites.update(edited, { name: "edited" });
    const order = [...ids].reverse().concat(created.id);
    const got = await readAll(r, order, 25);
    expect(got.get(gone)).toBeInstanceOf(NotFoundError);
    expect((got.get(edited) as Site).name).toBe("edited");
    expect((got.get(created.id) as Site).name).toBe("late");
    expect(order.filter((id) => id !== gone).every((id) => (got.get(id) as Site).id === id)).toBe(true);
    await so.close();
    await close();
  });

  it("walks only once the reads are as many as the listing's pages (a small part of a large account stays on GETs)", async () => {
    // 10 sites a page: the account's ~490 sites are 49 pages, more than the 40 sites this configuration reads.
    const { reader: r, requests, close } = reader({ pageSize: 10 });
    const so = new SiteOps({ baseUrl: emulator.url, apiToken: OWNER_TOKEN });
    const managed: string[] = [];
    for (let i = 0; i < 40; i++) managed.push((await so.sites.create({ name: `late ${i}`, url: `https://managed-${i}.reader.test` })).id);
    const got = await readAll(r, managed);
    expect(managed.every((id) => (got.get(id) as Site).id === id)).toBe(true);
    expect(requests.filter((q) => q.includes("?"))).toHaveLength(1); // the first page, which told the size
    expect(requests.filter((q) => !q.includes("?"))).toHaveLength(40);
    // Reads in any order past that point walk the listing: 490 sites in 49 pages and a few GETs.
    const { reader: r2, requests: requests2, close: close2 } = reader({ pageSize: 10 });
    const all = [...ids, ...managed].sort(() => Math.random() - 0.5);
    const got2 = await readAll(r2, all);
    expect(all.filter((id) => !(got2.get(id) instanceof Error)).every((id) => (got2.get(id) as Site).id === id)).toBe(true);
    expect(requests2.length).toBeLessThan(2 * 49 + LISTING_THRESHOLD);
    await Promise.all([so.close(), close(), close2()]);
  });

  it("holds at most its window of listed sites, whatever the order; the dropped ones are fetched by GET", async () => {
    const { reader: r, requests, close } = reader({ windowSize: 50 });
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, r.held)), 1);
    const order = [...ids.slice(0, 30), ...ids.slice(30).reverse()];
    const got = await readAll(r, order);
    clearInterval(watch);
    const failed = order.filter((id) => !((got.get(id) as Site).id === id));
    expect(failed).toEqual([ids[300]]); // deleted in the test above: a 404
    expect(most).toBeLessThanOrEqual(50);
    expect(r.held).toBeLessThanOrEqual(50);
    expect(requests.length).toBeGreaterThan(LISTING_THRESHOLD + Math.ceil(COUNT / 100));
    await close();
  });
});
