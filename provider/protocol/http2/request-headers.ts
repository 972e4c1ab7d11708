// The checks RFC 9113 makes of a request's header list (8.2, 8.3) and of trailers (8.1): a list that fails
// one is malformed, answered with a stream error of type PROTOCOL_ERROR (8.1.1) and never given to a handler.
import type { HeaderList } from "./hpack.js";

/** Field names: lower-case token characters only (8.2.1: no upper case, controls, space, colon). */
const NAME = /^[a-z0-9!#$%&'*+\-.^_`|~]+$/;
/** Field values: no NUL, CR or LF, no whitespace at either end (8.2.1). */
const BAD_VALUE = /[\0\r\n]|^[ \t]|[ \t]$/;
/** Connection-specific fields have no place in HTTP/2 (8.2.2). */
const CONNECTION_SPECIFIC = new Set(["connection", "proxy-connection", "keep-alive", "transfer-encoding", "upgrade"]);

export interface Request {
  path: string;
  /** The content-length field, when there is one: the DATA frames must add up to it (8.1.1). */
  contentLength?: number;
}

/** A request's fields checked: the request, or why it is malformed. */
export function checkRequest(headers: HeaderList): Request | string {
  let method: string | undefined;
  let scheme: string | undefined;
  let path: string | undefined;
  let authority = false;
  let regular = false;
  let contentLength: number | undefined;
  for (const [name, value] of headers) {
    if (BAD_VALUE.test(value)) return `invalid value of ${name}`;
    if (name.charCodeAt(0) === 0x3a) {
      // Pseudo-header fields: known ones, each once, before every regular field (8.3).
      if (regular) return `${name} after a regular field`;
      if (name === ":method" && method === undefined) method = value;
      else if (name === ":scheme" && scheme === undefined) scheme = value;
      else if (name === ":path" && path === undefined) path = value;
      else if (name === ":authority" && !authority) authority = true;
      else return `${name} is not a request pseudo-header field, or is repeated`;
      continue;
    }
    regular = true;
    if (!NAME.test(name)) return `invalid field name ${JSON.stringify(name)}`;
    if (CONNECTION_SPECIFIC.has(name)) return `connection-specific field ${name}`;
    if (name === "te" && value !== "trailers") return `te: ${value}`;
    if (name === "content-length") {
      if (!/^\d{1,15}$/.test(value) || (contentLength !== undefined && Number(value) !== contentLength)) return `content-length: ${value}`;
      contentLength = Number(value);
    }
  }
  if (method === undefined || scheme === undefined || path === undefined) return "missing :method, :scheme or :path";
  if (method === "CONNECT") return "CONNECT is not served";
  if (path === "") return "empty :path";
  return contentLength === undefined ? { path } : { path, contentLength };
}

/** Trailers: regular fields only (8.1). Undefined when well-formed, else why not. */
export function checkTrailers(headers: HeaderList): string | undefined {
  for (const [name, value] of headers) {
    if (name.charCodeAt(0) === 0x3a) return `pseudo-header field ${name} in trailers`;
    if (!NAME.test(name)) return `invalid field name ${JSON.stringify(name)}`;
    if (BAD_VALUE.test(value)) return `invalid value of ${name}`;
  }
  return undefined;
}
