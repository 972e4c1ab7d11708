// A job's lock: one run of a job at a time (and privateDir, the owner-only directories a job's files live in).
// `--lock FILE`, or by default a lock in the runtime dir named after the job (its identity: the command,
// service, account and site selection; run-job.ts), so two overlapping runs of the same job do not both run,
// whatever their output flags (--report, --quiet, ...). The second one exits 75 (EX_TEMPFAIL) with a line saying
// who holds the lock. A lock left by a process that died (same host, pid gone) is taken over, and so is one whose
// pid is alive but is another process (issue 40 item 7): on Linux the lock records the holder's boot id and start
// time (/proc), and a live pid with another start time, or after a reboot, is not the holder; a lock without them
// (an older siteops, a hand-written file) whose live pid's command line does not name siteops is not one either.
// Either takeover is said in one line on stderr. The file is created with O_EXCL and removed on exit.

import { closeSync, existsSync, lstatSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { CliError, EXIT, UsageError } from "../exit-codes.js";

export interface Lock {
  file: string;
  release(): void;
}

interface Holder {
  pid: number;
  host: string;
  started_at: string;
  command: string;
  /** Linux: /proc/sys/kernel/random/boot_id when the lock was taken. */
  boot_id?: string;
  /** Linux: the holder's start time, in clock ticks after boot (/proc/<pid>/stat, field 22). */
  process_start?: string;
}

/** The runtime dir for default locks: $XDG_RUNTIME_DIR/siteops, else <tmp>/siteops-<uid> (0700, ours). */
function runtimeDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_RUNTIME_DIR;
  const uid = process.getuid?.() ?? 0;
  const dir = xdg && path.isAbsolute(xdg) ? path.join(xdg, "siteops") : path.join(tmpdir(), `siteops-${uid}`);
  return privateDir(dir, 0o022, "lock directory", "pass --lock FILE");
}

/** Makes `dir` (0700) and checks that it is this user's own and has none of the `closed` mode bits (0o022:
 * no one else writes in it; 0o077: owner-only): in a shared /tmp another user could have made it first (or a
 * symlink), and a job never writes through theirs. */
export function privateDir(dir: string, closed: number, what: string, hint: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const info = lstatSync(dir);
  if (!info.isDirectory() || (process.getuid && info.uid !== process.getuid()) || (info.mode & closed) !== 0) {
    throw new UsageError(`${what} ${dir} is not a private directory of this user: ${hint}`);
  }
  return dir;
}

/** The default lock file of a job: `<runtime dir>/<job name>.lock` (run-job.ts names jobs). */
export function defaultLockFile(env: NodeJS.ProcessEnv, job: string): string {
  return path.join(runtimeDir(env), `${job}.lock`);
}

/** Takes the lock or throws CliError(75). `warn` says that a stale lock was taken over (default: a line on stderr). */
export function acquireLock(file: string, command: string, warn: (line: string) => void = (line) => process.stderr.write(`siteops: ${line}\n`)): Lock {
  const holder: Holder = { pid: process.pid, host: hostname(), started_at: new Date().toISOString(), command, ...processIdentity(process.pid) };
  for (let attempt = 0; ; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, "wx", 0o600);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT") throw new UsageError(`--lock ${file}: the directory does not exist`);
      if (code !== "EEXIST") throw new UsageError(`cannot create lock file ${file}: ${(err as Error).message}`);
      const other = readHolder(file);
      const verdict = attempt === 0 && other ? staleness(other) : "held";
      if (verdict !== "held") {
        if (verdict === "another process" && other) {
          warn(`lock file ${file} names pid ${other.pid} (since ${other.started_at}), which is now another process, not a siteops run: taking it over`);
        }
        try {
          unlinkSync(file);
        } catch {
          // Another run removed it first; the next attempt decides.
        }
        continue;
      }
      const who = other ? ` (pid ${other.pid} on ${other.host}, since ${other.started_at}: ${other.command})` : "";
      throw new CliError(`another run holds the lock ${file}${who}: not starting; remove the file if no such run is active`, EXIT.LOCKED);
    }
    writeSync(fd, `${JSON.stringify(holder)}\n`);
    closeSync(fd);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      process.off("exit", release);
      try {
        // Only our own lock: a stale-lock takeover by another run must not be undone.
        if (readHolder(file)?.pid === process.pid) unlinkSync(file);
      } catch {
        // already gone
      }
    };
    process.on("exit", release);
    return { file, release };
  }
}

function readHolder(file: string): Holder | undefined {
  try {
    const data = JSON.parse(readFileSync(file, "utf8")) as Partial<Holder>;
    return typeof data.pid === "number" && typeof data.host === "string" ? (data as Holder) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a holder on this host is gone, is another process now (its pid reused), or still holds the lock. */
function staleness(holder: Holder): "gone" | "another process" | "held" {
  if (holder.host !== hostname()) return "held";
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH" ? "gone" : "held";
  }
  const now = processIdentity(holder.pid);
  if (!now.process_start || !now.boot_id) return "held"; // no /proc: the pid is all there is to go on
  if (holder.process_start && holder.boot_id) {
    return holder.boot_id === now.boot_id && holder.process_start === now.process_start ? "held" : "another process";
  }
  // A lock without an identity: a siteops run names siteops on its command line (the launcher, siteops.cjs).
  return commandLine(holder.pid).includes("siteops") ? "held" : "another process";
}

/** The boot id and the start time of `pid` (Linux); empty where /proc does not tell. */
function processIdentity(pid: number): Pick<Holder, "boot_id" | "process_start"> {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 2, the command, is in parentheses and may hold spaces: count the fields after its last ")".
    const process_start = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    const boot_id = existsSync("/proc/sys/kernel/random/boot_id") ? readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() : undefined;
    return process_start && boot_id ? { boot_id, process_start } : {};
  } catch {
    return {};
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}
