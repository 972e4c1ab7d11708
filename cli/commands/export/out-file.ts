// Where `siteops export` writes (--out FILE|DIR, --force), checked before any request, and the write itself:
// a temporary file beside the target, created exclusively (common/private-file.ts), then linked (no --force:
// fails if the target appeared meanwhile) or renamed into place, so a failed run never leaves a half-written
// file. Missing directories on the way (`--out adopt/`) are created at the write, as `mkdir -p` would (0755 less
// the umask, like the file's 0644: configuration to commit, no secret in it), so a failed listing leaves none.
// Every problem is one UsageError naming --out and the path.
import { constants, accessSync, mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { writeFileExclusive } from "../../../common/private-file.js";
import { UsageError } from "../../exit-codes.js";

/** The path's stat, or undefined when nothing is there (a file on the way, ENOTDIR, included). */
function statIfAny(p: string) {
  try {
    return statSync(p, { throwIfNoEntry: false });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOTDIR") return undefined;
    throw err;
  }
}

/** The file to write: `out` itself, or `defaultName` inside it when it is a directory (or ends with a slash). */
export function resolveOut(out: string, defaultName: string, force: boolean): string {
  if (out === "") throw new UsageError("--out needs a file or directory name");
  const isDir = /[\\/]$/.test(out) || statSync(out, { throwIfNoEntry: false })?.isDirectory() === true;
  const file = isDir ? path.join(out, defaultName) : out;
  // The nearest directory that exists: the file's own, or the one its missing directories are made in.
  let dir = path.dirname(file);
  let dirStat = statIfAny(dir);
  while (!dirStat && path.dirname(dir) !== dir) {
    dir = path.dirname(dir);
    dirStat = statIfAny(dir);
  }
  if (!dirStat?.isDirectory()) throw new UsageError(`--out: ${dir} is not a directory`);
  const existing = statSync(file, { throwIfNoEntry: false });
  if (existing?.isDirectory()) throw new UsageError(`--out: ${file} is a directory`);
  if (existing && !force) throw new UsageError(`--out: ${file} exists; give --force to replace it`);
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new UsageError(`--out: cannot write in ${dir} (permission denied)`);
  }
  return file;
}

/** Writes `text` to `file` (from resolveOut) in one step (common/private-file.ts: never through a planted link);
 * without `force`, fails when the file appeared meanwhile. */
export function writeOut(file: string, text: string, force: boolean): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
    writeFileExclusive(file, text, { mode: 0o644, replace: force });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") throw new UsageError(`--out: ${file} exists; give --force to replace it`);
    throw cannotWrite(file, err);
  }
}

/** The usage error for a file --out names that could not be written, saying why in a word. */
export function cannotWrite(file: string, err: unknown): UsageError {
  const code = (err as NodeJS.ErrnoException).code;
  return new UsageError(`--out: cannot write ${file} (${code === "EACCES" || code === "EPERM" ? "permission denied" : (code ?? String(err))})`);
}
