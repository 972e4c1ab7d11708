// Low-level MessagePack reading (writing: msgpack-writer.ts): exactly the wire formats cty (Terraform's type
// system) uses. Conversion to Terraform values by type lives in cty-msgpack.ts; this file knows no types.
import { isUtf8 } from "node:buffer";

export class MsgpackError extends Error {
  override name = "MsgpackError";
}

/** Strings up to this many bytes are decoded in JavaScript (most attribute names and values): a call into
 * Buffer#toString costs more than the loop for them. */
export const SHORT_STRING = 64;

/** Refinements longer than this are refused, as go-cty refuses them ("oversize unknown value refinement"). */
const MAX_REFINEMENTS = 1024;
/** go-cty's extension type for an unknown value with refinements (msgpack/unknown.go). */
const REFINED_UNKNOWN = 0x0c;

/** Decodes UTF-8, refusing invalid input: it decodes to U+FFFD, so only then are the bytes checked. */
function utf8(bytes: Buffer, start: number, end: number): string {
  const s = bytes.toString("utf8", start, end);
  if (s.includes("\ufffd") && !isUtf8(bytes.subarray(start, end))) throw new MsgpackError("string is not valid UTF-8");
  return s;
}

export class Reader {
  pos = 0;
  private readonly view: DataView;
  private asBuffer: Buffer | undefined;
  constructor(readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  peek(): number {
    if (this.pos >= this.buf.length) throw new MsgpackError("unexpected end of msgpack data");
    return this.buf[this.pos]!;
  }

  isNil(): boolean {
    return this.peek() === 0xc0;
  }

  isExt(): boolean {
    const b = this.peek();
    return (b >= 0xd4 && b <= 0xd8) || (b >= 0xc7 && b <= 0xc9);
  }

  private need(n: number): void {
    if (this.pos + n > this.buf.length) throw new MsgpackError("unexpected end of msgpack data");
  }

  private u8(): number {
    this.need(1);
    return this.buf[this.pos++]!;
  }
  private u16(): number {
    this.need(2);
    const v = this.view.getUint16(this.pos);
    this.pos += 2;
    return v;
  }
  private u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.pos);
    this.pos += 4;
    return v;
  }

  private bytes(n: number): Uint8Array {
    this.need(n);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** An unknown value (an extension) as its raw bytes, carried through untouched. As in go-cty, an
   * extension of more than one byte must be type 12 (refinements) and at most 1 KiB. */
  unknown(): Uint8Array {
    const start = this.pos;
    const b = this.u8();
    let n: number;
    if (b >= 0xd4 && b <= 0xd8) n = 1 << (b - 0xd4);
    else if (b === 0xc7) n = this.u8();
    else if (b === 0xc8) n = this.u16();
    else if (b === 0xc9) n = this.u32();
    else throw new MsgpackError(`expected an extension, got 0x${b.toString(16)}`);
    const type = this.u8();
    if (n > 1 && type !== REFINED_UNKNOWN) throw new MsgpackError(`unsupported extension type 0x${type.toString(16)} with length ${n}`);
    if (n > MAX_REFINEMENTS) throw new MsgpackError("oversize unknown value refinement");
    this.bytes(n);
    return this.buf.slice(start, this.pos);
  }

  skip(): void {
    const b = this.u8();
    if (b <= 0x7f || b >= 0xe0 || b === 0xc0 || b === 0xc2 || b === 0xc3) return;
    if ((b & 0xf0) === 0x80) return this.skipN((b & 0x0f) * 2);
    if ((b & 0xf0) === 0x90) return this.skipN(b & 0x0f);
    if ((b & 0xe0) === 0xa0) return void this.bytes(b & 0x1f);
    switch (b) {
      case 0xc4:
      case 0xd9:
        return void this.bytes(this.u8());
      case 0xc5:
      case 0xda:
        return void this.bytes(this.u16());
      case 0xc6:
      case 0xdb:
        return void this.bytes(this.u32());
      case 0xc7:
        return void this.bytes(this.u8() + 1);
      case 0xc8:
        return void this.bytes(this.u16() + 1);
      case 0xc9:
        return void this.bytes(this.u32() + 1);
      case 0xca:
        return void this.bytes(4);
      case 0xcb:
        return void this.bytes(8);
      case 0xcc:
      case 0xd0:
        return void this.bytes(1);
      case 0xcd:
      case 0xd1:
        return void this.bytes(2);
      case 0xce:
      case 0xd2:
        return void this.bytes(4);
      case 0xcf:
      case 0xd3:
        return void this.bytes(8);
      case 0xd4:
        return void this.bytes(2);
      case 0xd5:
        return void this.bytes(3);
      case 0xd6:
        return void this.bytes(5);
      case 0xd7:
        return void this.bytes(9);
      case 0xd8:
        return void this.bytes(17);
      case 0xdc:
        return this.skipN(this.u16());
      case 0xdd:
        return this.skipN(this.u32());
      case 0xde:
        return this.skipN(this.u16() * 2);
      case 0xdf:
        return this.skipN(this.u32() * 2);
    }
    throw new MsgpackError(`invalid msgpack byte 0x${b.toString(16)}`);
  }

  private skipN(n: number): void {
    for (let i = 0; i < n; i++) this.skip();
  }

  nil(): null {
    if (this.u8() !== 0xc0) throw new MsgpackError("expected nil");
    return null;
  }

  bool(): boolean {
    const b = this.u8();
    if (b === 0xc2) return false;
    if (b === 0xc3) return true;
    throw new MsgpackError(`expected bool, got 0x${b.toString(16)}`);
  }

  isString(): boolean {
    const b = this.peek();
    return (b & 0xe0) === 0xa0 || b === 0xd9 || b === 0xda || b === 0xdb;
  }

  str(): string {
    const b = this.u8();
    let n: number;
    if ((b & 0xe0) === 0xa0) n = b & 0x1f;
    else if (b === 0xd9) n = this.u8();
    else if (b === 0xda) n = this.u16();
    else if (b === 0xdb) n = this.u32();
    // cty also accepts bin where a string is expected (it writes type JSON as bin).
    else if (b === 0xc4) n = this.u8();
    else if (b === 0xc5) n = this.u16();
    else if (b === 0xc6) n = this.u32();
    else throw new MsgpackError(`expected string, got 0x${b.toString(16)}`);
    this.need(n);
    const start = this.pos;
    this.pos += n;
    if (n <= SHORT_STRING) {
      let s = "";
      for (let i = start, end = start + n; i < end; i++) {
        const c = this.buf[i]!;
        if (c >= 0x80) return utf8(this.text, start, start + n); // not ASCII
        s += String.fromCharCode(c);
      }
      return s;
    }
    return utf8(this.text, start, start + n);
  }

  /** The input as a Buffer, without copying: for toString() of long strings. */
  private get text(): Buffer {
    return (this.asBuffer ??= Buffer.from(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength));
  }

  /** A number as int (number or bigint when beyond 2^53), float, or cty's decimal string form. */
  num(): number | bigint | string {
    const b = this.peek();
    if (b <= 0x7f) return this.u8();
    if (b >= 0xe0) return this.u8() - 0x100;
    this.pos++;
    switch (b) {
      case 0xcc:
        return this.u8();
      case 0xcd:
        return this.u16();
      case 0xce:
        return this.u32();
      case 0xcf: {
        this.need(8);
        const v = this.view.getBigUint64(this.pos);
        this.pos += 8;
        return safe(v);
      }
      case 0xd0: {
        this.need(1);
        const v = this.view.getInt8(this.pos);
        this.pos += 1;
        return v;
      }
      case 0xd1: {
        this.need(2);
        const v = this.view.getInt16(this.pos);
        this.pos += 2;
        return v;
      }
      case 0xd2: {
        this.need(4);
        const v = this.view.getInt32(this.pos);
        this.pos += 4;
        return v;
      }
      case 0xd3: {
        this.need(8);
        const v = this.view.getBigInt64(this.pos);
        this.pos += 8;
        return safe(v);
      }
      case 0xca: {
        this.need(4);
        const v = this.view.getFloat32(this.pos);
        this.pos += 4;
        return v;
      }
      case 0xcb: {
        this.need(8);
        const v = this.view.getFloat64(this.pos);
        this.pos += 8;
        return v;
      }
    }
    this.pos--;
    if (this.isString()) return this.str();
    throw new MsgpackError(`expected number, got 0x${b.toString(16)}`);
  }

  arrayLength(): number {
    const b = this.u8();
    if ((b & 0xf0) === 0x90) return b & 0x0f;
    if (b === 0xdc) return this.u16();
    if (b === 0xdd) return this.u32();
    throw new MsgpackError(`expected array, got 0x${b.toString(16)}`);
  }

  mapLength(): number {
    const b = this.u8();
    if ((b & 0xf0) === 0x80) return b & 0x0f;
    if (b === 0xde) return this.u16();
    if (b === 0xdf) return this.u32();
    throw new MsgpackError(`expected map, got 0x${b.toString(16)}`);
  }
}

function safe(v: bigint): number | bigint {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}
