// Streaming an upload's body to disk: a pipe that leaves the request usable for an error response,
// a sink for data that is only hashed, and the buffer size the upload path is tuned to.
import { createHash, type Hash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { Writable, type Readable, pipeline as pipelineCb } from "node:stream";
import { hashFileRange, type ExpectedDigest, type HashingCounter } from "./upload-digest.js";

/** The request ended before its body was complete (the client went away). */
export class Interrupted extends Error {}

/**
 * Stream buffers on the upload path: the 16 KiB default makes the socket pause and resume every few
 * reads, and the file get one small write per network read (through the thread pool), a large share of
 * the CPU an upload costs the emulator (BENCHMARKS.md, uploads). With 4 MiB the file gets large writev batches.
 */
export const UPLOAD_BUFFER_BYTES = 4 * 1024 * 1024;

/**
 * Pipes the request into counter -> sink. Unlike stream.pipeline, a failure does not destroy the
 * request (so an error response can still be sent); a request that ends early rejects with Interrupted.
 */
export function streamInto(source: Readable, counter: HashingCounter, sink: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = source as IncomingMessage;
    const onGone = (): void => {
      if (!req.complete) counter.destroy(new Interrupted("the connection closed before the body was complete"));
    };
    source.once("error", onGone);
    source.once("close", onGone);
    pipelineCb(counter, sink, (err) => {
      source.off("error", onGone);
      source.off("close", onGone);
      source.unpipe(counter);
      if (err) reject(err);
      else resolve();
    });
    source.pipe(counter);
  });
}

export const devNull = (): Writable => new Writable({ write: (_c, _e, done) => done() });

export function digestOf(hash: Hash, algorithm: "base64" | "hex"): string {
  return hash.copy().digest(algorithm);
}

/** True when every expected digest is the digest of bytes [0, total) of the file. */
export async function wholeFileMatches(file: string, total: number, digests: ExpectedDigest[], sha256: Hash | undefined): Promise<boolean> {
  for (const d of digests) {
    const hash = d.algorithm === "sha256" && sha256 ? sha256.copy() : await hashFileRange(file, 0, total, createHash(d.algorithm));
    if (hash.digest("base64") !== d.base64) return false;
  }
  return true;
}
