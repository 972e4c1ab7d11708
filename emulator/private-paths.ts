// The files and folders the emulator keeps secrets and data in (--db and its siblings, --data-dir; issue 38):
// what makes an existing one unsafe to adopt, in words for a one-line refusal. POSIX only: where there are no
// user ids (Windows) neither owner nor mode is read.
import type { Stats } from "node:fs";

/** Files: only their owner may read or write them (0600). */
export const PRIVATE_FILE_MODE = 0o600;
/** Folders: only their owner may enter them (0700). */
export const PRIVATE_DIR_MODE = 0o700;

const octal = (mode: number): string => `0${(mode & 0o777).toString(8)}`;

/**
 * Why an existing file (from lstat) is unsafe to keep secrets in, or undefined: a link (whoever planted it chose
 * its target), not a regular file, another user's (they read and change it), or open to group or others.
 */
export function unsafeFile(st: Stats): string | undefined {
  if (st.isSymbolicLink()) return "is a symbolic link";
  if (!st.isFile()) return "is not a regular file";
  const uid = process.geteuid?.();
  if (uid === undefined) return undefined;
  if (st.uid !== uid) return `is owned by another user (uid ${st.uid})`;
  if (st.mode & 0o077) return `can be read or written by other users (mode ${octal(st.mode)}; chmod 600 it)`;
  return undefined;
}

/**
 * Why an existing folder (from lstat) is unsafe to keep data in, or undefined: a link, not a folder, another
 * user's, or writable by group or others (who could swap its files). Readable by others is allowed: its files
 * are 0600 and its folders 0700.
 */
export function unsafeDir(st: Stats): string | undefined {
  if (st.isSymbolicLink()) return "is a symbolic link";
  if (!st.isDirectory()) return "is not a directory";
  const uid = process.geteuid?.();
  if (uid === undefined) return undefined;
  if (st.uid !== uid) return `is owned by another user (uid ${st.uid})`;
  if (st.mode & 0o022) return `can be written by other users (mode ${octal(st.mode)}; chmod go-w it)`;
  return undefined;
}
