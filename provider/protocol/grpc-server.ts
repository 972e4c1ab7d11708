// A minimal gRPC server: unary calls plus streams that stay open and idle (go-plugin's stdio and broker).
// A plugin needs nothing more. It runs on our own HTTP/2 connection code (http2/connection.ts) over
// node:tls: loading a full gRPC library costs more start-up time than the rest of the provider together
// (Terraform starts the provider 3-5 times per command), and node:http2's per-stream machinery cost more
// CPU per RPC than everything the provider does with the request.
//
// Wire format (gRPC over HTTP/2): each message is framed as [compressed flag: 1 byte][length: 4 bytes BE]
// [bytes]; the reply is HEADERS (:status 200, content-type application/grpc), DATA, then trailers with
// grpc-status (and grpc-message on failure).
import type { Socket } from "node:net";
import type { TLSSocket } from "node:tls";
import { log } from "../log.js";
import { Http2Connection, type GrpcFailure } from "./http2/connection.js";

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
  /** Mutual TLS: our key and certificate, and the only client certificate we accept. */
  tls?: { key: string; cert: string; clientCert: string };
  unary: Record<string, UnaryHandler>;
  /** Paths of streaming methods that are accepted and then left open with nothing to send. */
  idle: string[];
  /** Called when a unary call's reply has been fully handed to the socket (used to exit after Shutdown). */
  onReplied?: (path: string) => void;
}

export interface GrpcServer {
  /** Serves a connection accepted elsewhere (see plugin-server.ts: the socket listens before we load). */
  accept(socket: Socket): void;
  /** Ends idle streams and closes every connection. */
  close(): void;
}

function unframe(body: Buffer): Buffer {
  if (body.length === 0) return body; // an empty message may be sent without a frame by some clients
  if (body.length < 5) throw new GrpcError(GrpcStatus.INTERNAL, "truncated gRPC frame");
  if (body[0] !== 0) throw new GrpcError(GrpcStatus.UNIMPLEMENTED, "compressed messages are not supported");
  const n = body.readUInt32BE(1);
  if (body.length < 5 + n) throw new GrpcError(GrpcStatus.INTERNAL, "truncated gRPC message");
  return body.subarray(5, 5 + n);
}

/** The DER bytes of the first certificate in a PEM text. */
function pemToDer(pem: string): Buffer {
  const body = /-----BEGIN CERTIFICATE-----([^-]+)-----END CERTIFICATE-----/.exec(pem)?.[1];
  if (!body) throw new Error("PLUGIN_CLIENT_CERT holds no PEM certificate");
  return Buffer.from(body.replace(/\s+/g, ""), "base64");
}

function failure(err: unknown): GrpcFailure {
  return { grpcStatus: err instanceof GrpcError ? err.code : GrpcStatus.INTERNAL, message: err instanceof Error ? err.message : String(err) };
}

/** Builds the server; node:tls is loaded only when called (it is a noticeable part of start-up). */
export async function createGrpcServer(options: GrpcServerOptions): Promise<GrpcServer> {
  const connections = new Set<Http2Connection>();
  const idle = new Set(options.idle);
  const handlers = {
    kind: (path: string) => (options.unary[path] ? ("unary" as const) : idle.has(path) ? ("idle" as const) : undefined),
    unary: async (path: string, body: Buffer) => {
      try {
        return await options.unary[path]!(unframe(body));
      } catch (err) {
        throw failure(err);
      }
    },
    onReplied: options.onReplied,
    onError: (message: string) => log.debug("gRPC connection error", { error: message }),
  };
  const serve = (socket: TLSSocket | Socket) => {
    const c = new Http2Connection(socket, handlers);
    connections.add(c);
    socket.on("close", () => connections.delete(c));
  };

  let accept: (socket: Socket) => void = serve;
  if (options.tls) {
    // getBuiltinModule (Node >= 20.16) skips the ESM loader that a dynamic import() would start.
    const tls = process.getBuiltinModule?.("node:tls") ?? (await import("node:tls"));
    // Mutual TLS pinned to the one client certificate go-plugin announced: the server asks for a client
    // certificate and serves a connection only when it is exactly that one. `ca: []` keeps Node from
    // building its store of root certificates for the context, CPU at every start (BENCHMARKS.md, provider
    // start-up) for certificates this server never uses.
    const expected = pemToDer(options.tls.clientCert);
    const server = tls.createServer({
      key: options.tls.key,
      cert: options.tls.cert,
      ca: [],
      requestCert: true,
      rejectUnauthorized: false,
      ALPNProtocols: ["h2"],
    });
    server.on("secureConnection", (socket: TLSSocket) => {
      const peer = socket.getPeerX509Certificate();
      if (!peer || !peer.raw.equals(expected)) {
        log.warn("rejected a TLS client", { error: peer ? "not the client certificate Terraform announced" : "no client certificate" });
        socket.destroy();
        return;
      }
      serve(socket);
    });
    server.on("tlsClientError", (err) => log.warn("rejected a TLS client", { error: err.message }));
    accept = (socket) => server.emit("connection", socket);
  }
  return {
    accept,
    close() {
      for (const c of connections) c.close();
    },
  };
}
