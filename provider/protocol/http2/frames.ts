// HTTP/2 frames (RFC 9113 section 6) as the provider's server writes and reads them: types, flags, error
// codes and the two kinds of error, and builders for the few frames it sends.
import { literalField } from "./hpack.js";
import type { ResponseEncoder } from "./hpack-encoder.js";

export const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");
export const DATA = 0x0,
  HEADERS = 0x1,
  PRIORITY_FRAME = 0x2,
  RST_STREAM = 0x3,
  SETTINGS = 0x4,
  PUSH_PROMISE = 0x5,
  PING = 0x6,
  GOAWAY = 0x7,
  WINDOW_UPDATE = 0x8,
  CONTINUATION = 0x9;
export const END_STREAM = 0x1,
  ACK = 0x1,
  END_HEADERS = 0x4,
  PADDED = 0x8,
  PRIORITY = 0x20;
/** RFC 9113 section 7. */
export const H2Error = {
  NO_ERROR: 0x0,
  PROTOCOL_ERROR: 0x1,
  INTERNAL_ERROR: 0x2,
  FLOW_CONTROL_ERROR: 0x3,
  SETTINGS_TIMEOUT: 0x4,
  STREAM_CLOSED: 0x5,
  FRAME_SIZE_ERROR: 0x6,
  REFUSED_STREAM: 0x7,
  CANCEL: 0x8,
  COMPRESSION_ERROR: 0x9,
  CONNECT_ERROR: 0xa,
  ENHANCE_YOUR_CALM: 0xb,
  INADEQUATE_SECURITY: 0xc,
  HTTP_1_1_REQUIRED: 0xd,
} as const;
/** A stream error (RFC 9113 5.4.2): that stream is reset with the code, the connection serves on. */
export class StreamError extends Error {
  constructor(
    readonly id: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** A connection error (RFC 9113 5.4.1): GOAWAY with the code, and the connection ends. */
export class ConnectionError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** SETTINGS parameters (RFC 9113 6.5.2). */
export const Setting = {
  HEADER_TABLE_SIZE: 0x1,
  ENABLE_PUSH: 0x2,
  MAX_CONCURRENT_STREAMS: 0x3,
  INITIAL_WINDOW_SIZE: 0x4,
  MAX_FRAME_SIZE: 0x5,
  MAX_HEADER_LIST_SIZE: 0x6,
} as const;
/** The largest flow-control window (RFC 9113 6.9.1). */
export const MAX_WINDOW = 0x7fffffff;

export function frame(type: number, flags: number, id: number, payload: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(9 + payload.length);
  out.writeUIntBE(payload.length, 0, 3);
  out[3] = type;
  out[4] = flags;
  out.writeUInt32BE(id, 5);
  out.set(payload, 9);
  return out;
}

export function windowUpdate(id: number, increment: number): Buffer {
  const p = Buffer.allocUnsafe(4);
  p.writeUInt32BE(increment, 0);
  return frame(WINDOW_UPDATE, 0, id, p);
}

export function rstStream(id: number, code: number): Buffer {
  const p = Buffer.allocUnsafe(4);
  p.writeUInt32BE(code, 0);
  return frame(RST_STREAM, 0, id, p);
}

export function goaway(lastStreamId: number, code: number, debug = ""): Buffer {
  const p = Buffer.alloc(8 + Buffer.byteLength(debug));
  p.writeUInt32BE(lastStreamId, 0);
  p.writeUInt32BE(code, 4);
  p.write(debug, 8);
  return frame(GOAWAY, 0, 0, p);
}

/** SETTINGS with the given parameters. */
export function settings(values: [id: number, value: number][]): Buffer {
  const p = Buffer.allocUnsafe(6 * values.length);
  values.forEach(([id, value], i) => {
    p.writeUInt16BE(id, 6 * i);
    p.writeUInt32BE(value, 6 * i + 2);
  });
  return frame(SETTINGS, 0, 0, p);
}

/** A failed call: status, content type and gRPC status in one HEADERS frame that ends the stream. */
export function trailersOnly(hpack: ResponseEncoder, id: number, status: number, message: string): Buffer {
  const block = hpack.block([hpack.responseHeaders(), literalField("grpc-status", String(status)), literalField("grpc-message", encodeURIComponent(message))]);
  return frame(HEADERS, END_STREAM | END_HEADERS, id, block);
}

/** A response of `status` that ends the stream (431 for a header list over the limit, RFC 9113 10.5.1). */
export function statusOnly(hpack: ResponseEncoder, id: number, status: number): Buffer {
  return frame(HEADERS, END_STREAM | END_HEADERS, id, hpack.block([literalField(8, String(status))]));
}

/** The payload without its padding (and `skip` bytes after the pad length: HEADERS' priority fields);
 * undefined when the padding is as long as what it pads, a PROTOCOL_ERROR (RFC 9113 6.1, 6.2). */
export function unpad(flags: number, payload: Buffer, skip = 0): Buffer | undefined {
  if (!(flags & PADDED)) return skip ? payload.subarray(skip) : payload;
  if (payload.length < 1 || payload[0]! >= payload.length - skip) return undefined;
  return payload.subarray(1 + skip, payload.length - payload[0]!);
}
