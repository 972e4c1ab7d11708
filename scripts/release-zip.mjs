// The two things a Terraform provider package is identified by: a reproducible zip of its files (fixed
// timestamps, Unix modes kept so the executable stays executable) and Terraform's hashes of it: `zh:` (SHA-256
// of the zip, as in SHA256SUMS) and `h1:` (Terraform's hash of the files inside, what lock files record).
import { createHash } from "node:crypto";
import zlib from "node:zlib";

/** 1980-01-01 00:00, the earliest DOS date: every entry gets it, so equal inputs give equal zips. */
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const DOS_TIME = 0;

let table;
function crc32(data) {
  if (zlib.crc32) return zlib.crc32(data); // Node >= 20.15
  table ??= Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let c = 0xffffffff;
  for (const byte of data) c = table[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * A zip of `files` ({ name, data: Buffer, mode }), deflated, in the order given. Sizes must stay under 4 GiB
 * (no zip64): a provider executable is about 130 MB.
 */
export function zipFiles(files) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const { name, data, mode } of files) {
    const nameBytes = Buffer.from(name, "utf8");
    const packed = zlib.deflateRawSync(data, { level: 6 });
    const crc = crc32(data);
    // From "version needed" to "extra field length", the local header and the central directory entry agree.
    const shared = Buffer.alloc(26);
    shared.writeUInt16LE(20, 0); // version needed: 2.0 (deflate)
    shared.writeUInt16LE(0x0800, 2); // names are UTF-8
    shared.writeUInt16LE(8, 4); // deflate
    shared.writeUInt16LE(DOS_TIME, 6);
    shared.writeUInt16LE(DOS_DATE, 8);
    shared.writeUInt32LE(crc, 10);
    shared.writeUInt32LE(packed.length, 14);
    shared.writeUInt32LE(data.length, 18);
    shared.writeUInt16LE(nameBytes.length, 22); // then no extra field
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    shared.copy(local, 4);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by: Unix, so the external attributes hold the file mode
    shared.copy(central, 6);
    central.writeUInt32LE(((0o100000 | mode) << 16) >>> 0, 38); // regular file + permission bits
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

export const sha256 = (data) => createHash("sha256").update(data).digest("hex");

/** Terraform's `zh:` hash: the SHA-256 of the zip archive itself (legacy, but what the registry lists). */
export const zipHash = (zip) => `zh:${sha256(zip)}`;

/**
 * Terraform's `h1:` hash of a package (Go's dirhash.Hash1): the SHA-256 of the lines "<sha256 hex>  <name>\n"
 * of its files in name order, in base64.
 */
export function packageHash(files) {
  const summary = [...files]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(({ name, data }) => `${sha256(data)}  ${name}\n`)
    .join("");
  return `h1:${createHash("sha256").update(summary).digest("base64")}`;
}
