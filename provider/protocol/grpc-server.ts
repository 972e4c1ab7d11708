// A minimal gRPC server on node:http2: unary calls plus streams that stay open and idle (go-plugin's stdio
// and broker). A plugin needs nothing more, and loading a full gRPC library costs more start-up time than
// the rest of the provider together (Terraform starts the provider 3-5 times per command).
//
// Wire format (gRPC over HTTP/2): each message is framed as [compressed flag: 1 byte][length: 4 bytes BE]
// [bytes]; the reply is HEADERS (:status 200, content-type application/grpc), one DATA frame, then
// trailers with grpc-status/grpc-message.
import type http2 from "node:http2";
import type { Socket } from "node:net";
import { log } from "../framework/log.js";

export type UnaryHandler = (request: Buffer) => Promise<Uint8Array> | Uint8Array;

export const GrpcStatus = { OK: 0, CANCELLED: 1, INTERNAL: 13, UNIMPLEMENTED: 12, INVALID_ARGUMENT: 3 } as const;

export class GrpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export interface GrpcServerOptions {
  /** Mutual TLS: our key and certificate, and the only client certificate we accept (as its own CA). */
  tls?: { key: string; cert: string; clientCert: string };
  unary: Record<string, UnaryHandler>;
  /** Paths of streaming methods that are accepted and then left open with nothing to send. */
  idle: string[];
  /** Called when a unary call's reply has been fully sent (used to exit after Shutdown). */
  onReplied?: (path: string) => void;
}

export interface GrpcServer {
  /** Serves a connection accepted elsewhere (see plugin-server.ts: the socket listens before we load). */
  accept(socket: Socket): void;
  /** Ends idle streams and closes every session. */
  close(): void;
}

const GRPC_HEADERS = { ":status": 200, "content-type": "application/grpc" };

function frame(message: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(5 + message.length);
  out[0] = 0;
  out.writeUInt32BE(message.length, 1);
  out.set(message, 5);
  return out;
}

function unframe(body: Buffer): Buffer {
  if (body.length === 0) return body; // an empty message may be sent without a frame by some clients
  if (body.length < 5) throw new GrpcError(GrpcStatus.INTERNAL, "truncated gRPC frame");
  if (body[0] !== 0) throw new GrpcError(GrpcStatus.UNIMPLEMENTED, "compressed messages are not supported");
  const n = body.readUInt32BE(1);
  if (body.length < 5 + n) throw new GrpcError(GrpcStatus.INTERNAL, "truncated gRPC message");
  return body.subarray(5, 5 + n);
}

function fail(stream: http2.ServerHttp2Stream, code: number, message: string): void {
  if (stream.destroyed || stream.closed) return;
  const trailers = { "grpc-status": String(code), "grpc-message": encodeURIComponent(message) };
  if (stream.headersSent) stream.end();
  else stream.respond({ ...GRPC_HEADERS, ...trailers }, { endStream: true });
}

/** Loads node:http2 (a noticeable part of start-up, so only when called) and builds the server. */
export async function createGrpcServer(options: GrpcServerOptions): Promise<GrpcServer> {
  // getBuiltinModule (Node >= 20.16) skips the ESM loader that a dynamic import() would start.
  const http2 = process.getBuiltinModule?.("node:http2") ?? (await import("node:http2"));
  const server = options.tls
    ? http2.createSecureServer({
        key: options.tls.key,
        cert: options.tls.cert,
        ca: options.tls.clientCert,
        requestCert: true,
        rejectUnauthorized: true,
        ALPNProtocols: ["h2"],
      })
    : http2.createServer();
  const sessions = new Set<http2.ServerHttp2Session>();
  const idleStreams = new Set<http2.ServerHttp2Stream>();
  const idle = new Set(options.idle);

  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
    session.on("error", (err) => log.debug("http2 session error", { error: err.message }));
  });
  server.on("tlsClientError", (err) => log.warn("rejected a TLS client", { error: err.message }));

  server.on("stream", (stream, headers) => {
    stream.on("error", (err) => log.debug("http2 stream error", { error: err.message }));
    const path = String(headers[":path"] ?? "");
    const handler = options.unary[path];
    if (handler) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        Promise.resolve()
          .then(() => handler(unframe(Buffer.concat(chunks))))
          .then(
            (reply) => {
              if (stream.destroyed || stream.closed) return;
              stream.respond(GRPC_HEADERS, { waitForTrailers: true });
              stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
              if (options.onReplied) stream.on("close", () => options.onReplied!(path));
              stream.end(frame(reply));
            },
            (err: unknown) => fail(stream, err instanceof GrpcError ? err.code : GrpcStatus.INTERNAL, err instanceof Error ? err.message : String(err)),
          );
      });
      return;
    }
    if (idle.has(path)) {
      stream.respond(GRPC_HEADERS);
      idleStreams.add(stream);
      stream.on("data", () => {});
      stream.on("close", () => idleStreams.delete(stream));
      return;
    }
    fail(stream, GrpcStatus.UNIMPLEMENTED, `unknown method ${path}`);
  });

  return {
    accept(socket) {
      server.emit("connection", socket);
    },
    close() {
      for (const s of idleStreams) if (!s.destroyed) s.close(http2.constants.NGHTTP2_NO_ERROR);
      server.close();
      for (const s of sessions) s.close();
    },
  };
}
