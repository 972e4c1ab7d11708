// A job's state between runs: the snapshot requests its recent runs made, for a rerun to adopt.
// A rerun (after Ctrl-C, a crash or a timeout) adopts them instead of snapshotting every site again (the core's
// snapshotFleet `adopt` and `onRequest`). One file per job, `<state dir>/<job name>.jsonl`, the state dir being
// $XDG_STATE_HOME/siteops (default ~/.local/state/siteops, owner-only): one JSON line per request, appended
// before the request is sent and again once its snapshot is known, so a run killed between the two still left
// the request's idempotency key behind. Each run first rewrites the file without the lines past their use (a
// new file created exclusively, renamed over the old one) and ignores a line cut short by a crash.

import { closeSync, constants, lstatSync, openSync, readFileSync, writeSync } from "node:fs";
import path from "node:path";
import type { SnapshotRequestRecord } from "../../src/fleet.js";
import { writeFileExclusive } from "../../common/private-file.js";
import { CliError, EXIT, UsageError } from "../exit-codes.js";
import { privateDir } from "./lock.js";

/** The service keeps an idempotency key this long: a request older than that cannot be sent again as the same
 * request, so the state keeps lines for at least this long whatever the window. */
const KEY_LIFETIME_MS = 24 * 3600_000;

export interface JobState {
  file: string;
  /** The latest request per site made within the window, oldest first. */
  earlier: SnapshotRequestRecord[];
  /** Appends a request (before it is sent, then with its snapshot). */
  record(request: SnapshotRequestRecord): void;
  close(): void;
}

interface Line {
  at: string;
  site: string;
  key: string;
  params: SnapshotRequestRecord["params"];
  snapshot: string | null;
}

/** The state dir: $XDG_STATE_HOME/siteops, else ~/.local/state/siteops. */
function stateDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_STATE_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, "siteops");
  if (!env.HOME) throw new UsageError("no directory for the job's state: set XDG_STATE_HOME (or HOME), or pass --window 0");
  return path.join(env.HOME, ".local", "state", "siteops");
}

/** Opens the state of job `name`: the requests of the last `windowMs` to adopt, and a file to append to. */
export function openJobState(env: NodeJS.ProcessEnv, name: string, windowMs: number, now = Date.now()): JobState {
  const dir = stateDir(env);
  const file = path.join(dir, `${name}.jsonl`);
  let fd = -1;
  const lines: Line[] = [];
  try {
    privateDir(dir, 0o077, "job state directory", "set XDG_STATE_HOME to one, or pass --window 0");
    lines.push(...readLines(file).filter((l) => Date.parse(l.at) >= now - Math.max(windowMs, KEY_LIFETIME_MS)));
    writeFileExclusive(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
    fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`cannot use the job state file ${file}: ${(err as Error).message} (--window 0 runs without it)`, EXIT.FAILED);
  }
  const latest = new Map<string, Line>();
  for (const line of lines) if (Date.parse(line.at) >= now - windowMs) latest.set(line.site, line);
  /** When each key was first requested: a line with its snapshot keeps the request's time. */
  const requested = new Map(lines.map((l) => [l.key, l.at]));
  return {
    file,
    earlier: [...latest.values()].map((l) => ({ siteId: l.site, idempotencyKey: l.key, params: l.params, snapshotId: l.snapshot })),
    record(request) {
      const at = requested.get(request.idempotencyKey) ?? new Date().toISOString();
      requested.set(request.idempotencyKey, at);
      const line: Line = { at, site: request.siteId, key: request.idempotencyKey, params: request.params, snapshot: request.snapshotId };
      writeSync(fd, `${JSON.stringify(line)}\n`);
    },
    close() {
      if (fd >= 0) closeSync(fd);
      fd = -1;
    },
  };
}

/** The file's well-formed lines; none when it does not exist. It must be a regular file of this user. */
function readLines(file: string): Line[] {
  let text: string;
  try {
    const info = lstatSync(file);
    if (!info.isFile() || (process.getuid && info.uid !== process.getuid())) {
      throw new UsageError(`job state file ${file} is not a regular file of this user: remove it, or pass --window 0`);
    }
    const fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    try {
      text = readFileSync(fd, "utf8");
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  const lines: Line[] = [];
  for (const raw of text.split("\n")) {
    if (!raw.trim()) continue;
    try {
      const l = JSON.parse(raw) as Partial<Line>;
      const ok =
        typeof l.at === "string" &&
        !Number.isNaN(Date.parse(l.at)) &&
        typeof l.site === "string" &&
        typeof l.key === "string" &&
        typeof l.params === "object" &&
        l.params !== null &&
        (l.snapshot === null || typeof l.snapshot === "string");
      if (ok) lines.push(l as Line);
    } catch {
      // A line cut short by a crash while it was written: its request was not sent.
    }
  }
  return lines;
}
