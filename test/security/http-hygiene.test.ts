// Issue 17 items 5 and 6: a malformed Host is a 400 (never a 500), a foreign Host is never reflected into
// pagination links, and every error raised below the routes (router, body parsers, Node's HTTP parser)
// leaves in the design's shape `{"error": "..."}` with its status and an X-Request-Id.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, startTestEmulator } from "../emulator/helpers.js";
import { expectErrorShape, send, sendJson, sendRaw } from "./helpers.js";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => emu?.close());

const auth = { authorization: `token ${TOKENS.owner}` };

describe("Host header", () => {
  it.each(["a b", "[", "x:99999999", "@", "exa mple.com:80", "host:port"])("Host %j is 400, not 500", async (host) => {
    const res = await send(emu.port, "GET", "/api/v1/sites", { headers: { ...auth, host } });
    expectErrorShape(res, 400);
    expect(res.body.error).toBe("Invalid Host header");
  });

  it("a missing Host (HTTP/1.1) is 400 in the error shape", async () => {
    const res = await sendRaw(emu.port, `GET /api/v1/sites HTTP/1.1\r\nAuthorization: token ${TOKENS.owner}\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Missing Host header" });
  });

  it("a foreign Host is not reflected into the Link header", async () => {
    const res = await send(emu.port, "GET", "/api/v1/sites?per_page=1", { headers: { ...auth, host: "evil.example" } });
    expect(res.status).toBe(200);
    expect(res.headers.link).not.toContain("evil.example");
    expect(res.headers.link).toContain(`<${emu.url}/api/v1/sites?`);
  });

  it("links use the configured public URL", async () => {
    const behindProxy = await startTestEmulator({ publicUrl: "https://siteops.internal.example/" });
    try {
      const res = await send(behindProxy.port, "GET", "/api/v1/sites", { headers: { ...auth, host: `127.0.0.1:${behindProxy.port}` } });
      expect(res.headers.link).toMatch(/^<https:\/\/siteops\.internal\.example\/api\/v1\/sites\?page=1&per_page=20>; rel="first"/);
    } finally {
      await behindProxy.close();
    }
  });
});

describe("router-level errors in the design's shape", () => {
  it("a malformed percent-encoding (FST_ERR_BAD_URL) is 400", async () => {
    const res = await send(emu.port, "GET", "/api/v1/sites/%E0%A4%A", { headers: auth });
    expectErrorShape(res, 400);
    expect(res.text).not.toContain("FST_");
  });

  it("an over-long path parameter (FST_ERR_MAX_PARAM_LENGTH) is 414", async () => {
    const res = await send(emu.port, "GET", `/api/v1/sites/${"a".repeat(300)}`, { headers: auth });
    expectErrorShape(res, 414);
    expect(res.text).not.toContain("FST_");
  });

  it("Content-Length: abc is 400", async () => {
    const res = await sendRaw(emu.port, `POST /api/v1/jwt HTTP/1.1\r\nHost: 127.0.0.1:${emu.port}\r\nContent-Length: abc\r\nConnection: close\r\n\r\n`);
    expectErrorShape(res, 400);
    expect(res.body.error).toBe("Invalid Content-Length header");
  });

  it("a request line Node cannot parse is 400", async () => {
    expectErrorShape(await sendRaw(emu.port, "GARBAGE\r\n\r\n"), 400);
  });

  it("oversized headers are 431", async () => {
    const res = await sendRaw(emu.port, `GET /api/v1/sites HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expectErrorShape(res, 431);
  });

  it("invalid JSON is 400, an unknown route 404, a wrong media type 415, a huge body 413", async () => {
    expectErrorShape(await send(emu.port, "POST", "/api/v1/jwt", { headers: { "content-type": "application/json" }, body: "{x" }), 400);
    expectErrorShape(await send(emu.port, "GET", "/api/v1/nothing-here", { headers: auth }), 404);
    expectErrorShape(await send(emu.port, "POST", "/api/v1/jwt", { headers: { "content-type": "text/xml" }, body: "<a/>" }), 415);
    const big = await sendJson(emu.port, "POST", "/api/v1/sites", { name: "x".repeat(2 * 1024 * 1024), url: "https://x.example" }, { token: TOKENS.owner });
    expectErrorShape(big, 413);
  });
});
