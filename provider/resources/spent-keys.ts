// Which create keys of this configuration are spent (keyed-create.ts): keys whose replay names an object deleted
// since, or a refusal. Without a record, the c-th destroy-then-apply of one configuration within the service's 24 h
// walked every earlier generation's key again, a replayed create and a read of the deleted object each: 2c + 1
// requests per object, one after the other, and a refusal once 20 keys were spent (issue 51). With it, a create
// starts at the first key not known spent: one request. Kept in `$TF_DATA_DIR/siteops-spent-keys` beside the key
// salt (request-key-origin.ts), written whole at the process's exit through common/private-file.ts (0600, never
// through a link), read only as a regular file of this user. A hint only: without it (a fresh checkout, a process
// killed, no data directory) a create walks the keys as before. A key is recorded only once what it names is known
// gone (its replay named a deleted object, or a delete of the object it made succeeded), and gone stays gone, so a
// rerun after a lost answer still sends that answer's key.
import path from "node:path";
import { writeFileExclusive } from "../../common/private-file.js";
import { log } from "../log.js";
import { dataDirectory, readOwnFile } from "./request-key-origin.js";

const FILE = "siteops-spent-keys";
/** The service keeps a key 24 h; an entry older than this names a key it has forgotten, so it is dropped. */
const KEEP_MS = 25 * 3_600_000;
const OTHERWISE = "creates ask with every earlier key again";

interface Entries {
  /** Spent keys, with when they were recorded (ms since the epoch). */
  spent: Record<string, number>;
  /** Objects made or adopted by a keyed create: id -> [its key, when]. */
  made: Record<string, [string, number]>;
}

let entries: Entries | undefined;
/** Ids this process deleted: dropped from what the file holds when it is merged at exit. */
const deletedHere = new Set<string>();
let saving = false;

const fresh = (at: unknown, now: number): at is number => typeof at === "number" && now - at < KEEP_MS;

/** The record in `text`, its stale or malformed entries left out. */
function parse(text: string | undefined, now: number): Entries {
  const out: Entries = { spent: Object.create(null) as Entries["spent"], made: Object.create(null) as Entries["made"] };
  let raw: unknown;
  try {
    raw = text ? JSON.parse(text) : undefined;
  } catch {
    return out;
  }
  const { spent, made } = (raw && typeof raw === "object" ? raw : {}) as { spent?: unknown; made?: unknown };
  if (spent && typeof spent === "object") for (const [key, at] of Object.entries(spent)) if (fresh(at, now)) out.spent[key] = at;
  if (made && typeof made === "object")
    for (const [id, v] of Object.entries(made)) if (Array.isArray(v) && typeof v[0] === "string" && fresh(v[1], now)) out.made[id] = [v[0], v[1]];
  return out;
}

const file = (): string | undefined => {
  const dir = dataDirectory();
  return dir && path.join(dir, FILE);
};

function record(): Entries {
  if (!entries) {
    const f = file();
    entries = parse(f && readOwnFile(f, OTHERWISE), Date.now());
  }
  return entries;
}

/** Writes the record at exit, merged with what another process wrote since it was read (a workspace of the same
 * directory applying at the same time). */
function saveAtExit(): void {
  if (saving) return;
  saving = true;
  process.once("exit", () => {
    const f = file();
    if (!f || !entries) return;
    const now = Date.now();
    const merged = parse(readOwnFile(f, OTHERWISE), now);
    Object.assign(merged.spent, entries.spent);
    Object.assign(merged.made, entries.made);
    for (const id of deletedHere) delete merged.made[id];
    try {
      writeFileExclusive(f, `${JSON.stringify(merged)}\n`, { mode: 0o600 });
    } catch (err) {
      log.warn(`${f} cannot be written (${(err as NodeJS.ErrnoException).code ?? String(err)}): the next apply's ${OTHERWISE}`);
    }
  });
}

/** Whether a replay of `key` is known to name nothing left to adopt. */
export function isSpent(key: string): boolean {
  return key in record().spent;
}

/** `key`'s replay names an object deleted since, or a refusal. */
export function spend(key: string): void {
  record().spent[key] = Date.now();
  saveAtExit();
}

/** The create with `key` made (or adopted) `id`. */
export function made(id: string, key: string): void {
  record().made[id] = [key, Date.now()];
  saveAtExit();
}

/** `id` is deleted: the key that made it is spent. */
export function deleted(id: string): void {
  const entry = record().made[id];
  if (!entry) return;
  delete entries!.made[id];
  deletedHere.add(id);
  spend(entry[0]);
}
