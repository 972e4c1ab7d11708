// Low-level MessagePack writing (reading: msgpack.ts): exactly the wire formats cty uses.
import { SHORT_STRING } from "./msgpack.js";

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}

export class Writer {
  private buf = Buffer.allocUnsafe(256);
  private pos = 0;

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  finish(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  raw(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  private byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  nil(): void {
    this.byte(0xc0);
  }

  bool(v: boolean): void {
    this.byte(v ? 0xc3 : 0xc2);
  }

  /** An integer in the fewest bytes, as go-cty's encoder writes it (vmihailenco/msgpack EncodeInt). */
  int(v: number | bigint): void {
    if (typeof v === "number" && Number.isSafeInteger(v)) {
      if (v >= 0) {
        if (v <= 0x7f) return this.byte(v);
        if (v <= 0xff) return this.fixed(0xcc, 1, v);
        if (v <= 0xffff) return this.fixed(0xcd, 2, v);
        if (v <= 0xffffffff) return this.fixed(0xce, 4, v);
      } else {
        if (v >= -32) return this.byte(v & 0xff);
        if (v >= -0x80) return this.fixed(0xd0, 1, v);
        if (v >= -0x8000) return this.fixed(0xd1, 2, v);
        if (v >= -0x80000000) return this.fixed(0xd2, 4, v);
      }
    }
    const big = BigInt(v);
    if (big >= -0x80000000n && big <= 0xffffffffn) return this.int(Number(big));
    this.ensure(9);
    if (big >= 0n) {
      this.buf[this.pos++] = 0xcf;
      this.buf.writeBigUInt64BE(big, this.pos);
    } else {
      this.buf[this.pos++] = 0xd3;
      this.buf.writeBigInt64BE(big, this.pos);
    }
    this.pos += 8;
  }

  /** A type byte and a big-endian integer of `size` bytes (two's complement when negative). */
  private fixed(code: number, size: number, v: number): void {
    this.ensure(1 + size);
    this.buf[this.pos++] = code;
    if (v >= 0) this.buf.writeUIntBE(v, this.pos, size);
    else this.buf.writeIntBE(v, this.pos, size);
    this.pos += size;
  }

  float(v: number): void {
    this.ensure(9);
    this.buf[this.pos++] = 0xcb;
    this.buf.writeDoubleBE(v, this.pos);
    this.pos += 8;
  }

  str(s: string): void {
    const n = s.length <= SHORT_STRING && isAscii(s) ? s.length : Buffer.byteLength(s);
    if (n < 32) this.byte(0xa0 | n);
    else if (n < 0x100) {
      this.byte(0xd9);
      this.byte(n);
    } else if (n < 0x10000) {
      this.ensure(3);
      this.buf[this.pos++] = 0xda;
      this.buf.writeUInt16BE(n, this.pos);
      this.pos += 2;
    } else {
      this.ensure(5);
      this.buf[this.pos++] = 0xdb;
      this.buf.writeUInt32BE(n, this.pos);
      this.pos += 4;
    }
    this.ensure(n);
    if (n === s.length && n <= SHORT_STRING) for (let i = 0; i < n; i++) this.buf[this.pos + i] = s.charCodeAt(i);
    else this.buf.write(s, this.pos, "utf8");
    this.pos += n;
  }

  bin(b: Uint8Array): void {
    const n = b.length;
    if (n < 0x100) {
      this.byte(0xc4);
      this.byte(n);
    } else if (n < 0x10000) {
      this.ensure(3);
      this.buf[this.pos++] = 0xc5;
      this.buf.writeUInt16BE(n, this.pos);
      this.pos += 2;
    } else {
      this.ensure(5);
      this.buf[this.pos++] = 0xc6;
      this.buf.writeUInt32BE(n, this.pos);
      this.pos += 4;
    }
    this.raw(b);
  }

  private header(n: number, fix: number, b16: number, b32: number): void {
    if (n < 16) this.byte(fix | n);
    else if (n < 0x10000) {
      this.ensure(3);
      this.buf[this.pos++] = b16;
      this.buf.writeUInt16BE(n, this.pos);
      this.pos += 2;
    } else {
      this.ensure(5);
      this.buf[this.pos++] = b32;
      this.buf.writeUInt32BE(n, this.pos);
      this.pos += 4;
    }
  }

  arrayHeader(n: number): void {
    this.header(n, 0x90, 0xdc, 0xdd);
  }

  mapHeader(n: number): void {
    this.header(n, 0x80, 0xde, 0xdf);
  }
}
