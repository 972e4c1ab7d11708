// The sending half of the provider's HTTP/2 connection: the client's flow-control windows (RFC 9113 6.9),
// unary replies written as one buffer when the windows allow (response headers, the message, trailers),
// answers to control frames, and the writes of one event-loop turn corked into one TLS record.
import type { Duplex } from "node:stream";
import { ConnectionError, DATA, END_HEADERS, END_STREAM, H2Error, HEADERS, MAX_WINDOW, StreamError, frame } from "./frames.js";
import { ResponseEncoder } from "./hpack-encoder.js";
import type { Stream } from "./stream.js";

const DEFAULT_WINDOW = 65_535;
/** The protocol's default largest frame, until the client's SETTINGS_MAX_FRAME_SIZE says more. */
const DEFAULT_MAX_FRAME = 16_384;

export class Sender {
  closed = false;
  /** The response header blocks, encoded as they are written (the client's HPACK table follows that order). */
  readonly hpack = new ResponseEncoder();
  private corked = false;
  private window = DEFAULT_WINDOW;
  private initialWindow = DEFAULT_WINDOW;
  private maxFrame = DEFAULT_MAX_FRAME;
  private controlQueued = 0;

  /** `streams`: the connection's open streams; a stream leaves it when its reply is written in full. */
  constructor(
    private readonly socket: Duplex,
    private readonly streams: Map<number, Stream>,
    private readonly controlQueue: number,
  ) {}

  /** A new stream's window: SETTINGS_INITIAL_WINDOW_SIZE as the client last set it. */
  get streamWindow(): number {
    return this.initialWindow;
  }

  /** SETTINGS_INITIAL_WINDOW_SIZE: moves every open stream's window by the change (6.9.2). */
  setInitialWindow(value: number): void {
    if (value > MAX_WINDOW) throw new ConnectionError(H2Error.FLOW_CONTROL_ERROR, "initial window too large");
    for (const s of this.streams.values()) {
      s.sendWindow += value - this.initialWindow;
      if (s.sendWindow > MAX_WINDOW) throw new ConnectionError(H2Error.FLOW_CONTROL_ERROR, `window of stream ${s.id} above 2^31-1`);
    }
    this.initialWindow = value;
  }

  setMaxFrame(value: number): void {
    if (value < DEFAULT_MAX_FRAME || value > 0xffffff) throw new ConnectionError(H2Error.PROTOCOL_ERROR, `max frame size ${value}`);
    this.maxFrame = value;
  }

  /** WINDOW_UPDATE on the connection (no stream) or on an open stream; then what waited for it goes out. */
  windowUpdate(increment: number, s?: Stream): void {
    if (s) {
      s.sendWindow += increment;
      if (s.sendWindow > MAX_WINDOW) throw new StreamError(s.id, H2Error.FLOW_CONTROL_ERROR, `window of stream ${s.id} above 2^31-1`);
    } else {
      this.window += increment;
      if (this.window > MAX_WINDOW) throw new ConnectionError(H2Error.FLOW_CONTROL_ERROR, "connection window above 2^31-1");
    }
    this.flush();
  }

  /** Response headers, the message as gRPC frames it, trailers: one write when the windows allow. */
  reply(s: Stream, message: Uint8Array, done: () => void): void {
    const data = Buffer.allocUnsafe(5 + message.length);
    data[0] = 0;
    data.writeUInt32BE(message.length, 1);
    data.set(message, 5);
    s.pending = { data, done };
    this.send(s, [frame(HEADERS, END_HEADERS, s.id, this.hpack.responseHeaders())]);
  }

  /** Writes as much of a stream's pending reply as the windows allow (`out`: frames to write before it). */
  private send(s: Stream, out: Buffer[]): void {
    const p = s.pending!;
    while (p.data.length) {
      const n = Math.min(p.data.length, this.maxFrame, this.window, s.sendWindow);
      if (n <= 0) break;
      out.push(frame(DATA, 0, s.id, p.data.subarray(0, n)));
      p.data = p.data.subarray(n);
      this.window -= n;
      s.sendWindow -= n;
    }
    if (p.data.length) {
      if (out.length) this.write(Buffer.concat(out));
      return; // the rest on WINDOW_UPDATE
    }
    out.push(frame(HEADERS, END_STREAM | END_HEADERS, s.id, this.hpack.okTrailers()));
    s.pending = undefined;
    this.streams.delete(s.id);
    this.write(out.length === 1 ? out[0]! : Buffer.concat(out), p.done);
  }

  private flush(): void {
    for (const s of this.streams.values()) {
      if (this.window <= 0) return;
      if (s.pending && s.sendWindow > 0) this.send(s, []);
    }
  }

  /** An answer to a control frame; a client that sends them without reading the answers is cut off. */
  control(data: Buffer): void {
    if (++this.controlQueued > this.controlQueue) throw new ConnectionError(H2Error.ENHANCE_YOUR_CALM, "control frames not read");
    this.write(data, () => this.controlQueued--);
  }

  /** Writes of one turn of the event loop go out together: one TLS record and one syscall for them all. */
  write(data: Buffer, done?: () => void): void {
    if (this.closed) return;
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

  /** The last bytes of the connection (GOAWAY), after which nothing is written. */
  end(data: Buffer): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.end(data);
  }
}
