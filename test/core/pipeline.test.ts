// Request pipeline cases a real server cannot produce on demand (proxy HTML errors, HTTP-date Retry-After,
// missing pagination headers, a server that never stops paging), from a scripted port-0 server, on each HTTP
// stack. Everything else runs against the emulator.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  BadRequestError,
  DEFAULT_MAX_RETRIES,
  InternalServerError,
  PaginationError,
  RateLimitError,
  SiteOps,
  SiteOpsError,
  UnexpectedResponseError,
  withResponse,
  type RequestLogEvent,
} from "../../src/index.js";
import { TRANSPORTS } from "./helpers.js";
import { startScriptedServer, type ScriptedServer } from "./scripted-server.js";

const TOKEN = "sot_abcdefghijklmnopqrstuvwx";
const json = { "content-type": "application/json" };
const site = (n: number) => ({
  id: `site_${String(n).padStart(16, "0")}`,
  name: `s${n}`,
  url: `https://s${n}.example.com`,
  status: "healthy",
  wp_version: "6.5",
  php_version: "8.2",
});

describe("a client", () => {
  it("needs a base URL", () => {
    const saved = process.env.SITEOPS_BASE_URL;
    delete process.env.SITEOPS_BASE_URL;
    try {
      expect(() => new SiteOps({ apiToken: TOKEN })).toThrow(SiteOpsError);
    } finally {
      if (saved !== undefined) process.env.SITEOPS_BASE_URL = saved;
    }
  });
});

describe.each(TRANSPORTS)("over %s", (transport) => {
  let server: ScriptedServer;
  let events: RequestLogEvent[];
  let so: SiteOps;

  beforeEach(async () => {
    server = await startScriptedServer();
    events = [];
    so = new SiteOps({ baseUrl: server.url, apiToken: TOKEN, transport, logger: (e) => events.push(e) });
  });
  afterEach(async () => {
    await so.close();
    await server.close();
  });

  describe("request pipeline", () => {
    it("sends the token scheme, JSON and a stable Idempotency-Key across retries of a POST", async () => {
      const reply = (status: number, body: object) => ({
        status,
        body,
        headers: { ...json, "retry-after-ms": "1", "x-request-id": `req_${server.requests.length}` },
      });
      server.reply({ path: "/api/v1/sites", method: "POST" }, reply(502, { error: "Bad gateway" }));
      server.reply({ path: "/api/v1/sites", method: "POST" }, reply(201, site(1)));
      const created = await so.sites.create({ name: "s1", url: "https://s1.example" });
      expect(created.id).toBe(site(1).id);
      const seen = server.requests.map((r) => r.headers);
      expect(seen).toHaveLength(2);
      expect(seen[0].authorization).toBe(`token ${TOKEN}`);
      expect(seen[0]["content-type"]).toBe("application/json");
      expect(seen[0]["idempotency-key"]).toMatch(/^siteops-/);
      expect(seen[1]["idempotency-key"]).toBe(seen[0]["idempotency-key"]);
      expect(JSON.parse(server.requests[0].body)).toEqual({ name: "s1", url: "https://s1.example" });
    });

    it("keys a PATCH too, with the same key on every attempt", async () => {
      for (const status of [503, 200]) {
        server.reply(
          { path: "/api/v1/sites/site_1", method: "PATCH" },
          { status, body: status === 200 ? site(1) : { error: "Service unavailable" }, headers: { ...json, "retry-after-ms": "1" } },
        );
      }
      await so.sites.update("site_1", { name: "s1" });
      const keys = server.requests.map((r) => r.headers["idempotency-key"]);
      expect(keys).toHaveLength(2);
      expect(keys[0]).toMatch(/^siteops-/);
      expect(keys[1]).toBe(keys[0]);
    });

    it("waits for RateLimit-Reset on a 429 without Retry-After", async () => {
      server.reply(
        { path: "/api/v1/me" },
        { status: 429, body: { error: "Rate limit exceeded" }, headers: { ...json, "ratelimit-remaining": "0", "ratelimit-reset": "1" } },
      );
      server.reply({ path: "/api/v1/me" }, { status: 200, body: { id: "usr_1" }, headers: json });
      await so.me();
      const retry = events.find((e) => e.kind === "retry");
      expect(retry?.kind === "retry" && retry.delayMs).toBeGreaterThanOrEqual(1000);
      expect(retry?.kind === "retry" && retry.delayMs).toBeLessThanOrEqual(1200);
    });

    it("gives a successful call's request id and headers through withResponse(), without a logger", async () => {
      server.reply({ path: "/api/v1/sites/site_1" }, { status: 200, body: site(1), headers: { ...json, "x-request-id": "req_one" } }, { times: 2 });
      const { data, status, requestId, headers } = await withResponse(so.sites.get("site_1"));
      expect([data.name, status, requestId, headers["content-type"]]).toEqual(["s1", 200, "req_one", "application/json"]);
      const direct = await so.get<{ name: string }>("/api/v1/sites/site_1").withResponse();
      expect(direct.requestId).toBe("req_one");
      await expect(withResponse(so.sites.list())).rejects.toThrow(/withResponse\(\) takes the promise/);
    });

    it("retries 408 and honours an HTTP-date Retry-After", async () => {
      // Three seconds ahead: an HTTP-date has whole seconds, and on a loaded machine the answer can come a second
      // after this line; a date one second ahead could then be in the past (no wait) and fail the test.
      const soon = new Date(Date.now() + 3000).toUTCString();
      server.reply({ path: "/api/v1/sites/site_1" }, { status: 408, body: { error: "Request timeout" }, headers: { ...json, "retry-after": soon } });
      server.reply({ path: "/api/v1/sites/site_1" }, { status: 200, body: site(1), headers: json });
      await expect(so.sites.get("site_1")).resolves.toMatchObject({ name: "s1" });
      const retry = events.find((e) => e.kind === "retry");
      expect(retry && retry.kind === "retry" && retry.delayMs).toBeGreaterThan(0);
      expect(retry && retry.kind === "retry" && retry.delayMs).toBeLessThanOrEqual(3600); // the date's seconds, plus up to 20 % jitter
    });

    it("never retries a 400 and reports the proxy's HTML 502 as a server error after the retries", async () => {
      server.reply(
        { path: "/api/v1/sites?page=0" },
        { status: 400, body: { error: "page must be a positive integer" }, headers: { ...json, "x-request-id": "req_bad" } },
      );
      const err = await so.sites.list({ page: 0 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(BadRequestError);
      expect((err as BadRequestError).requestId).toBe("req_bad");
      expect(events.filter((e) => e.kind === "response")).toHaveLength(1);

      server.reply(
        { path: "/api/v1/me" },
        { status: 502, body: "<html>Bad Gateway</html>", headers: { "content-type": "text/html", "retry-after-ms": "1" } },
        { times: DEFAULT_MAX_RETRIES + 1 },
      );
      const err2 = await so.me().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err2).toBeInstanceOf(InternalServerError);
      expect((err2 as InternalServerError).status).toBe(502);
      expect((err2 as InternalServerError).body).toBe("<html>Bad Gateway</html>");
    });

    it("does not sit out a Retry-After of an hour: fails at once with RateLimitError", async () => {
      server.reply(
        { path: "/api/v1/me" },
        { status: 429, body: { error: "Rate limit exceeded. Try again in 3600 seconds." }, headers: { ...json, "retry-after": "3600" } },
      );
      const err = await so.me().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RateLimitError);
      expect((err as RateLimitError).retryAfter).toBe(3600);
      expect(events.filter((e) => e.kind === "retry")).toHaveLength(0);
    });

    it("per-request maxRetries overrides the client's", async () => {
      server.reply({ path: "/api/v1/me" }, { status: 503, body: { error: "Service unavailable" }, headers: { ...json, "retry-after-ms": "1" } });
      await expect(so.me({ maxRetries: 0 })).rejects.toMatchObject({ status: 503 });
    });

    it("logs method, path, status, duration and request id with the token redacted", async () => {
      server.reply({ path: "/api/v1/me" }, { status: 200, body: { id: "usr_1" }, headers: { ...json, "x-request-id": "req_me" } });
      await so.me();
      // The response's event, not the first: the token's rate limiter is shared by every client of it in the
      // process, and after the 429 tests above it may log a rate_limit wait first (a timing flake before).
      const event = events.find((e) => e.kind === "response")!;
      expect(event).toMatchObject({ kind: "response", method: "GET", path: "/api/v1/me", status: 200, requestId: "req_me", attempt: 1 });
      expect(event.kind === "response" && event.requestHeaders.authorization).toBe("token [REDACTED]");
      expect(JSON.stringify(events)).not.toContain(TOKEN);
    });
  });

  describe("pagination: a page is the last only when the server says so", () => {
    const names = async (list: AsyncIterable<{ name: string }>) => {
      const out: string[] = [];
      for await (const item of list) out.push(item.name);
      return out;
    };

    it("(a) no headers, per_page ignored: a page shorter than the per_page asked for is not the end; an empty page is", async () => {
      server.reply({ path: "/api/v1/sites?per_page=100" }, { status: 200, body: [site(1), site(2)], headers: json });
      server.reply({ path: "/api/v1/sites?per_page=100&page=2" }, { status: 200, body: [site(3)], headers: json });
      server.reply({ path: "/api/v1/sites?per_page=100&page=3" }, { status: 200, body: [], headers: json });
      expect(await names(so.sites.list({ per_page: 100 }))).toEqual(["s1", "s2", "s3"]);
    });

    it("(b) per_page capped at 50 without headers: every one of 120 sites", async () => {
      const all = Array.from({ length: 120 }, (_, i) => site(i + 1));
      for (let p = 1; p <= 4; p++) {
        const path = p === 1 ? "/api/v1/sites?per_page=100" : `/api/v1/sites?per_page=100&page=${p}`;
        server.reply({ path }, { status: 200, body: all.slice((p - 1) * 50, p * 50), headers: json });
      }
      expect(await names(so.sites.list({ per_page: 100 }))).toHaveLength(120);
    });

    it("(c) only Link: its missing rel=next ends the listing, even after a short page", async () => {
      const link = (p: number, next: boolean) =>
        `<${server.url}/api/v1/sites?page=1>; rel="first"${next ? `, <${server.url}/api/v1/sites?page=${p + 1}>; rel="next"` : ""}`;
      server.reply({ path: "/api/v1/sites?per_page=100" }, { status: 200, body: [site(1)], headers: { ...json, link: link(1, true) } });
      server.reply({ path: "/api/v1/sites?per_page=100&page=2" }, { status: 200, body: [site(2)], headers: { ...json, link: link(2, false) } });
      expect(await names(so.sites.list({ per_page: 100 }))).toEqual(["s1", "s2"]);
    });

    it("(d) only Total-Pages: the listing ends on the last page it names", async () => {
      server.reply({ path: "/api/v1/sites?per_page=100" }, { status: 200, body: [site(1)], headers: { ...json, "total-pages": "2" } });
      server.reply({ path: "/api/v1/sites?per_page=100&page=2" }, { status: 200, body: [site(2)], headers: { ...json, "total-pages": "2" } });
      expect(await names(so.sites.list({ per_page: 100 }))).toEqual(["s1", "s2"]);
    });

    it("(e) headers that lie: a next page announced by Link that is empty ends the listing", async () => {
      const next = (p: number) => ({ ...json, link: `<${server.url}/api/v1/sites?page=${p + 1}>; rel="next"`, "total-pages": "9" });
      server.reply({ path: "/api/v1/sites?per_page=100" }, { status: 200, body: [site(1)], headers: next(1) });
      server.reply({ path: "/api/v1/sites?per_page=100&page=2" }, { status: 200, body: [], headers: next(2) });
      expect(await names(so.sites.list({ per_page: 100 }))).toEqual(["s1"]);
    });

    it("a page shorter than a Page-Limit the server stated is the last", async () => {
      server.reply({ path: "/api/v1/users" }, { status: 200, body: [site(1), site(2)], headers: { ...json, "page-limit": "3" } });
      const page = await so.users.list();
      expect(page.perPage).toBe(3);
      expect(page.hasNextPage()).toBe(false);
    });

    it("a page size asked for is not one stated: Page.perPage stays undefined", async () => {
      server.reply({ path: "/api/v1/users?per_page=2" }, { status: 200, body: [site(1)], headers: json });
      const page = await so.users.list({ per_page: 2 });
      expect(page.perPage).toBeUndefined();
      expect(page.nextPage).toBe(2);
    });

    it("gives up after maxPages on a server that always has a next page, with PaginationError", async () => {
      for (let p = 1; p <= 3; p++) {
        const path = p === 1 ? "/api/v1/accounts" : `/api/v1/accounts?page=${p}`;
        server.reply({ path }, { status: 200, body: [site(p)], headers: { ...json, link: `<${server.url}/api/v1/accounts?page=${p + 1}>; rel="next"` } });
      }
      const seen: string[] = [];
      const run = async () => {
        for await (const a of so.accounts.list({}, { maxPages: 3 })) seen.push(a.name);
      };
      const err = await run().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PaginationError);
      expect((err as Error).message).toBe(
        "GET /api/v1/accounts: stopped after 3 pages and the server still announces more; nothing past page 3 was read (raise maxPages to read further).",
      );
      expect(seen).toEqual(["s1", "s2", "s3"]);
    });

    it("a server that ignores page (the same items again) fails loudly instead of looping", async () => {
      server.reply({ path: "/api/v1/sites" }, { status: 200, body: [site(1), site(2)], headers: json });
      server.reply({ path: "/api/v1/sites?page=2" }, { status: 200, body: [site(1), site(2)], headers: json });
      const err = await so.sites
        .list()
        .toArray()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PaginationError);
      expect((err as Error).message).toMatch(/^GET \/api\/v1\/sites: page 2 holds the same items as page 1; the server does not seem to honour `page`/);
    });

    it("a list body that is not an array is an UnexpectedResponseError naming the endpoint, never an empty listing", async () => {
      server.reply({ path: "/api/v1/sites" }, { status: 200, body: { sites: [site(1)] }, headers: { ...json, "x-request-id": "req_wrap" } });
      const err = await so.sites
        .list()
        .toArray()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UnexpectedResponseError);
      expect((err as Error).message).toBe('GET /api/v1/sites: expected a JSON array of sites, got an object with "sites" [request req_wrap]');
    });

    it("an item without a field the toolkit needs names the item and the field", async () => {
      const { url: _url, ...noUrl } = site(2);
      server.reply({ path: "/api/v1/sites" }, { status: 200, body: [site(1), noUrl], headers: json });
      const err = await so.sites
        .list()
        .toArray()
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "UNEXPECTED_RESPONSE", endpoint: "GET /api/v1/sites", field: "[1].url" });
      expect((err as Error).message).toBe('GET /api/v1/sites: site [1] of the page has no "url" (expected a string)');
    });

    it("a record with a field of another type names it; extra fields pass through", async () => {
      server.reply({ path: "/api/v1/sites/site_1" }, { status: 200, body: { ...site(1), status: 3 }, headers: json });
      await expect(so.sites.get("site_1")).rejects.toThrow('GET /api/v1/sites/site_1: the site has "status" as a number (expected a string)');
      server.reply({ path: "/api/v1/sites/site_1" }, { status: 200, body: { ...site(1), tenant_region: "eu" }, headers: json });
      await expect(so.sites.get("site_1")).resolves.toMatchObject({ tenant_region: "eu" });
    });
  });

  describe("SITEOPS_DEBUG logger", () => {
    it("prints one redacted line per attempt", async () => {
      const { createDebugLogger } = await import("../../src/internal/logger.js");
      const lines: string[] = [];
      const debug = new SiteOps({ baseUrl: server.url, apiToken: TOKEN, transport, logger: createDebugLogger((l) => lines.push(l)) });
      server.reply({ path: "/api/v1/me" }, { status: 503, body: { error: "Service unavailable" }, headers: { ...json, "retry-after-ms": "1" } });
      server.reply({ path: "/api/v1/me" }, { status: 200, body: { id: "usr_1" }, headers: { ...json, "x-request-id": "req_dbg" } });
      try {
        await debug.me();
      } finally {
        await debug.close();
      }
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(/^siteops: GET \/api\/v1\/me 503 [\d.]+ ms /);
      expect(lines[1]).toBe("siteops: GET /api/v1/me: 503 response; retry 1 in 1 ms");
      expect(lines[2]).toMatch(/^siteops: GET \/api\/v1\/me 200 [\d.]+ ms req_dbg /);
      expect(lines.join("\n")).toContain('"authorization":"token [REDACTED]"');
      expect(lines.join("\n")).not.toContain(TOKEN);
    });
  });
});
