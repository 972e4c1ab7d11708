// The protobuf wire format under protobuf.ts: varints, length-delimited fields, reading (Cursor) and writing
// (Sink) of one message buffer.

export class ProtobufError extends Error {
  override name = "ProtobufError";
}

export class Cursor {
  pos = 0;
  constructor(private readonly buf: Uint8Array) {}

  varint(): number {
    let result = 0;
    let mul = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.buf.length) throw new ProtobufError("truncated varint");
      const b = this.buf[this.pos++]!;
      if (i < 7) result += (b & 0x7f) * mul;
      mul *= 128;
      if (b < 0x80) return result;
    }
    throw new ProtobufError("varint too long");
  }

  /** int64 as a number (exact up to 2^53; two's complement negatives). */
  signedVarint(): number {
    const start = this.pos;
    const n = this.varint();
    if (this.pos - start < 10) return n;
    // 10 bytes: a negative number; decode exactly with BigInt.
    let big = 0n;
    for (let i = 0; i < 10; i++) big |= BigInt(this.buf[start + i]! & 0x7f) << BigInt(7 * i);
    return Number(BigInt.asIntN(64, big));
  }

  bytes(): Uint8Array {
    const len = this.varint();
    if (this.pos + len > this.buf.length) throw new ProtobufError("truncated bytes");
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  string(): string {
    const b = this.bytes();
    return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("utf8");
  }

  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) {
      const len = this.varint(); // read before adding: `pos += varint()` would add to the old pos
      this.pos += len;
    } else if (wire === 5) this.pos += 4;
    else throw new ProtobufError(`unsupported wire type ${wire}`);
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
