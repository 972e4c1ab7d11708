// HTTP/2 frames (RFC 9113 section 6) as the provider's server writes and reads them: types, flags, error
// codes, and builders for the few frames it sends.
import { GRPC_RESPONSE_HEADERS, literalField } from "./hpack.js";

export const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");
export const DATA = 0x0,
  HEADERS = 0x1,
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
  PRIORITY = 0x20;
const PADDED = 0x8;
export const H2Error = { NO_ERROR: 0, PROTOCOL_ERROR: 1, FLOW_CONTROL_ERROR: 3, FRAME_SIZE_ERROR: 6, CANCEL: 8, COMPRESSION_ERROR: 9 } as const;

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

/** A failed call: status, content type and gRPC status in one HEADERS frame that ends the stream. */
export function trailersOnly(id: number, status: number, message: string): Buffer {
  const block = Buffer.concat([GRPC_RESPONSE_HEADERS, literalField("grpc-status", String(status)), literalField("grpc-message", encodeURIComponent(message))]);
  return frame(HEADERS, END_STREAM | END_HEADERS, id, block);
}

/** The payload without its padding; undefined when the padding is longer than the frame. */
export function unpad(flags: number, payload: Buffer): Buffer | undefined {
  if (!(flags & PADDED)) return payload;
  if (payload.length < 1 || payload[0]! >= payload.length) return undefined;
  return payload.subarray(1, payload.length - payload[0]!);
}
