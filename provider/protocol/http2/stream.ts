// One request stream of the provider's HTTP/2 server: what the receiving half (connection.ts) and the
// sending half (send.ts) both keep of it.

export interface Stream {
  id: number;
  path: string;
  kind: "unary" | "idle";
  chunks: Buffer[];
  /** Request body bytes held in `chunks`. */
  size: number;
  /** What the client may still send on this stream (our window), and what it sent since we last raised it. */
  receiveWindow: number;
  received: number;
  contentLength: number | undefined;
  /** The client ended its side (END_STREAM): half-closed (remote). */
  ended: boolean;
  /** The handler runs; it may outlive the stream when the client resets it. */
  running: boolean;
  reset: boolean;
  sendWindow: number;
  /** DATA not yet sent for want of window (the trailers are encoded when they follow it). */
  pending?: { data: Buffer; done: () => void };
}
