// The protobuf wire format under protobuf.ts: varints, length-delimited fields, reading (Cursor) and writing
// (Sink) of one message buffer. Reading refuses what protobufjs and Go refuse (lengths past the end of the
// enclosing message, field number 0, invalid UTF-8 in strings), with a ProtobufError, never a RangeError.
import { isUtf8 } from "node:buffer";

export class ProtobufError extends Error {
  override name = "ProtobufError";
}

export const WIRE_VARINT = 0,
  WIRE_LENGTH = 2;
const WIRE_FIXED64 = 1,
  WIRE_START_GROUP = 3,
  WIRE_END_GROUP = 4,
  WIRE_FIXED32 = 5;

/** Nesting of messages and groups in unknown fields (protobufjs' recursion limit, protoc's default). */
export const MAX_NESTING = 100;
/** Strings this short are decoded in JavaScript when ASCII: a call into Buffer#toString costs more. */
const SHORT_STRING = 64;
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

const truncated = () => new ProtobufError("truncated message");

export class Cursor {
  pos = 0;
  /** End of the message being read: a nested message's end while it is read, else the buffer's. */
  limit: number;
  private text: Buffer | undefined;

  constructor(private readonly buf: Uint8Array) {
    this.limit = buf.length;
  }

  /** A field's key: a varint of at most 5 bytes below 2^32 (field number and wire type). */
  tag(): number {
    const buf = this.buf;
    if (this.pos >= this.limit) throw truncated();
    const b = buf[this.pos++]!;
    if (b < 0x80) return b;
    let value = b & 0x7f;
    let mul = 128;
    for (let i = 1; i < 5; i++) {
      if (this.pos >= this.limit) throw truncated();
      const c = buf[this.pos++]!;
      value += (c & 0x7f) * mul;
      if (c < 0x80) {
        if (value > 0xffffffff) break;
        return value;
      }
      mul *= 128;
    }
    throw new ProtobufError("invalid field key");
  }

  /** The length of a length-delimited field (below 2^31), checked against the end of the message. */
  length(): number {
    const buf = this.buf;
    if (this.pos >= this.limit) throw truncated();
    let len = buf[this.pos++]!;
    if (len >= 0x80) {
      len &= 0x7f;
      let mul = 128;
      for (let i = 1; ; i++) {
        if (this.pos >= this.limit) throw truncated();
        const c = buf[this.pos++]!;
        len += (c & 0x7f) * mul;
        if (c < 0x80) break;
        if (i === 4) throw new ProtobufError("invalid length");
        mul *= 128;
      }
      if (len > 0x7fffffff) throw new ProtobufError("invalid length");
    }
    if (len > this.limit - this.pos) throw new ProtobufError("length past the end of the message");
    return len;
  }

  /** int64 (also uint64, int32, uint32): exact, a number when it is a safe integer, else a bigint. A
   * varint longer than 10 bytes is refused; bits beyond the 64th are dropped, as protobufjs does. */
  int64(): number | bigint {
    const buf = this.buf;
    let result = 0;
    let mul = 1;
    // Seven 7-bit groups (49 bits) add up exactly in a float64; longer varints are rare (negative numbers).
    for (let i = 0; i < 7; i++) {
      if (this.pos >= this.limit) throw truncated();
      const b = buf[this.pos++]!;
      result += (b & 0x7f) * mul;
      if (b < 0x80) return result;
      mul *= 128;
    }
    let big = BigInt(result);
    for (let i = 7; i < 10; i++) {
      if (this.pos >= this.limit) throw truncated();
      const b = buf[this.pos++]!;
      big |= BigInt(b & 0x7f) << BigInt(7 * i);
      if (b < 0x80) {
        const v = BigInt.asIntN(64, big);
        return v >= MIN_SAFE && v <= MAX_SAFE ? Number(v) : v;
      }
    }
    throw new ProtobufError("varint longer than 10 bytes");
  }

  /** An enum: the varint's low 32 bits as a signed number (protobufjs and Go read enums as int32). */
  int32(): number {
    const v = this.int64();
    return typeof v === "number" && v >= -0x80000000 && v <= 0x7fffffff ? v : Number(BigInt.asIntN(32, BigInt(v)));
  }

  bool(): boolean {
    let value = false;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.limit) throw truncated();
      const b = this.buf[this.pos++]!;
      if (b & 0x7f) value = true;
      if (b < 0x80) return value;
    }
    throw new ProtobufError("varint longer than 10 bytes");
  }

  bytes(): Uint8Array {
    const len = this.length();
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  /** A string field: UTF-8, refused when invalid (proto3 requires it; protobufjs and Go check). */
  string(): string {
    const len = this.length();
    const buf = this.buf;
    const start = this.pos;
    this.pos += len;
    if (len <= SHORT_STRING) {
      let s = "";
      let i = start;
      for (; i < this.pos; i++) {
        const c = buf[i]!;
        if (c >= 0x80) break;
        s += String.fromCharCode(c);
      }
      if (i === this.pos) return s;
    }
    const text = (this.text ??= Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength));
    const s = text.toString("utf8", start, this.pos);
    // Invalid UTF-8 decodes to U+FFFD; checking only then keeps valid strings at one native call.
    if (s.includes("\ufffd") && !isUtf8(text.subarray(start, this.pos))) throw new ProtobufError("string field is not valid UTF-8");
    return s;
  }

  /** Skips the value of an unknown field (groups included, as the references do), `depth` levels down. */
  skip(wire: number, field: number, depth: number): void {
    if (depth > MAX_NESTING) throw new ProtobufError("messages nested too deeply");
    switch (wire) {
      case WIRE_VARINT:
        for (let i = 0; ; i++) {
          if (this.pos >= this.limit) throw truncated();
          if (this.buf[this.pos++]! < 0x80) return;
          if (i === 9) throw new ProtobufError("varint longer than 10 bytes");
        }
      case WIRE_FIXED64:
        return this.advance(8);
      case WIRE_LENGTH:
        return this.advance(this.length());
      case WIRE_FIXED32:
        return this.advance(4);
      case WIRE_START_GROUP:
        for (;;) {
          const tag = this.tag();
          const id = tag >>> 3;
          if (id === 0) throw new ProtobufError("field number 0");
          if ((tag & 7) === WIRE_END_GROUP) {
            if (id !== field) throw new ProtobufError("group ends with another field's number");
            return;
          }
          this.skip(tag & 7, id, depth + 1);
        }
    }
    throw new ProtobufError(`invalid wire type ${wire}`);
  }

  private advance(n: number): void {
    if (n > this.limit - this.pos) throw truncated();
    this.pos += n;
  }
}

/** One growing buffer; a nested message is written in place after a one-byte length slot (fork), which
 * join() fills in, moving the message when its length needs more bytes. */
export class Sink {
  private buf = Buffer.allocUnsafe(256);
  private pos = 0;

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.pos + n, this.buf.length * 2));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  varint(n: number): void {
    this.ensure(10);
    while (n >= 0x80) {
      this.buf[this.pos++] = (n % 128) | 0x80;
      n = Math.floor(n / 128);
    }
    this.buf[this.pos++] = n;
  }

  bigVarint(n: bigint): void {
    if (n < 0x20000000000000n) return this.varint(Number(n));
    this.ensure(10);
    while (n >= 0x80n) {
      this.buf[this.pos++] = Number(n & 0x7fn) | 0x80;
      n >>= 7n;
    }
    this.buf[this.pos++] = Number(n);
  }

  tag(id: number, wire: number): void {
    this.varint(id * 8 + wire);
  }

  bytes(b: Uint8Array): void {
    this.varint(b.length);
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  string(s: string): void {
    const n = Buffer.byteLength(s);
    this.varint(n);
    this.ensure(n);
    this.buf.write(s, this.pos, "utf8");
    this.pos += n;
  }

  /** Starts a length-delimited field: returns where its length goes. */
  fork(): number {
    this.ensure(1);
    return this.pos++;
  }

  /** Ends the field started at `start`: writes its length, shifting it when the length takes > 1 byte. */
  join(start: number): void {
    const length = this.pos - start - 1;
    if (length < 0x80) {
      this.buf[start] = length;
      return;
    }
    let size = 1;
    for (let n = length; n >= 0x80; n = Math.floor(n / 128)) size++;
    this.ensure(size - 1);
    this.buf.copy(this.buf, start + size, start + 1, this.pos);
    let n = length;
    let at = start;
    while (n >= 0x80) {
      this.buf[at++] = (n % 128) | 0x80;
      n = Math.floor(n / 128);
    }
    this.buf[at] = n;
    this.pos += size - 1;
  }

  finish(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
}
