// Content-Digest (RFC 9530) parsing, and the streaming pieces an upload is made of: a pass-through
// that hashes and counts bytes under a limit, and hashing a byte range of a file on disk.
import { createHash, type Hash } from "node:crypto";
import { createReadStream } from "node:fs";
import { Transform, type TransformCallback } from "node:stream";
import { HttpError, MESSAGES, badRequest } from "../errors.js";

export type DigestAlgorithm = "sha256" | "sha512";
export interface ExpectedDigest {
  algorithm: DigestAlgorithm;
  base64: string;
}

const ALGORITHMS: Record<string, DigestAlgorithm> = { "sha-256": "sha256", "sha-512": "sha512" };

/**
 * The digests we can check from a `Content-Digest` header, e.g. `sha-256=:<base64>:`. Unknown
 * algorithms are ignored (the RFC lets a recipient do so); a malformed header is a 400.
 */
export function parseContentDigest(header: string | string[] | undefined): ExpectedDigest[] {
  if (header === undefined) return [];
  const text = Array.isArray(header) ? header.join(",") : header;
  const out: ExpectedDigest[] = [];
  for (const member of text.split(",")) {
    if (member.trim() === "") continue;
    const m = /^\s*([A-Za-z0-9_-]+)\s*=\s*:([A-Za-z0-9+/]*={0,2}):\s*$/.exec(member);
    if (!m) throw badRequest("Invalid Content-Digest header");
    const algorithm = ALGORITHMS[m[1]!.toLowerCase()];
    if (algorithm) out.push({ algorithm, base64: m[2]! });
  }
  return out;
}

/**
 * Hashes and counts what passes through: SHA-256 (unless `sha256: false`, for a resumable chunk whose
 * running whole-upload hash is fed through `also` instead: hashing each byte twice would cost throughput)
 * plus any algorithm a digest asks for.
 */
export class HashingCounter extends Transform {
  readonly hashes = new Map<DigestAlgorithm, Hash>();
  bytes = 0;
  readonly #limit: number;

  readonly #also: Hash[];

  /** `also`: further hashes fed the same bytes (the running hash of a resumable upload). */
  constructor(limit: number, algorithms: DigestAlgorithm[] = [], also: Hash[] = [], options: { sha256?: boolean; highWaterMark?: number } = {}) {
    super({ highWaterMark: options.highWaterMark });
    this.#limit = limit;
    this.#also = also;
    if (options.sha256 !== false) this.hashes.set("sha256", createHash("sha256"));
    for (const a of algorithms) if (!this.hashes.has(a)) this.hashes.set(a, createHash(a));
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.#limit) {
      done(new HttpError(413, MESSAGES.tooLarge));
      return;
    }
    for (const h of this.hashes.values()) h.update(chunk);
    for (const h of this.#also) h.update(chunk);
    done(null, chunk);
  }

  /** True when every expected digest matches what passed through (digests are final afterwards). */
  matches(expected: ExpectedDigest[]): boolean {
    return expected.every((d) => this.hashes.get(d.algorithm)!.copy().digest("base64") === d.base64);
  }
}

/** Feeds bytes [start, end) of a file into `hash` (end exclusive). */
export async function hashFileRange(path: string, start: number, end: number, hash: Hash): Promise<Hash> {
  if (end <= start) return hash;
  for await (const chunk of createReadStream(path, { start, end: end - 1 })) hash.update(chunk as Buffer);
  return hash;
}
