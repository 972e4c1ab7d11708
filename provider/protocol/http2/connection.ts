// One HTTP/2 connection (RFC 9113) of the provider's gRPC server, on the TLS socket Terraform opened: the
// frames a gRPC server meets, flow control both ways, and unary replies written as one buffer each
// (response headers, the message, trailers). node:http2 builds a Duplex stream, header objects and three
// separate writes per call, which measured as most of the provider's CPU per RPC (BENCHMARKS.md).
import type { Duplex } from "node:stream";
import {
  ACK,
  CONTINUATION,
  DATA,
  END_HEADERS,
  END_STREAM,
  GOAWAY,
  H2Error,
  HEADERS,
  PING,
  PREFACE,
  PRIORITY,
  PUSH_PROMISE,
  RST_STREAM,
  SETTINGS,
  WINDOW_UPDATE,
  frame,
  goaway,
  rstStream,
  trailersOnly,
  unpad,
  windowUpdate,
} from "./frames.js";
import { GRPC_RESPONSE_HEADERS, HpackDecoder, literalField } from "./hpack.js";

/** Largest frame payload we accept: the protocol's default, which we do not raise. */
const MAX_FRAME = 16_384;
/** Receive window per stream and for the connection: large, so a client rarely waits for WINDOW_UPDATE. */
const RECEIVE_WINDOW = 1 << 24;
const DEFAULT_WINDOW = 65_535;
const OK_TRAILERS = literalField("grpc-status", "0");

export interface StreamHandlers {
  /** What a new stream on `path` is: "unary" (one request message, one reply), "idle" (accepted, then
   * left open with nothing sent), or undefined (answered UNIMPLEMENTED). */
  kind(path: string): "unary" | "idle" | undefined;
  /** A whole unary request body (gRPC-framed); resolves with the reply message or rejects with a GrpcFailure. */
  unary(path: string, body: Buffer): Promise<Uint8Array>;
  /** A unary reply has been handed to the socket in full. */
  onReplied?(path: string): void;
  onError?(message: string): void;
}

export interface GrpcFailure {
  grpcStatus: number;
  message: string;
}

interface Stream {
  id: number;
  path: string;
  kind: "unary" | "idle";
  chunks: Buffer[];
  received: number;
  ended: boolean;
  reset: boolean;
  sendWindow: number;
  /** DATA not yet sent for want of window, then the trailers frame. */
  pending?: { data: Buffer; trailers: Buffer };
}

export class Http2Connection {
  private buf: Buffer | undefined;
  private prefaceSeen = false;
  private readonly hpack = new HpackDecoder();
  private readonly streams = new Map<number, Stream>();
  private lastStreamId = 0;
  private continuing: { id: number; flags: number; parts: Buffer[] } | undefined;
  private sendWindow = DEFAULT_WINDOW;
  private peerInitialWindow = DEFAULT_WINDOW;
  private peerMaxFrame = MAX_FRAME;
  private unacknowledged = 0;
  private closed = false;
  private corked = false;

  constructor(
    private readonly socket: Duplex,
    private readonly handlers: StreamHandlers,
  ) {
    // Our SETTINGS (initial window), and the connection window raised to match.
    const settings = Buffer.alloc(6);
    settings.writeUInt16BE(0x4, 0);
    settings.writeUInt32BE(RECEIVE_WINDOW, 2);
    socket.write(Buffer.concat([frame(SETTINGS, 0, 0, settings), windowUpdate(0, RECEIVE_WINDOW - DEFAULT_WINDOW)]));
    socket.on("data", (chunk: Buffer) => this.onData(chunk));
    socket.on("error", (err: Error) => handlers.onError?.(err.message));
    socket.on("close", () => {
      this.closed = true;
      this.streams.clear();
    });
  }

  /** Resets the streams left open (go-plugin's stdio and broker) and says goodbye. */
  close(): void {
    if (this.closed) return;
    const out: Buffer[] = [];
    for (const s of this.streams.values()) if (s.kind === "idle") out.push(rstStream(s.id, H2Error.NO_ERROR));
    out.push(goaway(this.lastStreamId, H2Error.NO_ERROR));
    this.closed = true;
    this.socket.end(Buffer.concat(out));
  }

  private onData(chunk: Buffer): void {
    let buf = this.buf ? Buffer.concat([this.buf, chunk]) : chunk;
    if (!this.prefaceSeen) {
      if (buf.length < PREFACE.length) return void (this.buf = buf);
      if (!buf.subarray(0, PREFACE.length).equals(PREFACE)) return this.fail(H2Error.PROTOCOL_ERROR, "not an HTTP/2 connection preface");
      this.prefaceSeen = true;
      buf = buf.subarray(PREFACE.length);
    }
    while (buf.length >= 9 && !this.closed) {
      const length = buf.readUIntBE(0, 3);
      if (length > MAX_FRAME) return this.fail(H2Error.FRAME_SIZE_ERROR, `frame of ${length} bytes`);
      if (buf.length < 9 + length) break;
      const type = buf[3]!;
      const flags = buf[4]!;
      const id = buf.readUInt32BE(5) & 0x7fffffff;
      const payload = buf.subarray(9, 9 + length);
      buf = buf.subarray(9 + length);
      try {
        this.onFrame(type, flags, id, payload);
      } catch (err) {
        return this.fail(H2Error.COMPRESSION_ERROR, err instanceof Error ? err.message : String(err));
      }
    }
    this.buf = buf.length ? buf : undefined;
  }

  private onFrame(type: number, flags: number, id: number, payload: Buffer): void {
    if (this.continuing && type !== CONTINUATION) return this.fail(H2Error.PROTOCOL_ERROR, "expected CONTINUATION");
    switch (type) {
      case DATA:
        return this.onDataFrame(flags, id, payload);
      case HEADERS: {
        if (id === 0 || id % 2 === 0) return this.fail(H2Error.PROTOCOL_ERROR, `HEADERS on stream ${id}`);
        let block = unpad(flags, payload);
        if (block === undefined) return this.fail(H2Error.PROTOCOL_ERROR, "bad padding");
        if (flags & PRIORITY) block = block.subarray(5);
        if (flags & END_HEADERS) return this.onHeaders(id, flags, block);
        this.continuing = { id, flags, parts: [block] };
        return;
      }
      case CONTINUATION: {
        const c = this.continuing;
        if (!c || c.id !== id) return this.fail(H2Error.PROTOCOL_ERROR, "unexpected CONTINUATION");
        c.parts.push(payload);
        if (!(flags & END_HEADERS)) return;
        this.continuing = undefined;
        return this.onHeaders(id, c.flags, Buffer.concat(c.parts));
      }
      case RST_STREAM: {
        const s = this.streams.get(id);
        if (s) s.reset = true;
        this.streams.delete(id);
        return;
      }
      case SETTINGS:
        if (flags & ACK) return;
        for (let i = 0; i + 6 <= payload.length; i += 6) this.setting(payload.readUInt16BE(i), payload.readUInt32BE(i + 2));
        this.write(frame(SETTINGS, ACK, 0, Buffer.alloc(0)));
        return this.flush();
      case PUSH_PROMISE:
        return this.fail(H2Error.PROTOCOL_ERROR, "a client cannot push");
      case PING:
        if (!(flags & ACK)) this.write(frame(PING, ACK, 0, payload));
        return;
      case WINDOW_UPDATE: {
        const increment = payload.readUInt32BE(0) & 0x7fffffff;
        if (id === 0) this.sendWindow += increment;
        else {
          const s = this.streams.get(id);
          if (s) s.sendWindow += increment;
        }
        return this.flush();
      }
      case GOAWAY:
      default:
        return; // GOAWAY: the client closes the connection itself; unknown frame types are ignored
    }
  }

  private setting(key: number, value: number): void {
    if (key === 0x4) {
      if (value > 0x7fffffff) return this.fail(H2Error.FLOW_CONTROL_ERROR, "initial window too large");
      for (const s of this.streams.values()) s.sendWindow += value - this.peerInitialWindow;
      this.peerInitialWindow = value;
    } else if (key === 0x5) {
      if (value < MAX_FRAME || value > 0xffffff) return this.fail(H2Error.PROTOCOL_ERROR, `max frame size ${value}`);
      this.peerMaxFrame = value;
    }
  }

  private onDataFrame(flags: number, id: number, payload: Buffer): void {
    // Flow control counts the whole payload, padding included, whatever becomes of the stream.
    this.unacknowledged += payload.length;
    const out: Buffer[] = [];
    if (this.unacknowledged >= RECEIVE_WINDOW / 2) {
      out.push(windowUpdate(0, this.unacknowledged));
      this.unacknowledged = 0;
    }
    const s = this.streams.get(id);
    const data = unpad(flags, payload);
    if (data === undefined) return this.fail(H2Error.PROTOCOL_ERROR, "bad padding");
    if (s && !s.ended) {
      s.received += payload.length;
      if (s.kind === "unary") s.chunks.push(data);
      if (s.received >= RECEIVE_WINDOW / 2 && !(flags & END_STREAM)) {
        out.push(windowUpdate(id, s.received));
        s.received = 0;
      }
      if (flags & END_STREAM) this.onEnd(s);
    } else if (id > this.lastStreamId) return this.fail(H2Error.PROTOCOL_ERROR, `DATA on idle stream ${id}`);
    if (out.length) this.write(out.length === 1 ? out[0]! : Buffer.concat(out));
  }

  private onHeaders(id: number, flags: number, block: Buffer): void {
    const headers = this.hpack.decode(block); // always: the decoder's table must follow every block
    const known = this.streams.get(id);
    if (known) {
      if (flags & END_STREAM) this.onEnd(known); // trailers from the client
      return;
    }
    if (id <= this.lastStreamId) return; // a stream we already answered
    this.lastStreamId = id;
    let path = "";
    for (const [name, value] of headers) if (name === ":path") path = value;
    const kind = this.handlers.kind(path);
    if (!kind) {
      this.write(trailersOnly(id, 12, `unknown method ${path}`));
      return;
    }
    const s: Stream = { id, path, kind, chunks: [], received: 0, ended: false, reset: false, sendWindow: this.peerInitialWindow };
    this.streams.set(id, s);
    if (kind === "idle") this.write(frame(HEADERS, END_HEADERS, id, GRPC_RESPONSE_HEADERS));
    if (flags & END_STREAM) this.onEnd(s);
  }

  private onEnd(s: Stream): void {
    s.ended = true;
    if (s.kind !== "unary") return;
    const body = s.chunks.length === 1 ? s.chunks[0]! : Buffer.concat(s.chunks);
    s.chunks = [];
    this.handlers.unary(s.path, body).then(
      (message) => this.reply(s, message),
      (err: GrpcFailure) => {
        if (s.reset || this.closed) return;
        this.streams.delete(s.id);
        this.write(trailersOnly(s.id, err.grpcStatus, err.message));
      },
    );
  }

  /** Response headers, the message as gRPC frames it, trailers: one write when the windows allow. */
  private reply(s: Stream, message: Uint8Array): void {
    if (s.reset || this.closed) return;
    const data = Buffer.allocUnsafe(5 + message.length);
    data[0] = 0;
    data.writeUInt32BE(message.length, 1);
    data.set(message, 5);
    s.pending = { data, trailers: frame(HEADERS, END_STREAM | END_HEADERS, s.id, OK_TRAILERS) };
    this.send(s, [frame(HEADERS, END_HEADERS, s.id, GRPC_RESPONSE_HEADERS)]);
  }

  /** Writes as much of a stream's pending reply as the windows allow (`out`: frames to write before it). */
  private send(s: Stream, out: Buffer[]): void {
    const p = s.pending!;
    while (p.data.length) {
      const n = Math.min(p.data.length, this.peerMaxFrame, this.sendWindow, s.sendWindow);
      if (n <= 0) break;
      out.push(frame(DATA, 0, s.id, p.data.subarray(0, n)));
      p.data = p.data.subarray(n);
      this.sendWindow -= n;
      s.sendWindow -= n;
    }
    if (p.data.length) {
      if (out.length) this.write(Buffer.concat(out));
      return; // the rest on WINDOW_UPDATE
    }
    out.push(p.trailers);
    s.pending = undefined;
    this.streams.delete(s.id);
    const path = s.path;
    this.write(out.length === 1 ? out[0]! : Buffer.concat(out), () => this.handlers.onReplied?.(path));
  }

  private flush(): void {
    for (const s of this.streams.values()) {
      if (this.sendWindow <= 0) return;
      if (s.pending && s.sendWindow > 0) this.send(s, []);
    }
  }

  /** Writes of one turn of the event loop go out together: one TLS record and one syscall for them all. */
  private write(data: Buffer, done?: () => void): void {
    if (!this.corked) {
      this.corked = true;
      this.socket.cork();
      process.nextTick(() => {
        this.corked = false;
        this.socket.uncork();
      });
    }
    this.socket.write(data, done);
  }

  private fail(code: number, message: string): void {
    if (this.closed) return;
    this.handlers.onError?.(`HTTP/2 error ${code}: ${message}`);
    this.closed = true;
    this.socket.end(goaway(this.lastStreamId, code, message));
  }
}
