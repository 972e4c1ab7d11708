// HPACK (RFC 7541) for the provider's HTTP/2 server: a full decoder for request header blocks (static and
// dynamic tables, Huffman-coded literals), and the literals the response fields are written with (the
// encoder that decides which enter the client's dynamic table: hpack-encoder.ts).
import { HuffmanError, huffmanDecode } from "./huffman.js";

/** A header block this side cannot decode: a connection error of type COMPRESSION_ERROR (RFC 9113 4.3). */
export class HpackError extends Error {
  override name = "HpackError";
}

/** RFC 7541 Appendix A. */
const STATIC: readonly (readonly [string, string])[] = [
  ["", ""], // indexes start at 1
  [":authority", ""],
  [":method", "GET"],
  [":method", "POST"],
  [":path", "/"],
  [":path", "/index.html"],
  [":scheme", "http"],
  [":scheme", "https"],
  [":status", "200"],
  [":status", "204"],
  [":status", "206"],
  [":status", "304"],
  [":status", "400"],
  [":status", "404"],
  [":status", "500"],
  ["accept-charset", ""],
  ["accept-encoding", "gzip, deflate"],
  ["accept-language", ""],
  ["accept-ranges", ""],
  ["accept", ""],
  ["access-control-allow-origin", ""],
  ["age", ""],
  ["allow", ""],
  ["authorization", ""],
  ["cache-control", ""],
  ["content-disposition", ""],
  ["content-encoding", ""],
  ["content-language", ""],
  ["content-length", ""],
  ["content-location", ""],
  ["content-range", ""],
  ["content-type", ""],
  ["cookie", ""],
  ["date", ""],
  ["etag", ""],
  ["expect", ""],
  ["expires", ""],
  ["from", ""],
  ["host", ""],
  ["if-match", ""],
  ["if-modified-since", ""],
  ["if-none-match", ""],
  ["if-range", ""],
  ["if-unmodified-since", ""],
  ["last-modified", ""],
  ["link", ""],
  ["location", ""],
  ["max-forwards", ""],
  ["proxy-authenticate", ""],
  ["proxy-authorization", ""],
  ["range", ""],
  ["referer", ""],
  ["refresh", ""],
  ["retry-after", ""],
  ["server", ""],
  ["set-cookie", ""],
  ["strict-transport-security", ""],
  ["transfer-encoding", ""],
  ["user-agent", ""],
  ["vary", ""],
  ["via", ""],
  ["www-authenticate", ""],
];
const STATIC_COUNT = STATIC.length - 1;
/** Per entry, on top of its name and value (RFC 7541 section 4.1). */
const ENTRY_OVERHEAD = 32;

export type HeaderList = [name: string, value: string][];

export class HpackDecoder {
  /** Newest first, as indexes count. */
  private readonly dynamic: (readonly [string, string])[] = [];
  private size = 0;
  private maxSize: number;

  /** `limit`: the SETTINGS_HEADER_TABLE_SIZE this side announced (4096 unless it said otherwise). */
  constructor(private readonly limit = 4096) {
    this.maxSize = limit;
  }

  /** The size of the last decoded header list as RFC 9113 6.5.2 counts it (name + value + 32 per field),
   * for SETTINGS_MAX_HEADER_LIST_SIZE: the whole block is always decoded, so the table stays in step. */
  listSize = 0;

  decode(block: Uint8Array): HeaderList {
    const out: HeaderList = [];
    const r = { pos: 0 };
    let size = 0;
    while (r.pos < block.length) {
      const b = block[r.pos]!;
      if (b & 0x80) {
        const [name, value] = this.entry(integer(block, r, 7));
        out.push([name, value]);
        size += name.length + value.length + ENTRY_OVERHEAD;
      } else if ((b & 0xc0) === 0x40) {
        const index = integer(block, r, 6);
        const name = index === 0 ? literal(block, r) : this.entry(index)[0];
        const value = literal(block, r);
        out.push([name, value]);
        size += name.length + value.length + ENTRY_OVERHEAD;
        this.insert(name, value);
      } else if ((b & 0xe0) === 0x20) {
        // RFC 7541 4.2: size updates come first in a block; one after a field is a decoding error (6.3).
        if (out.length) throw new HpackError("dynamic table size update after a header field");
        const max = integer(block, r, 5);
        if (max > this.limit) throw new HpackError(`dynamic table size ${max} above the announced ${this.limit}`);
        this.maxSize = max;
        this.evict(0);
      } else {
        // Literal without indexing (0000) or never indexed (0001): the same to a decoder.
        const index = integer(block, r, 4);
        const name = index === 0 ? literal(block, r) : this.entry(index)[0];
        const value = literal(block, r);
        out.push([name, value]);
        size += name.length + value.length + ENTRY_OVERHEAD;
      }
    }
    this.listSize = size;
    return out;
  }

  private entry(index: number): readonly [string, string] {
    if (index === 0) throw new HpackError("header index 0");
    const e = index <= STATIC_COUNT ? STATIC[index] : this.dynamic[index - STATIC_COUNT - 1];
    if (!e) throw new HpackError(`header index ${index} outside the tables`);
    return e;
  }

  private insert(name: string, value: string): void {
    const size = name.length + value.length + ENTRY_OVERHEAD;
    this.evict(size);
    if (size <= this.maxSize) {
      this.dynamic.unshift([name, value]);
      this.size += size;
    }
  }

  /** Drops the oldest entries until `room` more octets fit. */
  private evict(room: number): void {
    while (this.dynamic.length && this.size + room > this.maxSize) {
      const [name, value] = this.dynamic.pop()!;
      this.size -= name.length + value.length + ENTRY_OVERHEAD;
    }
  }
}

/** An integer with an N-bit prefix (RFC 7541 section 5.1). */
function integer(block: Uint8Array, r: { pos: number }, prefix: number): number {
  if (r.pos >= block.length) throw new HpackError("truncated header block");
  const max = (1 << prefix) - 1;
  let value = block[r.pos++]! & max;
  if (value < max) return value;
  for (let shift = 0; ; shift += 7) {
    if (r.pos >= block.length || shift > 28) throw new HpackError("invalid integer in header block");
    const b = block[r.pos++]!;
    value += (b & 0x7f) * 2 ** shift;
    if (!(b & 0x80)) return value;
  }
}

/** A string literal (RFC 7541 section 5.2); header octets are read as latin1, as HTTP/2 defines them. */
function literal(block: Uint8Array, r: { pos: number }): string {
  const huffman = (block[r.pos]! & 0x80) !== 0;
  const length = integer(block, r, 7);
  if (r.pos + length > block.length) throw new HpackError("truncated string in header block");
  const bytes = block.subarray(r.pos, r.pos + length);
  r.pos += length;
  if (!huffman) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  try {
    return huffmanDecode(bytes).toString("latin1");
  } catch (err) {
    throw err instanceof HuffmanError ? new HpackError(err.message) : err;
  }
}

// ---- encoding the response fields ----

function encodeInteger(value: number, prefix: number, first: number): number[] {
  const max = (1 << prefix) - 1;
  if (value < max) return [first | value];
  const out = [first | max];
  value -= max;
  while (value >= 128) {
    out.push((value % 128) | 0x80);
    value = Math.floor(value / 128);
  }
  out.push(value);
  return out;
}

function encodeString(s: string): Buffer {
  const bytes = Buffer.from(s, "latin1");
  return Buffer.concat([Buffer.from(encodeInteger(bytes.length, 7, 0)), bytes]);
}

/** A field as a literal without indexing; `nameIndex` when the static table has the name. */
export function literalField(name: string | number, value: string): Buffer {
  const head = typeof name === "number" ? Buffer.from(encodeInteger(name, 4, 0)) : Buffer.concat([Buffer.from([0]), encodeString(name)]);
  return Buffer.concat([head, encodeString(value)]);
}
