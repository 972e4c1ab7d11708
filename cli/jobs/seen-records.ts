// What a job has told someone about already, kept between runs: the `vulns report` job's open records it has
// notified, so that a run tells only what is new, once. One file per job, `<state dir>/<job name>.seen.json`
// (the state dir of run-state.ts, owner-only): `{"job", "seen": {"<fingerprint>": {"site", "at"}}}`, replaced
// whole (a new file created exclusively, renamed over the old one). A file this run cannot read (another job's,
// cut short, not JSON) is one `warning:` line and counts as empty: the next notification repeats what was told,
// which its reader sees, rather than refusing the run.

import path from "node:path";
import { writeFileExclusive } from "../../common/private-file.js";
import { CliError, EXIT } from "../exit-codes.js";
// A record told about, its site and when a run first saw it: the core's (vulnerabilityNews decides what to remember).
import type { SeenRecord as Seen } from "../../src/fleet.js";
import { privateDir } from "./lock.js";
import { readOwnFile, stateDir } from "./run-state.js";

export interface SeenRecords {
  file: string;
  /** Fingerprint -> when it was first seen, as the last run that told left it. */
  seen: ReadonlyMap<string, Seen>;
  /** Replaces the file's records with `next`. */
  save(next: ReadonlyMap<string, Seen>): void;
}

/** Opens job `name`'s record of what it told; `warn` hears (one line) of a file it could not read. */
export function openSeenRecords(env: NodeJS.ProcessEnv, name: string, warn: (line: string) => void): SeenRecords {
  const dir = stateDir(env);
  const file = path.join(dir, `${name}.seen.json`);
  const seen = new Map<string, Seen>();
  try {
    privateDir(dir, 0o077, "job state directory", "set XDG_STATE_HOME to one");
    const text = readOwnFile(file, () => new CliError(`job state file ${file} is not a regular file of this user: remove it`, EXIT.USAGE));
    if (text !== undefined) {
      const doc = parse(text);
      if (doc?.job === name) for (const [fingerprint, entry] of Object.entries(doc.seen)) seen.set(fingerprint, entry);
      else warn(`job state file ${file}: ${doc ? "of another job" : "unreadable"}; every open record counts as new in this run`);
    }
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`cannot use the job state file ${file}: ${(err as Error).message}`, EXIT.FAILED);
  }
  return {
    file,
    seen,
    save(next) {
      writeFileExclusive(file, `${JSON.stringify({ job: name, seen: Object.fromEntries(next) })}\n`);
    },
  };
}

function parse(text: string): { job: string; seen: Record<string, Seen> } | undefined {
  try {
    const doc = JSON.parse(text) as { job?: unknown; seen?: unknown };
    const entries = doc.seen && typeof doc.seen === "object" ? Object.values(doc.seen) : undefined;
    const valid = entries?.every((e: Partial<Seen>) => typeof e?.site === "string" && typeof e?.at === "string");
    return typeof doc.job === "string" && valid ? (doc as { job: string; seen: Record<string, Seen> }) : undefined;
  } catch {
    return undefined;
  }
}
