// A raw HTTP/2 client for the differential tests: writes frames exactly as built (malformed ones included)
// to the provider's server and reads back the frames it answers with, until GOAWAY, the end of the
// connection, or the answer to a PING sent last (which tells that every earlier frame was handled). And a
// gRPC call through node:http2 (nghttp2), for the tests that use it as a client.
import type http2 from "node:http2";
import { connect, createServer, type Server } from "node:net";
import hpack from "hpack.js";
import { createGrpcServer, GrpcError, GrpcStatus, type GrpcServer } from "../../../provider/protocol/grpc-server.js";
import { Http2Connection, LIMITS, type Limits } from "../../../provider/protocol/http2/connection.js";
import { frame as writeFrame } from "../../../provider/protocol/http2/frames.js";

export const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");
export const T = {
  DATA: 0,
  HEADERS: 1,
  PRIORITY: 2,
  RST_STREAM: 3,
  SETTINGS: 4,
  PUSH_PROMISE: 5,
  PING: 6,
  GOAWAY: 7,
  WINDOW_UPDATE: 8,
  CONTINUATION: 9,
} as const;
export const F = { END_STREAM: 1, ACK: 1, END_HEADERS: 4, PADDED: 8, PRIORITY: 0x20 } as const;
export const E = {
  NO_ERROR: 0,
  PROTOCOL_ERROR: 1,
  INTERNAL_ERROR: 2,
  FLOW_CONTROL_ERROR: 3,
  STREAM_CLOSED: 5,
  FRAME_SIZE_ERROR: 6,
  REFUSED_STREAM: 7,
  COMPRESSION_ERROR: 9,
  ENHANCE_YOUR_CALM: 11,
} as const;

interface Frame {
  type: number;
  flags: number;
  id: number;
  payload: Buffer;
}

/** A frame as given, malformed or not (the server's own writer: the header layout is not under test). */
export const frame = (type: number, flags: number, id: number, payload: Uint8Array = Buffer.alloc(0)): Buffer => writeFrame(type, flags, id, payload);

export const u32 = (...values: number[]) => Buffer.concat(values.map((v) => Buffer.from([v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255])));
export const settings = (...pairs: [number, number][]) =>
  frame(T.SETTINGS, 0, 0, Buffer.concat(pairs.map(([k, v]) => Buffer.concat([Buffer.from([k >> 8, k & 255]), u32(v)]))));
export const windowUpdate = (id: number, increment: number) => frame(T.WINDOW_UPDATE, 0, id, u32(increment));
export const grpcBody = (message: Buffer) => Buffer.concat([Buffer.from([0]), u32(message.length), message]);

/** A header block encoder (hpack.js), one per connection: its dynamic table follows the server's. */
export class Encoder {
  private readonly c = hpack.compressor.create({ table: { maxSize: 4096 } });
  block(headers: [string, string][], options: { huffman?: boolean; incremental?: boolean } = {}): Buffer {
    this.c.write(headers.map(([name, value]) => ({ name, value, huffman: options.huffman ?? true, incremental: options.incremental ?? true })));
    const parts: Buffer[] = [];
    for (let b = this.c.read(); b; b = this.c.read()) parts.push(b);
    return Buffer.concat(parts);
  }
}

export const request = (path = "/test.Echo/Echo", extra: [string, string][] = []): [string, string][] => [
  [":method", "POST"],
  [":scheme", "http"],
  [":path", path],
  [":authority", "localhost"],
  ["content-type", "application/grpc"],
  ["te", "trailers"],
  ...extra,
];

/** A server on a port-0 listener: the provider's gRPC server, or one connection type with small limits. */
export async function startServer(limits?: Partial<Limits>): Promise<{ port: number; close(): Promise<void> }> {
  let grpc: GrpcServer | undefined;
  const unary = {
    "/test.Echo/Echo": async (body: Buffer) => body,
    "/test.Echo/Fail": async (): Promise<Uint8Array> => {
      throw new GrpcError(GrpcStatus.INVALID_ARGUMENT, "no");
    },
    "/test.Echo/Slow": () => new Promise<Uint8Array>((resolve) => setTimeout(() => resolve(Buffer.from("late")), 2_000)),
  };
  let listener: Server;
  if (limits) {
    // The connection on its own, with a test's limits; gRPC framing as grpc-server.ts does it.
    const handlers = {
      kind: (path: string) => (path in unary ? ("unary" as const) : path === "/test.Echo/Idle" ? ("idle" as const) : undefined),
      unary: (path: string, body: Buffer) => Promise.resolve(unary[path as keyof typeof unary](body.subarray(5))),
    };
    listener = createServer((socket) => new Http2Connection(socket, handlers, { ...LIMITS, ...limits }));
  } else {
    grpc = await createGrpcServer({ unary, idle: ["/test.Echo/Idle"] });
    listener = createServer((socket) => grpc!.accept(socket));
  }
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  return {
    port: (listener.address() as { port: number }).port,
    async close() {
      grpc?.close();
      await new Promise((resolve) => listener.close(resolve));
    },
  };
}

export interface Exchange {
  frames: Frame[];
  /** The GOAWAY's error code, when the server sent one. */
  goaway?: number;
  /** RST_STREAM codes by stream. */
  resets: Map<number, number>;
  /** Whether the closing PING was answered: the connection still served after the frames. */
  alive: boolean;
}

/** Connects, writes the preface, a SETTINGS (unless `raw`), then `frames` and a PING; collects the answer. */
export function exchange(port: number, frames: Buffer[], options: { raw?: boolean; timeoutMs?: number } = {}): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const sentinel = Buffer.from("sentinel");
    const result: Exchange = { frames: [], resets: new Map(), alive: false };
    let buf = Buffer.alloc(0);
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(finish, options.timeoutMs ?? 5_000);
    socket.on("error", (err) => (result.frames.length || result.goaway !== undefined ? finish() : reject(err)));
    socket.on("close", finish);
    socket.on("data", (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      while (buf.length >= 9 && buf.length >= 9 + buf.readUIntBE(0, 3)) {
        const length = buf.readUIntBE(0, 3);
        const f: Frame = { type: buf[3]!, flags: buf[4]!, id: buf.readUInt32BE(5) & 0x7fffffff, payload: buf.subarray(9, 9 + length) };
        buf = buf.subarray(9 + length);
        result.frames.push(f);
        if (f.type === T.GOAWAY) result.goaway = f.payload.readUInt32BE(4);
        if (f.type === T.RST_STREAM) result.resets.set(f.id, f.payload.readUInt32BE(0));
        if (f.type === T.PING && f.flags & F.ACK && f.payload.equals(sentinel)) result.alive = true;
        if (f.type === T.GOAWAY || result.alive) return finish();
      }
    });
    const out = options.raw ? frames : [PREFACE, settings(), ...frames];
    socket.write(Buffer.concat([...out, frame(T.PING, 0, 0, sentinel)]));
  });
}

/** The body of the DATA frames and the header blocks the server sent on a stream. */
export function streamAnswer(x: Exchange, id: number): { data: Buffer; blocks: Buffer[] } {
  const on = x.frames.filter((f) => f.id === id);
  return {
    data: Buffer.concat(on.filter((f) => f.type === T.DATA).map((f) => f.payload)),
    blocks: on.filter((f) => f.type === T.HEADERS).map((f) => f.payload),
  };
}

export interface Reply {
  headers: http2.IncomingHttpHeaders;
  trailers: http2.IncomingHttpHeaders;
  /** The reply message, its gRPC framing taken off. */
  body: Buffer;
}

/** A unary gRPC call of `/test.Echo/<method>` through a node:http2 session. */
export function call(session: http2.ClientHttp2Session, method: string, message: Buffer, extra: http2.OutgoingHttpHeaders = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = session.request({ ":method": "POST", ":path": `/test.Echo/${method}`, "content-type": "application/grpc", te: "trailers", ...extra });
    let headers: http2.IncomingHttpHeaders = {};
    let trailers: http2.IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    req.on("response", (h) => (headers = h));
    req.on("trailers", (t) => (trailers = t));
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve({ headers, trailers, body: Buffer.concat(chunks).subarray(5) }));
    req.on("error", reject);
    req.end(grpcBody(message));
  });
}
