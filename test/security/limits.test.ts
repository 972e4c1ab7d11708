// Issue 26 findings 6, 7 and 9: a request body sent a byte at a time is cut off (408) once the request
// timeout passes; an account's webhook endpoints are capped; and two spellings of one URL (`%62log`, a
// host's trailing dot) are one site URL.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, api, startTestEmulator } from "../emulator/helpers.js";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ requestTimeout: 1 });
});
afterAll(async () => emu?.close());

/** A POST that declares 100,000 bytes and sends one every 200 ms; resolves with what the server answered when it closes. */
function drip(localAddress: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port: emu.port, host: "127.0.0.1", localAddress });
    let answer = "";
    let timer: NodeJS.Timeout | undefined;
    socket.on("connect", () => {
      socket.write(
        `POST /api/v1/sites HTTP/1.1\r\nHost: 127.0.0.1:${emu.port}\r\nAuthorization: token ${TOKENS.owner}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`,
      );
      timer = setInterval(() => socket.write(" "), 200);
    });
    socket.on("data", (c: Buffer) => (answer += c.toString()));
    socket.on("error", (err: NodeJS.ErrnoException) => (err.code === "ECONNRESET" || err.code === "EPIPE" ? undefined : reject(err)));
    socket.on("close", () => {
      clearInterval(timer);
      resolve(answer);
    });
  });
}

describe("slow request bodies", () => {
  it("50 connections dripping a body are all answered 408 and closed once the request timeout passes", async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => drip(`127.9.0.${i + 1}`)));
    for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  }, 15_000);
});

describe("webhook endpoints per account", () => {
  it("the 101st endpoint of an account is refused with the limit named", async () => {
    const existing = await api(emu, "GET", "/webhook_endpoints?per_page=100", { token: TOKENS.ownerB });
    const have = Array.isArray(existing.body) ? existing.body.length : existing.body.data.length;
    for (let i = have; i < 100; i++) {
      const res = await api(emu, "POST", "/webhook_endpoints", {
        token: TOKENS.ownerB,
        body: { url: `https://hooks.example/b${i}`, enabled_events: ["site.created"] },
      });
      expect(res.status).toBe(201);
    }
    const over = await api(emu, "POST", "/webhook_endpoints", {
      token: TOKENS.ownerB,
      body: { url: "https://hooks.example/over", enabled_events: ["site.created"] },
    });
    expect(over.status).toBe(422);
    expect(over.body.error).toBe("An account can have at most 100 webhook endpoints; delete one first");
  });
});

describe("site URL spellings", () => {
  it("a percent-encoded unreserved character and a host's trailing dot are the same URL", async () => {
    const first = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Uniq", url: "https://uniq.example/blog" } });
    expect(first.status).toBe(201);
    for (const url of ["https://uniq.example/%62log", "https://uniq.example./blog", "https://UNIQ.example.:443/%62%6C%6Fg/"]) {
      const res = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Uniq again", url } });
      expect({ url, status: res.status, errors: res.body.errors }).toEqual({ url, status: 422, errors: { url: ["has already been taken"] } });
    }
    // A reserved character stays encoded: `%2F` is not a path separator.
    expect((await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Other", url: "https://uniq.example/a%2Fb" } })).status).toBe(201);
  });
});
