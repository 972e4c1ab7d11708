// A job's state between runs: the requests its recent runs made (snapshots; a rollout's pipelines), for a rerun
// to adopt. A rerun (after Ctrl-C, a crash or a timeout) adopts them instead of snapshotting every site again or
// opening a second pipeline (the core's snapshotFleet and rolloutUpgrade `adopt` and `onRequest`). One file per job, `<state dir>/<job name>.jsonl`, the state dir being
// $XDG_STATE_HOME/siteops (default ~/.local/state/siteops, owner-only): one JSON line per request, appended
// before the request is sent and again once its snapshot is known, so a run killed between the two still left
// the request's idempotency key behind. Each run first rewrites the file without the lines past their use (a
// new file created exclusively, renamed over the old one). What it cannot trust it says on stderr: a line cut
// short at the end (a crash while writing it) and lines of another job or dated in the future are skipped with
// a warning; any other unreadable line (random bytes, a NUL block) refuses the run (docs/design.md section 7).

import { closeSync, constants, lstatSync, openSync, readFileSync, writeSync } from "node:fs";
import path from "node:path";
import type { PipelineRequestRecord, SnapshotRequestRecord } from "../../src/fleet.js";
import { writeFileExclusive } from "../../common/private-file.js";
import { CliError, EXIT, UsageError } from "../exit-codes.js";
import { privateDir } from "./lock.js";

/** The service keeps an idempotency key this long: a request older than that cannot be sent again as the same
 * request, so the state keeps lines for at least this long whatever the window. */
const KEY_LIFETIME_MS = 24 * 3600_000;
/** How far after now a line may be dated and still count: clocks of one machine disagree this much at most
 * (an NTP step); a line dated later was written with the clock ahead, and would otherwise be adopted for days. */
const CLOCK_SKEW_MS = 5 * 60_000;

export interface JobState<R = SnapshotRequestRecord> {
  file: string;
  /** The latest request per site made within the window, oldest first. */
  earlier: R[];
  /** Appends a request (before it is sent, then with its snapshot or pipeline). */
  record(request: R): void;
  close(): void;
}

interface Line {
  /** The job's name: a line of another job (a file copied or pasted from) is never adopted. */
  job: string;
  at: string;
  site: string;
  key: string;
  params: object;
  /** A snapshot job's line: the snapshot, once known. */
  snapshot?: string | null;
  /** A rollout's line: the pipeline, once known. */
  pipeline?: string | null;
}

/** What a kind of request keeps in a line, and reads back from one. */
interface LineCodec<R> {
  toLine(request: R): Pick<Line, "site" | "key" | "params" | "snapshot" | "pipeline">;
  fromLine(line: Line): R;
}

const SNAPSHOTS: LineCodec<SnapshotRequestRecord> = {
  toLine: (r) => ({ site: r.siteId, key: r.idempotencyKey, params: r.params, snapshot: r.snapshotId }),
  fromLine: (l) => ({ siteId: l.site, idempotencyKey: l.key, params: l.params as SnapshotRequestRecord["params"], snapshotId: l.snapshot ?? null }),
};

const PIPELINES: LineCodec<PipelineRequestRecord> = {
  toLine: (r) => ({ site: r.siteId, key: r.idempotencyKey, params: r.params, pipeline: r.pipelineId }),
  fromLine: (l) => ({
    siteId: l.site,
    idempotencyKey: l.key,
    params: l.params as PipelineRequestRecord["params"],
    pipelineId: l.pipeline ?? null,
    sentAt: l.at,
  }),
};

/** The state dir: $XDG_STATE_HOME/siteops, else ~/.local/state/siteops (seen-records.ts keeps its files there too). */
export function stateDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_STATE_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, "siteops");
  if (!env.HOME) throw new UsageError("no directory for the job's state: set XDG_STATE_HOME (or HOME), or pass --window 0");
  return path.join(env.HOME, ".local", "state", "siteops");
}

/** Opens the state of job `name`: the snapshot requests of the last `windowMs` to adopt, and a file to append
 * to. `warn` is told (one line each) of what was skipped. */
export function openJobState(env: NodeJS.ProcessEnv, name: string, windowMs: number, warn: (line: string) => void, now = Date.now()): JobState {
  return openState(env, name, windowMs, warn, now, SNAPSHOTS);
}

/** Opens the state of rollout job `name`: its pipeline requests of the last `windowMs`, as openJobState. */
export function openRolloutState(
  env: NodeJS.ProcessEnv,
  name: string,
  windowMs: number,
  warn: (line: string) => void,
  now = Date.now(),
): JobState<PipelineRequestRecord> {
  return openState(env, name, windowMs, warn, now, PIPELINES);
}

function openState<R extends { idempotencyKey: string }>(
  env: NodeJS.ProcessEnv,
  name: string,
  windowMs: number,
  warn: (line: string) => void,
  now: number,
  codec: LineCodec<R>,
): JobState<R> {
  const dir = stateDir(env);
  const file = path.join(dir, `${name}.jsonl`);
  let fd = -1;
  const lines: Line[] = [];
  try {
    privateDir(dir, 0o077, "job state directory", "set XDG_STATE_HOME to one, or pass --window 0");
    const read = readLines(file, name);
    if (read.cut) warn(`job state file ${file}: skipped its last line, cut short (a run stopped while writing it; its request was not sent)`);
    if (read.foreign) warn(`job state file ${file}: skipped ${plural(read.foreign, "line")} of another job (or of an older siteops): never adopted`);
    const future = read.lines.filter((l) => Date.parse(l.at) > now + CLOCK_SKEW_MS);
    if (future.length) {
      const latest = future
        .map((l) => l.at)
        .sort()
        .at(-1);
      warn(`job state file ${file}: skipped ${plural(future.length, "line")} dated after now (up to ${latest}: written with the clock ahead), not adopted`);
    }
    const oldest = now - Math.max(windowMs, KEY_LIFETIME_MS);
    lines.push(...read.lines.filter((l) => Date.parse(l.at) >= oldest && Date.parse(l.at) <= now + CLOCK_SKEW_MS));
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
    earlier: [...latest.values()].map((l) => codec.fromLine(l)),
    record(request) {
      const at = requested.get(request.idempotencyKey) ?? new Date().toISOString();
      requested.set(request.idempotencyKey, at);
      const line: Line = { job: name, at, ...codec.toLine(request) };
      writeSync(fd, `${JSON.stringify(line)}\n`);
    },
    close() {
      if (fd >= 0) closeSync(fd);
      fd = -1;
    },
  };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** A job's file as text (the state, what a job told: seen-records.ts), undefined when it does not exist. Read
 * without following a link; one that is not a regular file of this user is refused with `notOwn()`. */
export function readOwnFile(file: string, notOwn: () => Error): string | undefined {
  try {
    const info = lstatSync(file);
    if (!info.isFile() || (process.getuid && info.uid !== process.getuid())) throw notOwn();
    const fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    try {
      return readFileSync(fd, "utf8");
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** The file's lines of job `name` (none when it does not exist); how many were of another job; whether its last
 * line was cut short. It must be a regular file of this user; any other unreadable line refuses the run. */
function readLines(file: string, name: string): { lines: Line[]; foreign: number; cut: boolean } {
  const text = readOwnFile(file, () => new UsageError(`job state file ${file} is not a regular file of this user: remove it, or pass --window 0`));
  if (text === undefined) return { lines: [], foreign: 0, cut: false };
  const lines: Line[] = [];
  let foreign = 0;
  let cut = false;
  const bad: number[] = [];
  const raws = text.split("\n");
  raws.forEach((raw, i) => {
    if (!raw.trim()) return;
    const l = parseLine(raw);
    if (l && l.job === name) lines.push(l);
    else if (l) foreign++;
    // A crash while a line was appended leaves a prefix of it at the end, with no newline: its request was not
    // sent. Anything else unreadable (random bytes, a NUL block, a line cut in the middle) is not a crash's.
    else if (i === raws.length - 1 && /^\{"(job|at)":"[^\0\n]*$/.test(raw)) cut = true;
    else bad.push(i + 1);
  });
  if (bad.length)
    throw new UsageError(
      `job state file ${file} is corrupt: ${plural(bad.length, "unreadable line")} (first: line ${bad[0]}), so this run cannot tell what an earlier run requested: remove the file (the next run snapshots every site again) or pass --window 0 for this run`,
    );
  return { lines, foreign, cut };
}

function parseLine(raw: string): Line | undefined {
  let l: Partial<Line>;
  try {
    l = JSON.parse(raw) as Partial<Line>;
  } catch {
    return undefined;
  }
  if (typeof l !== "object" || l === null) return undefined;
  // A line of an older siteops has no job: counted as another job's, not as corrupt.
  const ok =
    (typeof l.job === "string" || l.job === undefined) &&
    typeof l.at === "string" &&
    !Number.isNaN(Date.parse(l.at)) &&
    typeof l.site === "string" &&
    typeof l.key === "string" &&
    typeof l.params === "object" &&
    l.params !== null &&
    (l.snapshot === null || typeof l.snapshot === "string" || l.pipeline === null || typeof l.pipeline === "string");
  return ok ? ({ ...l, job: l.job ?? "" } as Line) : undefined;
}
