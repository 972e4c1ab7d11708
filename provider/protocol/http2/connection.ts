// One HTTP/2 connection (RFC 9113) of the provider's gRPC server, on the TLS socket Terraform opened: the
// frames a gRPC server meets, read here; replies and the client's windows are the sending half (send.ts).
// node:http2 builds a Duplex stream, header objects and three separate writes per call, which measured as
// most of the provider's CPU per RPC (BENCHMARKS.md).
//
// Every frame is checked as RFC 9113 asks (frame-rules.ts: lengths and stream ids; here: stream states,
// flow control, header blocks), and what one connection may hold is bounded (the LIMITS below; docs/design.md
// section 4, "The HTTP/2 server"). A connection error ends the connection with GOAWAY and its code; a stream
// error resets that stream alone.
import type { Duplex } from "node:stream";
import { frameError } from "./frame-rules.js";
import {
  ACK,
  CONTINUATION,
  DATA,
  END_HEADERS,
  END_STREAM,
  GOAWAY,
  H2Error,
  HEADERS,
  ConnectionError,
  PADDED,
  PING,
  PREFACE,
  PRIORITY,
  PRIORITY_FRAME,
  PUSH_PROMISE,
  RST_STREAM,
  SETTINGS,
  Setting,
  StreamError,
  WINDOW_UPDATE,
  frame,
  goaway,
  rstStream,
  settings,
  statusOnly,
  trailersOnly,
  unpad,
  windowUpdate,
} from "./frames.js";
import { HpackDecoder, HpackError } from "./hpack.js";
import { checkRequest, checkTrailers } from "./request-headers.js";
import { Sender } from "./send.js";
import type { Stream } from "./stream.js";

/** Largest frame payload we accept: the protocol's default, which we do not raise. */
const MAX_FRAME = 16_384;
const DEFAULT_WINDOW = 65_535;
/** What one connection may hold (docs/design.md section 4 lists them with the RFC sections behind them). */
export const LIMITS = {
  /** Receive window per stream and for the connection, raised again as data arrives (the client may have
   * this much in flight): large, so a client rarely waits for WINDOW_UPDATE. */
  receiveWindow: 1 << 24,
  /** A header block as received (HEADERS and its CONTINUATION frames); more ends the connection. */
  headerBlock: 64 * 1024,
  /** CONTINUATION frames after one HEADERS (a flood of empty ones costs CPU without growing the block). */
  continuations: 64,
  /** A header list decoded, SETTINGS_MAX_HEADER_LIST_SIZE; more is answered 431 (RFC 9113 10.5.1). */
  headerList: 64 * 1024,
  /** Streams open at once, SETTINGS_MAX_CONCURRENT_STREAMS; counting calls still running after a reset. */
  streams: 256,
  /** One request message, as terraform-plugin-go's servers accept (grpcMaxMessageSize). */
  message: 256 * 1024 * 1024,
  /** Request bodies being received at once; the stream that passes it is answered RESOURCE_EXHAUSTED. */
  buffered: 256 * 1024 * 1024,
  /** Answers to PING and SETTINGS not yet written out because the client does not read. */
  controlQueue: 10_000,
};
export type Limits = typeof LIMITS;
/** Streams we reset whose late frames are ignored rather than answered (RFC 9113 5.1, "closed"). */
const RECENTLY_RESET = 128;
const RESOURCE_EXHAUSTED = 8;

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

export class Http2Connection {
  private buf: Buffer | undefined;
  private prefaceSeen = false;
  private settingsSeen = false;
  private readonly hpack = new HpackDecoder();
  private readonly streams = new Map<number, Stream>();
  private lastStreamId = 0;
  private continuing: { id: number; flags: number; parts: Buffer[]; size: number; frames: number } | undefined;
  /** What the client may still send on the connection, and what it sent since we last raised it. */
  private receiveWindow: number;
  private received = 0;
  /** Request body bytes held by all streams. */
  private buffered = 0;
  /** Handlers still running for streams the client reset: they count against the streams limit. */
  private orphans = 0;
  private readonly recentlyReset = new Set<number>();
  private readonly out: Sender;

  /** `limits`: LIMITS, unless a test needs them small. */
  constructor(
    socket: Duplex,
    private readonly handlers: StreamHandlers,
    private readonly limits: Limits = LIMITS,
  ) {
    this.out = new Sender(socket, this.streams, limits.controlQueue);
    // Our SETTINGS, and the connection window raised to match the streams'.
    const ours = settings([
      [Setting.MAX_CONCURRENT_STREAMS, limits.streams],
      [Setting.INITIAL_WINDOW_SIZE, limits.receiveWindow],
      [Setting.MAX_HEADER_LIST_SIZE, limits.headerList],
    ]);
    this.receiveWindow = Math.max(limits.receiveWindow, DEFAULT_WINDOW);
    const raise = limits.receiveWindow - DEFAULT_WINDOW;
    socket.write(raise > 0 ? Buffer.concat([ours, windowUpdate(0, raise)]) : ours);
    socket.on("data", (chunk: Buffer) => this.onData(chunk));
    socket.on("error", (err: Error) => handlers.onError?.(err.message));
    socket.on("close", () => {
      this.out.closed = true;
      this.streams.clear();
    });
  }

  /** Resets the streams left open (go-plugin's stdio and broker) and says goodbye. */
  close(): void {
    const out: Buffer[] = [];
    for (const s of this.streams.values()) if (s.kind === "idle") out.push(rstStream(s.id, H2Error.NO_ERROR));
    out.push(goaway(this.lastStreamId, H2Error.NO_ERROR));
    this.out.end(Buffer.concat(out));
  }

  private onData(chunk: Buffer): void {
    let buf = this.buf ? Buffer.concat([this.buf, chunk]) : chunk;
    if (!this.prefaceSeen) {
      if (buf.length < PREFACE.length) {
        if (!PREFACE.subarray(0, buf.length).equals(buf)) return this.fail(H2Error.PROTOCOL_ERROR, "not an HTTP/2 connection preface");
        return void (this.buf = buf);
      }
      if (!buf.subarray(0, PREFACE.length).equals(PREFACE)) return this.fail(H2Error.PROTOCOL_ERROR, "not an HTTP/2 connection preface");
      this.prefaceSeen = true;
      buf = buf.subarray(PREFACE.length);
    }
    while (buf.length >= 9 && !this.out.closed) {
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
        if (err instanceof StreamError) this.resetStream(err.id, err.code, err.message);
        else if (err instanceof ConnectionError) return this.fail(err.code, err.message);
        else if (err instanceof HpackError) return this.fail(H2Error.COMPRESSION_ERROR, err.message);
        else return this.fail(H2Error.INTERNAL_ERROR, err instanceof Error ? err.message : String(err));
      }
    }
    this.buf = buf.length ? buf : undefined;
  }

  private onFrame(type: number, flags: number, id: number, payload: Buffer): void {
    // The preface is followed by the client's SETTINGS (RFC 9113 3.4); a header block by its CONTINUATIONs (6.10).
    if (!this.settingsSeen) {
      if (type !== SETTINGS || flags & ACK) throw new ConnectionError(H2Error.PROTOCOL_ERROR, "the preface must be followed by SETTINGS");
      this.settingsSeen = true;
    }
    if (this.continuing && type !== CONTINUATION) throw new ConnectionError(H2Error.PROTOCOL_ERROR, "expected CONTINUATION");
    const invalid = frameError(type, flags, id, payload.length);
    if (invalid) {
      const [code, message, stream] = invalid;
      if (stream) throw new StreamError(id, code, message);
      throw new ConnectionError(code, message);
    }
    switch (type) {
      case DATA:
        return this.onDataFrame(flags, id, payload);
      case HEADERS: {
        const block = unpad(flags, payload, flags & PRIORITY ? 5 : 0);
        if (block === undefined) throw new ConnectionError(H2Error.PROTOCOL_ERROR, "padding longer than the frame");
        if (flags & PRIORITY) this.checkPriority(id, payload.readUInt32BE(flags & PADDED ? 1 : 0));
        this.continuing = { id, flags, parts: [block], size: block.length, frames: 0 };
        return this.onBlockFragment(flags);
      }
      case CONTINUATION: {
        const c = this.continuing;
        if (!c || c.id !== id) throw new ConnectionError(H2Error.PROTOCOL_ERROR, "CONTINUATION without a header block");
        c.parts.push(payload);
        c.size += payload.length;
        c.frames++;
        return this.onBlockFragment(flags);
      }
      case PRIORITY_FRAME:
        return this.checkPriority(id, payload.readUInt32BE(0));
      case RST_STREAM: {
        if (id > this.lastStreamId) throw new ConnectionError(H2Error.PROTOCOL_ERROR, `RST_STREAM on idle stream ${id}`);
        const s = this.streams.get(id);
        if (s) this.forget(s);
        return;
      }
      case SETTINGS:
        if (flags & ACK) return;
        for (let i = 0; i < payload.length; i += 6) this.setting(payload.readUInt16BE(i), payload.readUInt32BE(i + 2));
        return this.out.control(frame(SETTINGS, ACK, 0, Buffer.alloc(0)));
      case PUSH_PROMISE:
        throw new ConnectionError(H2Error.PROTOCOL_ERROR, "a client cannot push");
      case PING:
        if (!(flags & ACK)) this.out.control(frame(PING, ACK, 0, payload));
        return;
      case WINDOW_UPDATE:
        return this.onWindowUpdate(id, payload.readUInt32BE(0) & 0x7fffffff);
      case GOAWAY:
      default:
        return; // GOAWAY: the client closes the connection itself; unknown frame types are ignored (5.5)
    }
  }

  /** A stream cannot depend on itself (RFC 9113 5.3.1, as RFC 7540 had it). */
  private checkPriority(id: number, dependency: number): void {
    if ((dependency & 0x7fffffff) === id) throw new StreamError(id, H2Error.PROTOCOL_ERROR, `stream ${id} depends on itself`);
  }

  private setting(key: number, value: number): void {
    if (key === Setting.HEADER_TABLE_SIZE) this.out.hpack.setTableSize(value);
    else if (key === Setting.INITIAL_WINDOW_SIZE) this.out.setInitialWindow(value);
    else if (key === Setting.MAX_FRAME_SIZE) this.out.setMaxFrame(value);
    else if (key === Setting.ENABLE_PUSH && value > 1) throw new ConnectionError(H2Error.PROTOCOL_ERROR, `enable push ${value}`);
  }

  private onWindowUpdate(id: number, increment: number): void {
    if (id === 0) {
      if (increment === 0) throw new ConnectionError(H2Error.PROTOCOL_ERROR, "WINDOW_UPDATE of 0");
      return this.out.windowUpdate(increment);
    }
    if (id > this.lastStreamId) throw new ConnectionError(H2Error.PROTOCOL_ERROR, `WINDOW_UPDATE on idle stream ${id}`);
    if (increment === 0) throw new StreamError(id, H2Error.PROTOCOL_ERROR, "WINDOW_UPDATE of 0");
    const s = this.streams.get(id);
    if (s) this.out.windowUpdate(increment, s); // else a stream already closed: allowed for a while (5.1)
  }

  private onDataFrame(flags: number, id: number, payload: Buffer): void {
    if (id > this.lastStreamId) throw new ConnectionError(H2Error.PROTOCOL_ERROR, `DATA on idle stream ${id}`);
    // Flow control counts the whole payload, padding included, whatever becomes of the stream (6.9).
    if (payload.length > this.receiveWindow) throw new ConnectionError(H2Error.FLOW_CONTROL_ERROR, "DATA beyond the connection window");
    this.receiveWindow -= payload.length;
    this.received += payload.length;
    if (this.received >= this.limits.receiveWindow / 2) {
      this.out.write(windowUpdate(0, this.received));
      this.receiveWindow += this.received;
      this.received = 0;
    }
    const data = unpad(flags, payload);
    if (data === undefined) throw new ConnectionError(H2Error.PROTOCOL_ERROR, "padding longer than the frame");
    const s = this.streams.get(id);
    if (!s && this.recentlyReset.has(id)) return;
    if (!s || s.ended) throw new StreamError(id, H2Error.STREAM_CLOSED, `DATA on closed stream ${id}`);
    if (payload.length > s.receiveWindow) throw new StreamError(id, H2Error.FLOW_CONTROL_ERROR, `DATA beyond the window of stream ${id}`);
    s.receiveWindow -= payload.length;
    s.received += payload.length;
    if (s.kind === "unary") {
      s.size += data.length;
      this.buffered += data.length;
      if (s.contentLength !== undefined && s.size > s.contentLength) throw new StreamError(id, H2Error.PROTOCOL_ERROR, "more DATA than content-length");
      if (s.size > this.limits.message + 5 || this.buffered > this.limits.buffered) return this.exhausted(s);
      s.chunks.push(data);
    }
    if (flags & END_STREAM) return this.onEnd(s);
    if (s.received >= this.limits.receiveWindow / 2) {
      this.out.write(windowUpdate(id, s.received));
      s.receiveWindow += s.received;
      s.received = 0;
    }
  }

  /** A request larger than the limits: answered RESOURCE_EXHAUSTED, as a gRPC server answers one. */
  private exhausted(s: Stream): void {
    this.forget(s);
    this.refuse(s.id, trailersOnly(this.out.hpack, s.id, RESOURCE_EXHAUSTED, "request larger than the server accepts"), 0);
  }

  /** A complete response before the request's end: the rest of the request is refused with RST_STREAM
   * NO_ERROR (RFC 9113 8.1), unless `flags` say the client already ended it. */
  private refuse(id: number, response: Buffer, flags: number): void {
    if (flags & END_STREAM) return this.out.write(response);
    this.resetSent(id);
    this.out.write(Buffer.concat([response, rstStream(id, H2Error.NO_ERROR)]));
  }

  /** Remembers a stream we reset, so that the frames already on their way are ignored. */
  private resetSent(id: number): void {
    this.recentlyReset.add(id);
    if (this.recentlyReset.size > RECENTLY_RESET) this.recentlyReset.delete(this.recentlyReset.values().next().value!);
  }

  /** A fragment of the header block in progress; decoded when END_HEADERS closes it. */
  private onBlockFragment(flags: number): void {
    const c = this.continuing!;
    if (c.size > this.limits.headerBlock || c.frames > this.limits.continuations) {
      throw new ConnectionError(
        H2Error.ENHANCE_YOUR_CALM,
        `header block over ${this.limits.headerBlock} bytes or ${this.limits.continuations} CONTINUATION frames`,
      );
    }
    if (!(flags & END_HEADERS)) return;
    this.continuing = undefined;
    this.onHeaders(c.id, c.flags, c.parts.length === 1 ? c.parts[0]! : Buffer.concat(c.parts));
  }

  private onHeaders(id: number, flags: number, block: Buffer): void {
    const headers = this.hpack.decode(block); // always: the decoder's table must follow every block
    const known = this.streams.get(id);
    if (known) {
      // Trailers: they end the stream (8.1); a stream already ended takes no more frames (5.1).
      if (known.ended) throw new StreamError(id, H2Error.STREAM_CLOSED, `HEADERS on half-closed stream ${id}`);
      if (!(flags & END_STREAM)) throw new StreamError(id, H2Error.PROTOCOL_ERROR, "trailers without END_STREAM");
      const bad = checkTrailers(headers);
      if (bad) throw new StreamError(id, H2Error.PROTOCOL_ERROR, bad);
      return this.onEnd(known);
    }
    // A new stream's id is odd and above every id the client used before (5.1.1).
    if (id <= this.lastStreamId && this.recentlyReset.has(id)) return;
    if (id % 2 === 0 || id <= this.lastStreamId) throw new ConnectionError(H2Error.PROTOCOL_ERROR, `HEADERS on stream ${id} after stream ${this.lastStreamId}`);
    this.lastStreamId = id;
    if (this.streams.size + this.orphans >= this.limits.streams) throw new StreamError(id, H2Error.REFUSED_STREAM, `more than ${this.limits.streams} streams`);
    if (this.hpack.listSize > this.limits.headerList) return this.refuse(id, statusOnly(this.out.hpack, id, 431), flags);
    const request = checkRequest(headers);
    if (typeof request === "string") throw new StreamError(id, H2Error.PROTOCOL_ERROR, `malformed request: ${request}`);
    const kind = this.handlers.kind(request.path);
    if (!kind) return this.refuse(id, trailersOnly(this.out.hpack, id, 12, `unknown method ${request.path}`), flags);
    const s: Stream = {
      id,
      path: request.path,
      kind,
      chunks: [],
      size: 0,
      receiveWindow: this.limits.receiveWindow,
      received: 0,
      contentLength: request.contentLength,
      ended: false,
      running: false,
      reset: false,
      sendWindow: this.out.streamWindow,
    };
    this.streams.set(id, s);
    if (kind === "idle") this.out.write(frame(HEADERS, END_HEADERS, id, this.out.hpack.responseHeaders()));
    if (flags & END_STREAM) this.onEnd(s);
  }

  private onEnd(s: Stream): void {
    s.ended = true;
    if (s.contentLength !== undefined && s.size !== s.contentLength && s.kind === "unary") {
      throw new StreamError(s.id, H2Error.PROTOCOL_ERROR, "DATA shorter than content-length");
    }
    if (s.kind !== "unary") return;
    const body = s.chunks.length === 1 ? s.chunks[0]! : Buffer.concat(s.chunks);
    this.buffered -= s.size;
    s.chunks = [];
    s.size = 0;
    s.running = true;
    this.handlers.unary(s.path, body).then(
      (message) => {
        this.settle(s);
        if (s.reset || this.out.closed) return;
        this.out.reply(s, message, () => this.handlers.onReplied?.(s.path));
      },
      (err: GrpcFailure) => {
        this.settle(s);
        if (s.reset || this.out.closed) return;
        this.streams.delete(s.id);
        this.out.write(trailersOnly(this.out.hpack, s.id, err.grpcStatus, err.message));
      },
    );
  }

  private settle(s: Stream): void {
    s.running = false;
    if (s.reset) this.orphans--;
  }

  /** Drops a stream the client reset or we refused: its buffered body, and the handler's reply to come. */
  private forget(s: Stream): void {
    this.streams.delete(s.id);
    this.buffered -= s.size;
    s.chunks = [];
    s.size = 0;
    s.reset = true;
    s.pending = undefined;
    if (s.running) this.orphans++;
  }

  /** A stream error (RFC 9113 5.4.2): RST_STREAM with its code; an error on an idle stream, which cannot
   * be reset, ends the connection instead. */
  private resetStream(id: number, code: number, message: string): void {
    if (id > this.lastStreamId) return this.fail(code, message);
    this.handlers.onError?.(`HTTP/2 stream ${id} error ${code}: ${message}`);
    const s = this.streams.get(id);
    if (s) this.forget(s);
    this.resetSent(id);
    this.out.write(rstStream(id, code));
  }

  private fail(code: number, message: string): void {
    if (this.out.closed) return;
    this.handlers.onError?.(`HTTP/2 error ${code}: ${message}`);
    this.out.end(goaway(this.lastStreamId, code, message));
  }
}
