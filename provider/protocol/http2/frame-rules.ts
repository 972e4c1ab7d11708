// What RFC 9113 section 6 asks of each frame type's length and stream id, before its payload is read: the
// error code, and whether it is a stream error (5.4.2) rather than a connection error (5.4.1).
import {
  ACK,
  CONTINUATION,
  DATA,
  GOAWAY,
  H2Error,
  HEADERS,
  PADDED,
  PING,
  PRIORITY,
  PRIORITY_FRAME,
  PUSH_PROMISE,
  RST_STREAM,
  SETTINGS,
  WINDOW_UPDATE,
} from "./frames.js";

export type FrameError = [code: number, message: string, stream?: true];

const NAMES: Record<number, string> = {
  [DATA]: "DATA",
  [HEADERS]: "HEADERS",
  [PRIORITY_FRAME]: "PRIORITY",
  [RST_STREAM]: "RST_STREAM",
  [SETTINGS]: "SETTINGS",
  [PUSH_PROMISE]: "PUSH_PROMISE",
  [PING]: "PING",
  [GOAWAY]: "GOAWAY",
  [WINDOW_UPDATE]: "WINDOW_UPDATE",
  [CONTINUATION]: "CONTINUATION",
};

const onStream0 = (type: number): FrameError => [H2Error.PROTOCOL_ERROR, `${NAMES[type]} on stream 0`];
const notOnStream0 = (type: number, id: number): FrameError => [H2Error.PROTOCOL_ERROR, `${NAMES[type]} on stream ${id}`];
const size = (type: number, length: number): FrameError => [H2Error.FRAME_SIZE_ERROR, `${NAMES[type]} of ${length} bytes`];

/** The error a frame of this type, flags, stream and payload length is, or undefined when it has none. */
export function frameError(type: number, flags: number, id: number, length: number): FrameError | undefined {
  switch (type) {
    case DATA: // 6.1
      if (id === 0) return onStream0(type);
      if (flags & PADDED && length < 1) return size(type, length);
      return undefined;
    case HEADERS: // 6.2
      if (id === 0) return onStream0(type);
      if (length < (flags & PADDED ? 1 : 0) + (flags & PRIORITY ? 5 : 0)) return size(type, length);
      return undefined;
    case PRIORITY_FRAME: // 6.3
      if (id === 0) return onStream0(type);
      if (length !== 5) return [H2Error.FRAME_SIZE_ERROR, `PRIORITY of ${length} bytes`, true];
      return undefined;
    case RST_STREAM: // 6.4
      if (id === 0) return onStream0(type);
      if (length !== 4) return size(type, length);
      return undefined;
    case SETTINGS: // 6.5
      if (id !== 0) return notOnStream0(type, id);
      if (flags & ACK ? length !== 0 : length % 6 !== 0) return size(type, length);
      return undefined;
    case PING: // 6.7
      if (id !== 0) return notOnStream0(type, id);
      if (length !== 8) return size(type, length);
      return undefined;
    case GOAWAY: // 6.8
      if (id !== 0) return notOnStream0(type, id);
      if (length < 8) return size(type, length);
      return undefined;
    case WINDOW_UPDATE: // 6.9
      if (length !== 4) return size(type, length);
      return undefined;
    case CONTINUATION: // 6.10
      if (id === 0) return onStream0(type);
      return undefined;
  }
  return undefined;
}
