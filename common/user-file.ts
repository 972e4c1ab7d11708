// The one way the toolkit reads a file a user names that decides what a run does (a shard file, a vulnerability
// policy): opened without blocking (O_NONBLOCK: a FIFO is refused as "not a file" at once, never waited on with the
// event loop stuck and SIGINT/SIGTERM unheard), a regular file only (no device, FIFO or directory), never more
// than the size its fstat gave nor more than a cap (a file of /proc says size 0 and reads as nothing: a link to
// /proc/self/environ through a linked folder yields no environment), and, as asked, not through a link at the
// path (O_NOFOLLOW) and not another user's or one others can write. Every refusal is a phrase without the
// file's name or contents; the caller names the file and its flag or input.

import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/** A file that cannot be read as asked; `message` is the problem alone (`not a file`, `no such file`). */
export class UserFileError extends Error {}

/** How {@link readUserFile} reads. */
export interface ReadUserFileOptions {
  /** Refused unread past this many bytes. */
  maxBytes: number;
  /** Refuse a symbolic link at the path (O_NOFOLLOW), whose target a checkout or another user chooses. */
  noLink?: boolean;
  /**
   * Refuse a file owned by a user other than this one (or root), or writable by others, and a link at the path:
   * another local user could have written it. Not on Windows (no user ids).
   */
  ownOnly?: boolean;
}

/** The file's text (UTF-8), read as the header says; {@link UserFileError} with the problem otherwise. */
export function readUserFile(file: string, options: ReadUserFileOptions): string {
  const noLink = options.noLink || options.ownOnly;
  let fd = -1;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | (noLink ? (constants.O_NOFOLLOW ?? 0) : 0));
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new UserFileError("not a file");
    const uid = process.getuid?.();
    if (options.ownOnly && uid !== undefined) {
      if (stat.uid !== uid && stat.uid !== 0)
        throw new UserFileError(`belongs to another user (uid ${stat.uid}), who could change what it says: not read; copy it, or run as its owner`);
      if (stat.mode & 0o002) throw new UserFileError(`can be written by any user (mode 0${(stat.mode & 0o777).toString(8)}): not read; chmod o-w it`);
    }
    if (stat.size > options.maxBytes) throw new UserFileError(`larger than ${sizeOf(options.maxBytes)}: not read`);
    const bytes = Buffer.alloc(stat.size);
    let at = 0;
    while (at < bytes.length) {
      const n = readSync(fd, bytes, at, bytes.length - at, at);
      if (n === 0) break;
      at += n;
    }
    return bytes.subarray(0, at).toString("utf8");
  } catch (err) {
    if (err instanceof UserFileError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP" && noLink) throw new UserFileError("is a symbolic link, which could point anywhere: not read; give the file itself");
    throw new UserFileError(code === "ENOENT" ? "no such file" : `cannot read it (${code ?? (err as Error).message})`);
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}

function sizeOf(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MB` : `${bytes / 1024} KB`;
}
