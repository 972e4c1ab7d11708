// Pagination of list endpoints: page/per_page, the Link and total headers, pages past the end,
// bad page values, the per_page ceiling, and ordering across pages.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, api, startTestEmulator, type ApiResponse } from "./helpers.js";

let emu: RunningEmulator;
const created: string[] = [];

beforeAll(async () => {
  emu = await startTestEmulator();
  for (let i = 1; i <= 25; i++) {
    const res = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: `Site ${i}`, url: `https://p${i}.example.com` } });
    created.push(res.body.id);
  }
});
afterAll(async () => {
  await emu.close();
});

/** rel -> {page, per_page} of the Link header. */
function links(header: string | null): Record<string, { page: string; per_page: string; url: URL }> {
  const out: Record<string, { page: string; per_page: string; url: URL }> = {};
  for (const part of (header ?? "").split(",")) {
    const m = /<([^>]+)>;\s*rel="([a-z]+)"/.exec(part.trim());
    if (!m) continue;
    const url = new URL(m[1]!);
    out[m[2]!] = { page: url.searchParams.get("page")!, per_page: url.searchParams.get("per_page")!, url };
  }
  return out;
}

describe("pagination", () => {
  it("serves 20 per page by default with the total headers and Link", async () => {
    const res = await api(emu, "GET", "/sites", { token: TOKENS.owner });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(20);
    expect(res.headers.get("current-page")).toBe("1");
    expect(res.headers.get("page-limit")).toBe("20");
    expect(res.headers.get("total-pages")).toBe("2");
    expect(res.headers.get("total-count")).toBe("25");
    const l = links(res.headers.get("link"));
    expect(Object.keys(l).sort()).toEqual(["first", "last", "next"]);
    expect(l.next).toMatchObject({ page: "2", per_page: "20" });
    expect(l.last).toMatchObject({ page: "2" });
    expect(l.next!.url.pathname).toBe("/api/v1/sites");
    expect(l.next!.url.origin).toBe(emu.url);
  });

  it("follows next links through every item exactly once, oldest first", async () => {
    const seen: string[] = [];
    let path: string | undefined = "/sites?per_page=7";
    let pages = 0;
    while (path) {
      const res: ApiResponse = await api(emu, "GET", path, { token: TOKENS.owner });
      seen.push(...res.body.map((s: any) => s.id));
      const next: { url: URL } | undefined = links(res.headers.get("link")).next;
      path = next ? `/sites${next.url.search}` : undefined;
      pages++;
    }
    expect(pages).toBe(4);
    expect(seen).toEqual(created);
  });

  it("has prev and last on later pages, and a short last page", async () => {
    const res = await api(emu, "GET", "/sites?page=2", { token: TOKENS.owner });
    expect(res.body).toHaveLength(5);
    const l = links(res.headers.get("link"));
    expect(Object.keys(l).sort()).toEqual(["first", "last", "prev"]);
    expect(l.prev).toMatchObject({ page: "1" });
    expect(l.first).toMatchObject({ page: "1" });
  });

  it("keeps other query parameters in the links", async () => {
    const res = await api(emu, "GET", "/activity_logs?action=site.created&per_page=10", { token: TOKENS.owner });
    expect(res.headers.get("total-count")).toBe("25");
    expect(links(res.headers.get("link")).next!.url.searchParams.get("action")).toBe("site.created");
  });

  it("answers 200 [] past the end, also for huge page numbers", async () => {
    for (const page of ["3", "1000000", "99999999999999999999999999"]) {
      const res = await api(emu, "GET", `/sites?page=${page}`, { token: TOKENS.owner });
      expect(res.status, page).toBe(200);
      expect(res.body).toEqual([]);
      expect(res.headers.get("total-count")).toBe("25");
    }
  });

  it("answers 400 for a page or per_page that is not a positive integer", async () => {
    for (const q of ["page=0", "page=-1", "page=abc", "page=1.5", "page=1e3", "per_page=0", "per_page=-5", "per_page=ten"]) {
      const res = await api(emu, "GET", `/sites?${q}`, { token: TOKENS.owner });
      expect(res.status, q).toBe(400);
      expect(res.body.error).toMatch(/must be a positive integer/);
    }
  });

  it("clamps per_page to 100", async () => {
    const res = await api(emu, "GET", "/activity_logs?per_page=1000", { token: TOKENS.owner });
    expect(res.status).toBe(200);
    expect(res.headers.get("page-limit")).toBe("100");
  });

  it("pages an empty list as one empty page", async () => {
    const res = await api(emu, "GET", "/sites", { token: TOKENS.ownerB });
    expect(res.body).toEqual([]);
    expect(res.headers.get("total-pages")).toBe("1");
    expect(res.headers.get("total-count")).toBe("0");
  });

  it("pages newest-first lists from the newest", async () => {
    const first = await api(emu, "GET", "/activity_logs?action=site.created&per_page=5", { token: TOKENS.owner });
    expect(first.body.map((e: any) => e.site_id)).toEqual(created.slice(-5).reverse());
    const last = await api(emu, "GET", "/activity_logs?action=site.created&per_page=5&page=5", { token: TOKENS.owner });
    expect(last.body.map((e: any) => e.site_id)).toEqual(created.slice(0, 5).reverse());
  });
});
