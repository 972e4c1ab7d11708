// The one way the toolkit writes a file at a path a user gave (a config, a report, the metrics file, shard files,
// `export --out`, the action's result file): whole, never through a link another local user planted. The bytes go
// to a temporary file beside the target with a random name, created exclusively (O_CREAT|O_EXCL|O_NOFOLLOW: a
// planted symlink or file makes the open fail, it never receives them), flushed, then renamed over the target (a
// rename replaces a link at the target, it never writes through it) or, for a target that must not be replaced,
// hard-linked to it (fails when the target exists, a dangling link included). A reader never sees half a file.
// test/security/private-files.test.ts holds every other writer of the source to this.

import { closeSync, constants, fsyncSync, linkSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import path from "node:path";

export interface WriteFileOptions {
  /** The file's mode, less the umask (default 0600, owner-only; 0644 for a file others read, such as the metrics
   * file a collector reads). Set at creation, so the bytes are never readable by more than this. */
  mode?: number;
  /** Replace a file already at the target (default true). False: fail with EEXIST instead (`export --out`
   * without --force). */
  replace?: boolean;
}

/** Writes `data` to `file` whole, through an exclusively created temporary file beside it (see the header). */
export function writeFileExclusive(file: string, data: string | Uint8Array, options: WriteFileOptions = {}): void {
  const dir = path.dirname(file);
  const base = path.basename(file);
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  let temp = "";
  let fd = -1;
  for (let attempt = 0; fd < 0; attempt++) {
    temp = path.join(dir, `.${base}.${randomHex()}.tmp`);
    try {
      fd = openSync(temp, flags, options.mode ?? 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 5) throw err;
    }
  }
  let placed = false;
  try {
    const bytes = typeof data === "string" ? Buffer.from(data) : data;
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
    fsyncSync(fd);
    closeSync(fd);
    fd = -1;
    if (options.replace === false) linkSync(temp, file);
    else renameSync(temp, file);
    placed = options.replace !== false;
  } finally {
    if (fd >= 0) closeSync(fd);
    if (!placed) rmSync(temp, { force: true });
  }
}

/** 16 random hex digits, from Web Crypto: node:crypto would be loaded at start-up by every bundle importing this. */
function randomHex(): string {
  return Array.from(globalThis.crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("");
}
