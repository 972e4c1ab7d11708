// The earlier export whose keys `siteops export` keeps (provider/export/keys.ts): the file --out replaces, or the
// one --keys-from names. Read as a regular file only (a FIFO is refused, not waited on), at most
// MAX_KEYS_FILE_BYTES; the file --out replaces is not read through a link (the write replaces the link, not its
// target). Nothing of its text is ever printed: only how many objects it named.
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { countKeys, previousKeys, type PreviousKeys } from "../../../provider/export/previous-export.js";
import { UsageError } from "../../exit-codes.js";

/** Far above the largest export (100,000 sites in the map form: about 25 MB). */
const MAX_KEYS_FILE_BYTES = 256 * 1024 * 1024;

/** The keys of `file` (`flag` names where it came from in errors); undefined when `optional` and it is absent,
 * not a regular file, or names no object. */
export function readPreviousKeys(file: string, flag: "--keys-from" | "--out", optional: boolean): PreviousKeys | undefined {
  let fd = -1;
  let text: string;
  const fail = (problem: string) => {
    if (optional) return undefined;
    throw new UsageError(`${flag}: ${file}: ${problem}`);
  };
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | (flag === "--out" ? (constants.O_NOFOLLOW ?? 0) : 0));
    const stat = fstatSync(fd);
    if (!stat.isFile()) return fail("not a file");
    if (stat.size > MAX_KEYS_FILE_BYTES) return fail(`larger than ${MAX_KEYS_FILE_BYTES / 1024 / 1024} MB: not an export`);
    text = readFileSync(fd, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return fail(code === "ENOENT" ? "no such file" : `cannot read it (${code ?? (err as Error).message})`);
  } finally {
    if (fd >= 0) closeSync(fd);
  }
  const keys = previousKeys(text);
  if (countKeys(keys) === 0) return fail("names no site or webhook endpoint (not a file written by siteops export)");
  return keys;
}
