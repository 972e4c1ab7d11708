// Bytes for the emulator's upload tests: deterministic data, its SHA-256 (hex and as a Content-Digest), and the
// headers of a whole-body or a chunked PUT.
import { createHash } from "node:crypto";

export const sha256hex = (b: Buffer): string => createHash("sha256").update(b).digest("hex");
export const digestHeader = (b: Buffer): string => `sha-256=:${createHash("sha256").update(b).digest("base64")}:`;
export const octet = { "content-type": "application/octet-stream" };

/** Deterministic pseudo-random bytes (cheap, and different for each seed). */
export function bytes(n: number, seed = 1): Buffer {
  const b = Buffer.alloc(n);
  let x = seed * 2654435761;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
}

export function chunkHeaders(start: number, data: Buffer, total: number): Record<string, string> {
  return { "content-range": `bytes ${start}-${start + data.length - 1}/${total}` };
}
