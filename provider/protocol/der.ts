// A minimal DER (ASN.1) writer: just the types an X.509 v3 certificate needs. Kept tiny on purpose so the
// provider carries no certificate library and pays no start-up cost for one.

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function tlv(tag: number, body: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

export const sequence = (...items: Uint8Array[]): Buffer => tlv(0x30, Buffer.concat(items));
export const set = (...items: Uint8Array[]): Buffer => tlv(0x31, Buffer.concat(items));
export const octetString = (body: Uint8Array): Buffer => tlv(0x04, body);
export const utf8String = (s: string): Buffer => tlv(0x0c, Buffer.from(s, "utf8"));
export const boolean = (v: boolean): Buffer => tlv(0x01, Buffer.from([v ? 0xff : 0x00]));
/** BIT STRING with no unused bits (keys, signatures and the flag bytes below are whole octets). */
export const bitString = (body: Uint8Array, unusedBits = 0): Buffer => tlv(0x03, Buffer.concat([Buffer.from([unusedBits]), body]));
/** Context-specific constructed tag [n] EXPLICIT. */
export const explicit = (n: number, inner: Uint8Array): Buffer => tlv(0xa0 | n, inner);

/**
 * INTEGER from big-endian magnitude bytes, encoded as a *positive* number in its minimal form: leading zero
 * octets dropped, and exactly one 0x00 added back only when the top bit is set (else it would read as
 * negative). Go rejects negative serials; OpenSSL rejects non-minimal ones.
 */
export function unsignedInteger(magnitude: Uint8Array): Buffer {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  let body = Buffer.from(magnitude.subarray(start));
  if (body.length === 0) body = Buffer.from([0]);
  if (body[0]! & 0x80) body = Buffer.concat([Buffer.from([0]), body]);
  return tlv(0x02, body);
}

export function smallInteger(n: number): Buffer {
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return unsignedInteger(Buffer.from(bytes.length ? bytes : [0]));
}

/** OBJECT IDENTIFIER: each sub-identifier in base 128, the first two joined as 40 * a + b (X.690 8.19),
 * which is itself one sub-identifier and may take several bytes (2.999 is 0x88 0x37). */
export function oid(dotted: string): Buffer {
  const parts = dotted.split(".").map(Number);
  const out: number[] = [];
  for (const p of [parts[0]! * 40 + parts[1]!, ...parts.slice(2)]) {
    const chunk: number[] = [p % 128];
    for (let v = Math.floor(p / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v % 128) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime for years 1950-2049, GeneralizedTime for any other (RFC 5280 4.1.2.5). */
export function time(d: Date): Buffer {
  const year = d.getUTCFullYear();
  if (year < 0 || year > 9999) throw new RangeError(`year ${year} cannot be written in a certificate`);
  const iso = d.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const digits = iso.slice(0, 19).replace(/[-T:]/g, "");
  return year >= 1950 && year < 2050 ? tlv(0x17, Buffer.from(`${digits.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${digits}Z`));
}
