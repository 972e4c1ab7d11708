// The client's HTTP stacks (`transport: "undici" | "node:http"`) behave alike on the wire: timeouts and where
// their clock starts, refused connections, aborts, request bodies of every kind (and a failing one), response
// headers and bodies, keep-alive reuse within `connections`, close(), TLS. Against the emulator and, for what
// it cannot produce on demand (a body that stalls, an oversized head), a scripted port-0 server.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createNetServer, type AddressInfo, type Socket } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import { Pool } from "undici";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  PayloadTooLargeError,
  SiteOps,
  SiteOpsError,
  type RequestLogEvent,
} from "../../src/index.js";
import { ROOT } from "../support/paths.js";
import { collect } from "../support/processes.js";
import { removeDir, tempDir } from "../support/temp.js";
import { startTestEmulator, TRANSPORTS, type TestEmulator } from "./helpers.js";
import { startScriptedServer, type ScriptedServer } from "./scripted-server.js";

const TOKEN = "sot_abcdefghijklmnopqrstuvwx";
const json = { "content-type": "application/json" };
const CLOSED = "This client was closed (close() or logout()); create a new one.";
const DIST = pathToFileURL(path.join(ROOT, "dist/src/index.js")).href;
/** Connections a run of sequential calls may use: undici's Pool opens a second one when the next request comes
 * before it has counted the previous one done; node:http's Agent reuses the one. */
const SEQUENTIAL_CONNECTIONS = { undici: 2, "node:http": 1 } as const;

/** Lets the event loop turn until `test()` holds. */
async function until(test: () => boolean): Promise<void> {
  for (let i = 0; i < 100_000 && !test(); i++) await new Promise((resolve) => setImmediate(resolve));
  if (!test()) throw new Error("condition never held");
}

describe("the transport option", () => {
  it("refuses an undici dispatcher with transport node:http, naming both", () => {
    const pool = new Pool("http://127.0.0.1:9");
    try {
      expect(() => new SiteOps({ baseUrl: "http://127.0.0.1:9", transport: "node:http", dispatcher: pool })).toThrow(SiteOpsError);
      expect(() => new SiteOps({ baseUrl: "http://127.0.0.1:9", transport: "node:http", dispatcher: pool })).toThrow(/`dispatcher`.*`transport: "node:http"`/);
      expect(() => new SiteOps({ baseUrl: "http://127.0.0.1:9", transport: "undici", dispatcher: pool })).not.toThrow();
      expect(() => new SiteOps({ baseUrl: "http://127.0.0.1:9", transport: "fetch" as "undici" })).toThrow(/Invalid transport: fetch/);
    } finally {
      void pool.close();
    }
  });

  it("with node:http, never evaluates undici (the unbundled build); with undici, loads it at the first request, not at close()", async () => {
    const server = await startScriptedServer();
    server.reply({ path: "/api/v1/me" }, { status: 200, body: { id: "usr_1", email: "a@b.test" }, headers: json }, { times: 2 });
    const script = `
      const { createRequire } = await import("node:module");
      const loaded = () => Object.keys(createRequire(process.cwd() + "/").cache).some((file) => file.includes("undici"));
      const { SiteOps } = await import(${JSON.stringify(DIST)});
      const out = {};
      for (const transport of ["node:http", "undici"]) {
        const unused = new SiteOps({ baseUrl: process.argv[1], apiToken: ${JSON.stringify(TOKEN)}, transport });
        await unused.close();
        const closedUnused = await unused.me().then(() => "sent", (err) => err.message);
        const so = new SiteOps({ baseUrl: process.argv[1], apiToken: ${JSON.stringify(TOKEN)}, transport });
        const beforeRequest = loaded();
        const me = await so.me();
        await so.close();
        out[transport] = { closedUnused, beforeRequest, afterRequest: loaded(), email: me.email };
      }
      console.log(JSON.stringify(out));`;
    try {
      const { code, stdout, stderr } = await collect(process.execPath, ["--input-type=module", "-e", script, server.url]);
      expect(code, stderr).toBe(0);
      expect(JSON.parse(stdout)).toEqual({
        "node:http": { closedUnused: CLOSED, beforeRequest: false, afterRequest: false, email: "a@b.test" },
        undici: { closedUnused: CLOSED, beforeRequest: false, afterRequest: true, email: "a@b.test" },
      });
    } finally {
      await server.close();
    }
  });
});

describe.each(TRANSPORTS)("over %s", (transport) => {
  let env: TestEmulator;
  let server: ScriptedServer;
  let so: SiteOps;
  let events: RequestLogEvent[];
  const client = (options: { connections?: number } = {}) =>
    new SiteOps({ baseUrl: server.url, apiToken: TOKEN, transport, maxRetries: 0, logger: (e) => events.push(e), ...options });

  beforeAll(async () => {
    env = await startTestEmulator({}, { transport });
  });
  afterAll(async () => env.close());
  beforeEach(async () => {
    server = await startScriptedServer();
    events = [];
    so = client();
  });
  afterEach(async () => {
    await so.close();
    await server.close();
    await env.control("DELETE", "faults");
  });

  describe("timeouts", () => {
    it("a gap in the response body longer than the timeout: APIConnectionTimeoutError, and the attempt counts as uncertain", async () => {
      server.raw({ path: "/api/v1/me" }, (res) => void res.writeHead(200, { ...json, "content-length": "100" }).write('{"email":'), { times: 2 });
      const err = await so.me({ timeout: 200, maxRetries: 1 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(APIConnectionTimeoutError);
      expect((err as Error).message).toBe("Request timed out after 200 ms.");
      expect(events.filter((e) => e.kind === "retry").map((e) => e.kind === "retry" && e.reason)).toEqual(["timeout"]);
      expect(server.requests).toHaveLength(2);
    });

    it("the clock starts once the request has a connection: a request queued behind another is not timed out by the wait", async () => {
      // One connection; each answer takes 0.9 s of a 1.5 s timeout, so the second request, sent 0.9 s after it
      // was made, completes only when its clock started as it was sent.
      const slow = (res: ServerResponse) => void setTimeout(() => res.writeHead(200, json).end('{"id":"usr_1","email":"a@b.test"}'), 900);
      server.raw({ path: "/api/v1/me" }, slow, { times: 2 });
      const one = client({ connections: 1 });
      try {
        const both = await Promise.all([one.me({ timeout: 1500 }), one.me({ timeout: 1500 })]);
        expect(both.map((m) => m.email)).toEqual(["a@b.test", "a@b.test"]);
        expect(server.connections()).toBe(1);
      } finally {
        await one.close();
      }
    });

    it("a slow head from the emulator times out, and the next call on the client succeeds", async () => {
      await env.control("POST", "faults", { rules: [{ method: "GET", path: "/api/v1/me", delay_ms: 2000, count: 1 }] });
      await expect(env.so.me({ timeout: 200, maxRetries: 0 })).rejects.toThrow("Request timed out after 200 ms.");
      await expect(env.so.me()).resolves.toMatchObject({ email: "owner@acme.test" });
    });
  });

  describe("failures without a response", () => {
    it("a refused connection: APIConnectionError with the code, never sent", async () => {
      await server.close();
      const err = await so.me().catch((e: unknown) => e);
      // Before any answer: a ServiceUnreachableError after one short retry (base-url-failures.test.ts).
      expect(err).toBeInstanceOf(APIConnectionError);
      expect(err).toMatchObject({ code: "SERVICE_UNREACHABLE", url: server.url });
      expect((err as Error).message).toMatch(/\(ECONNREFUSED\)/);
      server = await startScriptedServer(); // for afterEach
    });

    it("a reset before the answer: APIConnectionError, retried as a lost connection", async () => {
      server.raw({ path: "/api/v1/me" }, (res) => res.socket!.destroy());
      server.reply({ path: "/api/v1/me" }, { status: 200, body: { id: "usr_1", email: "a@b.test" }, headers: json });
      const retrying = new SiteOps({ baseUrl: server.url, apiToken: TOKEN, transport, logger: (e) => events.push(e) });
      try {
        await expect(retrying.me()).resolves.toMatchObject({ email: "a@b.test" });
      } finally {
        await retrying.close();
      }
      const retry = events.find((e) => e.kind === "retry");
      expect(retry?.kind === "retry" && retry.reason).toMatch(/^connection lost \(\w+\)$/);
    });

    it("a response head over MAX_HEADER_BYTES: APIConnectionError", async () => {
      server.reply({ path: "/api/v1/me" }, { status: 200, body: { id: "usr_1" }, headers: { ...json, "x-big": "x".repeat(20 * 1024) } });
      await expect(so.me()).rejects.toBeInstanceOf(APIConnectionError);
    });

    it("the caller's signal aborts a request whose body stalls: APIUserAbortError", async () => {
      server.raw({ path: "/api/v1/me" }, (res) => void res.writeHead(200, { ...json, "content-length": "100" }).write('{"email":'));
      const controller = new AbortController();
      const calling = so.me({ signal: controller.signal }).catch((e: unknown) => e);
      await until(() => server.requests.length === 1);
      controller.abort();
      expect(await calling).toBeInstanceOf(APIUserAbortError);
    });
    it("the caller's signal aborts a request still waiting for a connection at once, not when one frees", async () => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      server.raw({ path: "/api/v1/me" }, (res) => void released.then(() => res.writeHead(200, json).end('{"id":"usr_1","email":"a@b.test"}')), { times: 2 });
      const one = client({ connections: 1 });
      try {
        const first = one.me();
        await until(() => server.arrivals.length === 1);
        const controller = new AbortController();
        const queued = one.me({ signal: controller.signal }).catch((e: unknown) => e);
        controller.abort();
        expect(await queued).toBeInstanceOf(APIUserAbortError); // before the first is answered
        release();
        await expect(first).resolves.toMatchObject({ email: "a@b.test" });
        expect(server.arrivals).toHaveLength(1);
      } finally {
        release();
        await one.close();
      }
    });
  });

  describe("request bodies", () => {
    it("JSON, no body on a POST (content-length 0), a Readable and an async iterable of unknown length", async () => {
      server.reply({ path: "/api/v1/echo", method: "POST" }, { status: 201, body: {}, headers: json }, { times: 2 });
      server.reply({ path: "/api/v1/echo", method: "PUT" }, { status: 200, body: {}, headers: json }, { times: 2 });
      await so.post("/api/v1/echo", { name: "é" });
      await so.post("/api/v1/echo");
      await so.request({ method: "PUT", path: "/api/v1/echo", rawBody: () => Readable.from([Buffer.from("ab"), Buffer.from("cd")]) });
      await so.request({
        method: "PUT",
        path: "/api/v1/echo",
        rawBody: () =>
          (async function* () {
            for (let i = 0; i < 64; i++) yield Buffer.alloc(64 * 1024, i);
          })(),
      });
      const [jsonBody, empty, readable, iterable] = server.requests;
      expect([jsonBody.body, jsonBody.headers["content-length"], jsonBody.headers["content-type"]]).toEqual(['{"name":"é"}', "13", "application/json"]);
      expect([empty.body, empty.headers["content-length"]]).toEqual(["", "0"]);
      expect([readable.body, readable.headers["transfer-encoding"]]).toEqual(["abcd", "chunked"]);
      expect(iterable.body.length).toBe(64 * 64 * 1024);
      expect(server.connections()).toBeLessThanOrEqual(SEQUENTIAL_CONNECTIONS[transport]);
    });

    it("a failing body source fails the attempt with its error, and the connection that carried it is closed", async () => {
      server.reply({ path: "/api/v1/me" }, { status: 200, body: { id: "usr_1", email: "a@b.test" }, headers: json }, { times: 2 });
      await so.me();
      const err = await so
        .request({
          method: "PUT",
          path: "/api/v1/upload",
          rawBody: () =>
            (async function* () {
              yield Buffer.from("part of it");
              await until(() => server.arrivals.length === 2); // the request is on a connection
              throw new Error("disk gone");
            })(),
        })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(APIConnectionError);
      expect((err as Error).message).toMatch(/disk gone/);
      await until(() => server.arrivals[1].socket.destroyed);
      await expect(so.me()).resolves.toMatchObject({ email: "a@b.test" });
      expect(server.arrivals[2].socket).not.toBe(server.arrivals[1].socket);
    });

    it("an answer before the whole body was sent (a 413) ends the sending: the rest of the source is not read", async () => {
      // A server that answers at the request's head and reads no more of it, so the client's writes stall.
      const sockets: Socket[] = [];
      const early = createNetServer((socket) => {
        sockets.push(socket);
        socket.once("data", () => {
          socket.pause();
          socket.write('HTTP/1.1 413 Payload Too Large\r\ncontent-type: application/json\r\ncontent-length: 29\r\n\r\n{"error":"Payload too large"}');
        });
      });
      await new Promise<void>((resolve) => early.listen(0, "127.0.0.1", resolve));
      const upload = new SiteOps({ baseUrl: `http://127.0.0.1:${(early.address() as AddressInfo).port}`, apiToken: TOKEN, transport, maxRetries: 0 });
      const CHUNKS = 1024; // 64 MiB of 64 KiB
      let pulled = 0;
      try {
        const err = await upload
          .request({
            method: "PUT",
            path: "/api/v1/upload",
            headers: { "content-length": String(CHUNKS * 64 * 1024) },
            rawBody: () =>
              (async function* () {
                for (; pulled < CHUNKS; pulled++) yield Buffer.alloc(64 * 1024);
              })(),
          })
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(PayloadTooLargeError);
        await upload.close(); // does not wait for a body nobody reads
        expect(pulled).toBeLessThan(CHUNKS);
      } finally {
        for (const socket of sockets) socket.destroy();
        early.close();
      }
    });

    it("a SiteOpsError of the body source (a file shorter than announced) is the call's error", async () => {
      const shortFile = new SiteOpsError("Upload: data.bin is shorter than the 10 bytes announced.");
      const err = await so
        .request({
          method: "PUT",
          path: "/api/v1/upload",
          rawBody: () =>
            (async function* () {
              yield Buffer.from("12345");
              throw shortFile;
            })(),
          headers: { "content-length": "10" },
        })
        .catch((e: unknown) => e);
      expect(err).toBe(shortFile);
    });
  });

  describe("responses", () => {
    it("flattens repeated headers, reads a large body, and drains a 204 so its connection serves the next request", async () => {
      const sites = Array.from({ length: 5000 }, (_, i) => ({ id: `site_${String(i).padStart(16, "0")}`, name: `Site ${i} ✓` }));
      server.raw({ path: "/api/v1/sites" }, (res) => {
        res.setHeader("x-multi", ["a", "b"]);
        res.writeHead(200, json).end(JSON.stringify(sites));
      });
      server.reply({ path: "/api/v1/sites/site_1", method: "DELETE" }, { status: 204 });
      server.reply({ path: "/api/v1/me" }, { status: 200, body: "plain text", headers: { "content-type": "text/plain" } });
      const listed = await so.request<typeof sites>({ method: "GET", path: "/api/v1/sites" });
      expect(listed.headers["x-multi"]).toBe("a, b");
      expect(listed.data).toEqual(sites);
      await expect(so.delete("/api/v1/sites/site_1")).resolves.toBeUndefined();
      expect((await so.request({ method: "GET", path: "/api/v1/me" })).data).toBe("plain text");
      expect(server.connections()).toBeLessThanOrEqual(SEQUENTIAL_CONNECTIONS[transport]);
    });
  });

  describe("keep-alive connections", () => {
    it("sequential calls share one connection; concurrent ones open at most `connections`", async () => {
      server.reply({ path: "/api/v1/me" }, { status: 200, body: { id: "usr_1", email: "a@b.test" }, headers: json }, { times: 20 });
      for (let i = 0; i < 20; i++) await so.me();
      expect(server.connections()).toBeLessThanOrEqual(SEQUENTIAL_CONNECTIONS[transport]);

      const four = client({ connections: 4 });
      const later = (res: ServerResponse) => void setTimeout(() => res.writeHead(200, json).end('{"id":"usr_1","email":"a@b.test"}'), 5);
      server.raw({ path: "/api/v1/me" }, later, { times: 40 });
      try {
        const before = server.connections();
        await Promise.all(Array.from({ length: 40 }, () => four.me()));
        expect(server.connections() - before).toBeGreaterThan(0);
        expect(server.connections() - before).toBeLessThanOrEqual(4);
      } finally {
        await four.close();
      }
    });

    it("the emulator's faults reset a connection; the client opens another and goes on", async () => {
      await env.control("POST", "faults", { rules: [{ method: "GET", path: "/api/v1/me", reset_connection: true, count: 1 }] });
      await expect(env.so.me()).resolves.toMatchObject({ email: "owner@acme.test" });
    });
  });

  describe("close()", () => {
    it("of a client that never sent anything resolves (twice too); a call afterwards fails with 'This client was closed'", async () => {
      const unused = client();
      await unused.close();
      await unused.close();
      await expect(unused.me()).rejects.toThrow(new SiteOpsError(CLOSED));
    });

    it("waits for the request in flight, then later calls fail", async () => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      server.raw({ path: "/api/v1/me" }, (res) => void released.then(() => res.writeHead(200, json).end('{"id":"usr_1","email":"a@b.test"}')));
      const calling = so.me();
      await until(() => server.requests.length === 1);
      let closed = false;
      const closing = so.close().then(() => (closed = true));
      await new Promise((resolve) => setImmediate(resolve));
      expect(closed).toBe(false);
      release();
      await expect(calling).resolves.toMatchObject({ email: "a@b.test" });
      await closing;
      const err = await so.me().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SiteOpsError);
      expect(err).not.toBeInstanceOf(APIConnectionError);
      expect((err as Error).message).toBe(CLOSED);
    });
  });
});

/** The TLS tests make their certificate with the openssl command. */
const HAS_OPENSSL = spawnSync("openssl", ["version"]).status === 0;

describe.skipIf(!HAS_OPENSSL)("https", () => {
  let dir: string;
  let url: string;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    dir = tempDir("transport-tls");
    const [key, cert] = [path.join(dir, "key.pem"), path.join(dir, "cert.pem")];
    execFileSync("openssl", [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-keyout", key, "-out", cert],
      ...["-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
    ]);
    const server = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) =>
      res.writeHead(200, json).end('{"id":"usr_1","email":"tls@b.test"}'),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    };
  });
  afterAll(async () => {
    await close?.();
    removeDir(dir);
  });

  it.each(TRANSPORTS)("%s: a certificate not in the trust store is a connection error naming its code", async (transport) => {
    const so = new SiteOps({ baseUrl: url, apiToken: TOKEN, transport, maxRetries: 0 });
    try {
      const err = await so.me().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(APIConnectionError);
      expect((err as Error).message).toMatch(/^Connection error \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)\): /);
    } finally {
      await so.close();
    }
  });

  it("both trust a certificate added with NODE_EXTRA_CA_CERTS", async () => {
    const script = path.join(dir, "me.mjs");
    writeFileSync(
      script,
      `import { SiteOps } from ${JSON.stringify(DIST)};
      for (const transport of ["undici", "node:http"]) {
        const so = new SiteOps({ baseUrl: process.argv[2], apiToken: ${JSON.stringify(TOKEN)}, transport, maxRetries: 0 });
        console.log(transport, (await so.me()).email);
        await so.close();
      }`,
    );
    const { code, stdout, stderr } = await collect(process.execPath, [script, url], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: path.join(dir, "cert.pem") },
    });
    expect(code, stderr).toBe(0);
    expect(stdout).toBe("undici tls@b.test\nnode:http tls@b.test\n");
  });
});
