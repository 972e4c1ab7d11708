// The provider's own HTTP/2 + gRPC server against real clients: Node's http2 (nghttp2: Huffman-coded and
// indexed headers, CONTINUATION, flow control, PING, RST_STREAM) here; grpc-js in handshake.test.ts and
// Terraform's grpc-go in every end-to-end test.
import http2 from "node:http2";
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGrpcServer, GrpcError, GrpcStatus, type GrpcServer } from "../../provider/protocol/grpc-server.js";
import { HpackDecoder } from "../../provider/protocol/http2/hpack.js";
import { huffmanDecode } from "../../provider/protocol/http2/huffman.js";
import { call, grpcBody } from "./differential/h2-wire.js";

let listener: Server;
let grpc: GrpcServer;
let url: string;
const replied: string[] = [];
let release: (() => void) | undefined;

beforeAll(async () => {
  grpc = await createGrpcServer({
    unary: {
      "/test.Echo/Echo": (req) => req,
      "/test.Echo/Big": (req) => Buffer.alloc(Number(req.toString()), 0x61),
      "/test.Echo/Length": (req) => Buffer.from(String(req.length)),
      "/test.Echo/Fail": () => {
        throw new GrpcError(GrpcStatus.INVALID_ARGUMENT, "bad input: 100% wrong");
      },
      "/test.Echo/Slow": () => new Promise<Uint8Array>((resolve) => (release = () => resolve(Buffer.from("late")))),
    },
    idle: ["/test.Echo/Idle"],
    onReplied: (path) => replied.push(path),
  });
  listener = createServer((socket) => grpc.accept(socket));
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(listener.address() as { port: number }).port}`;
});
afterAll(async () => {
  grpc?.close();
  await new Promise((resolve) => listener?.close(resolve));
});

describe("HTTP/2 server", () => {
  it("answers many concurrent unary calls, each with its own reply", async () => {
    const session = http2.connect(url);
    const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => call(session, "Echo", Buffer.from(`message ${i}`))));
    replies.forEach((r, i) => {
      expect(r.headers[":status"]).toBe(200);
      expect(r.headers["content-type"]).toBe("application/grpc");
      expect(r.trailers["grpc-status"]).toBe("0");
      expect(r.body.toString()).toBe(`message ${i}`);
    });
    expect(replied.filter((p) => p === "/test.Echo/Echo")).toHaveLength(200);
    session.close();
  });

  it("keeps to the client's flow control windows for large replies, and reads large requests", async () => {
    const session = http2.connect(url); // Node's client: 64 KiB windows until it sends WINDOW_UPDATE
    const [big, other, length] = await Promise.all([
      call(session, "Big", Buffer.from(String(5 * 1024 * 1024))),
      call(session, "Big", Buffer.from(String(300_000))),
      call(session, "Length", Buffer.alloc(3 * 1024 * 1024, 7)),
    ]);
    expect(big.body.length).toBe(5 * 1024 * 1024);
    expect(big.body.every((b) => b === 0x61)).toBe(true);
    expect(other.body.length).toBe(300_000);
    expect(length.body.toString()).toBe(String(3 * 1024 * 1024));
    session.close();
  });

  it("decodes Huffman-coded, indexed and evicted headers, and header blocks split into CONTINUATION frames", async () => {
    const session = http2.connect(url);
    for (let i = 0; i < 50; i++) {
      // Long unique values fill the 4 KiB dynamic table and evict older entries; the path must still be right.
      const r = await call(session, i % 2 ? "Echo" : "Length", Buffer.from("x"), { "x-filler": `${i}-${"v".repeat(900)}`, "x-again": "same value" });
      expect(r.body.toString()).toBe(i % 2 ? "x" : "1");
    }
    const huge = await call(session, "Echo", Buffer.from("after a 40 KB header"), { "x-huge": "h".repeat(40_000) });
    expect(huge.body.toString()).toBe("after a 40 KB header");
    session.close();
  });

  it("reports failures as gRPC status and message, unknown methods as UNIMPLEMENTED", async () => {
    const session = http2.connect(url);
    const failed = await call(session, "Fail", Buffer.alloc(0));
    expect(failed.headers["grpc-status"] ?? failed.trailers["grpc-status"]).toBe(String(GrpcStatus.INVALID_ARGUMENT));
    expect(decodeURIComponent(String(failed.headers["grpc-message"]))).toBe("bad input: 100% wrong");
    const unknown = await call(session, "Nope", Buffer.alloc(0));
    expect(unknown.headers["grpc-status"]).toBe(String(GrpcStatus.UNIMPLEMENTED));
    session.close();
  });

  it("answers PING, forgets a call the client reset, and keeps serving", async () => {
    const session = http2.connect(url);
    await new Promise((resolve) => session.once("connect", resolve));
    await new Promise<void>((resolve, reject) => session.ping((err) => (err ? reject(err) : resolve())));
    const req = session.request({ ":method": "POST", ":path": "/test.Echo/Slow", "content-type": "application/grpc" });
    req.on("error", () => {});
    req.end(grpcBody(Buffer.alloc(0)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    req.close(http2.constants.NGHTTP2_CANCEL);
    await new Promise((resolve) => setTimeout(resolve, 50));
    release?.();
    expect((await call(session, "Echo", Buffer.from("still here"))).body.toString()).toBe("still here");
    expect(replied).not.toContain("/test.Echo/Slow");
    session.close();
  });

  it("leaves idle streams open with their headers sent, until the server closes", async () => {
    const session = http2.connect(url);
    const idle = session.request({ ":method": "POST", ":path": "/test.Echo/Idle", "content-type": "application/grpc" });
    const headers = await new Promise<http2.IncomingHttpHeaders>((resolve) => idle.on("response", resolve));
    expect(headers[":status"]).toBe(200);
    const ended = new Promise<void>((resolve) => idle.on("close", resolve));
    idle.on("error", () => {});
    idle.on("data", () => {});
    grpc.close();
    await ended;
    session.destroy();
  });
});

describe("HPACK", () => {
  it("decodes Huffman strings and rejects bad padding", () => {
    expect(huffmanDecode(Buffer.from("f1e3c2e5f23a6ba0ab90f4ff", "hex")).toString()).toBe("www.example.com");
    expect(() => huffmanDecode(Buffer.from("f1e3c2e5f23a6ba0ab90f400", "hex"))).toThrow();
  });

  it("applies dynamic table size updates and refuses one above the announced size", () => {
    const d = new HpackDecoder();
    // literal with incremental indexing, new name "a" = "b"; then a size update to 0 (empties the table)
    expect(d.decode(Buffer.from([0x40, 0x01, 0x61, 0x01, 0x62, 0xbe]))).toEqual([
      ["a", "b"],
      ["a", "b"],
    ]);
    expect(() => d.decode(Buffer.from([0x20, 0xbe]))).toThrow(/outside the tables/);
    expect(() => new HpackDecoder().decode(Buffer.from([0x3f, 0xe2, 0x1f]))).toThrow(/above the announced/);
  });
});
