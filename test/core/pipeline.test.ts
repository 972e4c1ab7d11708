// Request pipeline cases a real server cannot produce on demand (proxy HTML errors, HTTP-date Retry-After,
// missing pagination headers, a server that never stops paging), from a scripted port-0 server, on each HTTP
// stack. Everything else runs against the emulator.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  BadRequestError,
  DEFAULT_MAX_RETRIES,
  InternalServerError,
  RateLimitError,
  SiteOps,
  SiteOpsError,
  withResponse,
  type RequestLogEvent,
} from "../../src/index.js";
import { TRANSPORTS } from "./helpers.js";
import { startScriptedServer, type ScriptedServer } from "./scripted-server.js";

const TOKEN = "sot_abcdefghijklmnopqrstuvwx";
const json = { "content-type": "application/json" };
const site = (n: number) => ({ id: `site_${String(n).padStart(16, "0")}`, name: `s${n}` });

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
      const soon = new Date(Date.now() + 1000).toUTCString();
      server.reply({ path: "/api/v1/sites/site_1" }, { status: 408, body: { error: "Request timeout" }, headers: { ...json, "retry-after": soon } });
      server.reply({ path: "/api/v1/sites/site_1" }, { status: 200, body: site(1), headers: json });
      await expect(so.sites.get("site_1")).resolves.toMatchObject({ name: "s1" });
      const retry = events.find((e) => e.kind === "retry");
      expect(retry && retry.kind === "retry" && retry.delayMs).toBeGreaterThan(0);
      expect(retry && retry.kind === "retry" && retry.delayMs).toBeLessThanOrEqual(1200); // the date's second, plus jitter
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
      const [event] = events;
      expect(event).toMatchObject({ kind: "response", method: "GET", path: "/api/v1/me", status: 200, requestId: "req_me", attempt: 1 });
      expect(event.kind === "response" && event.requestHeaders.authorization).toBe("token [REDACTED]");
      expect(JSON.stringify(events)).not.toContain(TOKEN);
    });
  });

  describe("pagination without headers", () => {
    it("stops at a short page when Link and Total-Pages are missing", async () => {
      server.reply({ path: "/api/v1/sites?per_page=2" }, { status: 200, body: [site(1), site(2)], headers: json });
      server.reply({ path: "/api/v1/sites?per_page=2&page=2" }, { status: 200, body: [site(3)], headers: json });
      const ids = (await so.sites.list({ per_page: 2 }).toArray()).map((s) => s.name);
      expect(ids).toEqual(["s1", "s2", "s3"]);
    });

    it("stops at an empty page when the page size is unknown", async () => {
      server.reply({ path: "/api/v1/users" }, { status: 200, body: [site(1)], headers: json });
      server.reply({ path: "/api/v1/users?page=2" }, { status: 200, body: [site(2)], headers: json });
      server.reply({ path: "/api/v1/users?page=3" }, { status: 200, body: [], headers: json });
      const names: string[] = [];
      for await (const u of so.users.list()) names.push((u as unknown as { name: string }).name);
      expect(names).toEqual(["s1", "s2"]);
    });

    it("gives up after maxPages on a server that always has a next page", async () => {
      for (let p = 1; p <= 3; p++) {
        const path = p === 1 ? "/api/v1/accounts" : `/api/v1/accounts?page=${p}`;
        server.reply({ path }, { status: 200, body: [site(p)], headers: { ...json, link: `<${server.url}/api/v1/accounts?page=${p + 1}>; rel="next"` } });
      }
      const seen: string[] = [];
      const run = async () => {
        for await (const a of so.accounts.list({}, { maxPages: 3 })) seen.push(a.name);
      };
      await expect(run()).rejects.toThrow("Pagination stopped after 3 pages");
      expect(seen).toEqual(["s1", "s2", "s3"]);
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
