// Opens a --db FILE so that no one else can read or swap it (issue 38): the database holds the JWT signing
// secret, 2FA seeds and webhook secrets. The file and its -wal and -shm are claimed before node:sqlite opens
// them: created exclusively (O_EXCL, O_NOFOLLOW) 0600, or, when they exist, refused unless they are regular files
// of this user that no one else can read or write. SQLite gives the -wal and -shm it later re-creates the
// database's mode, and opens them O_NOFOLLOW; an existing -journal (which SQLite would play back) is checked too.
import { closeSync, constants, fchmodSync, fstatSync, lstatSync, mkdirSync, openSync, rmSync, type Stats } from "node:fs";
import path from "node:path";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, unsafeFile } from "../private-paths.js";
import { openDatabase, type Database } from "./db.js";

const { O_CREAT, O_EXCL, O_NOFOLLOW, O_RDWR } = constants;

/** The one-line refusal: the flag, the file, what is wrong with it. */
function refuse(db: string, file: string, problem: string): never {
  const which = file === db ? `--db ${db}` : `--db ${db}: ${path.basename(file)}`;
  throw new Error(`${which} ${problem}; the emulator keeps its signing secret and data only in files of its own that no one else can read`);
}

const errno = (err: unknown): string | undefined => (err as NodeJS.ErrnoException).code;

interface Claimed {
  file: string;
  fd: number;
  stat: Stats;
  created: boolean;
}

/** Creates `file` 0600 (whatever the umask) or opens the existing one once it passes unsafeFile. */
function claim(db: string, file: string, create: boolean): Claimed | undefined {
  if (create) {
    try {
      const fd = openSync(file, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, PRIVATE_FILE_MODE);
      fchmodSync(fd, PRIVATE_FILE_MODE);
      return { file, fd, stat: fstatSync(fd), created: true };
    } catch (err) {
      if (errno(err) !== "EEXIST") refuse(db, file, `cannot be created (${errno(err) ?? String(err)})`);
    }
  }
  let before: Stats;
  try {
    before = lstatSync(file);
  } catch (err) {
    if (!create && errno(err) === "ENOENT") return undefined;
    refuse(db, file, `cannot be read (${errno(err) ?? String(err)})`);
  }
  const problem = unsafeFile(before);
  if (problem) refuse(db, file, problem);
  let fd: number;
  try {
    fd = openSync(file, O_RDWR | O_NOFOLLOW);
  } catch (err) {
    refuse(db, file, errno(err) === "ELOOP" ? "is a symbolic link" : `cannot be opened (${errno(err) ?? String(err)})`);
  }
  const stat = fstatSync(fd);
  if (stat.ino !== before.ino || stat.dev !== before.dev) {
    closeSync(fd);
    refuse(db, file, "was replaced while it was being opened");
  }
  return { file, fd, stat, created: false };
}

/** openDatabase(file) for a file on disk: claimed first, and checked to be the same file once SQLite has it. */
export function openPrivateDatabase(file: string): Database {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: PRIVATE_DIR_MODE });
  const claimed: Claimed[] = [];
  const release = (): void => {
    for (const c of claimed.splice(0)) closeSync(c.fd);
  };
  let db: Database | undefined;
  try {
    const main = claim(file, file, true)!;
    claimed.push(main);
    for (const sibling of [`${file}-wal`, `${file}-shm`]) claimed.push(claim(file, sibling, true)!);
    const journal = claim(file, `${file}-journal`, false);
    if (journal) claimed.push(journal);
    db = openDatabase(file);
    const now = lstatSync(file);
    if (now.ino !== main.stat.ino || now.dev !== main.stat.dev) refuse(file, file, "was replaced while it was being opened");
    return db;
  } catch (err) {
    db?.close();
    // A fresh start that failed leaves nothing behind that it made.
    if (claimed[0]?.created) for (const c of claimed) if (c.created) rmSync(c.file, { force: true });
    throw err;
  } finally {
    release();
  }
}
