// Issue 38 item 2: every writer of a file at a path a user gave goes through the one exclusive-create-then-rename
// helper, common/private-file.ts (a link planted beside or at the target never receives the bytes). This reads
// the source of the core, the CLI, the shared helpers, the Action, the visual engine and the CLI's entry, and fails naming any file
// that writes a file another way and is not listed below with the reason it is safe.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../cli/helpers.js";

const SCANNED = ["src", "cli", "common", "action/src", "visual", "bin"];
/** Calls that write a file (or make one) by path; openSync/open are matched when their flags can write. */
const WRITERS =
  /\b(writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|copyFileSync|copyFile|cpSync|linkSync|symlinkSync|renameSync|rename)\s*\(/g;
const OPEN = /\b(openSync|open)\s*\(([^)]*)\)/g;
const WRITE_FLAGS = /["'][wa]\+?x?["']|O_WRONLY|O_RDWR|O_APPEND|O_CREAT|\bflags\b/;

/** File -> the writers it may call (name: count), and why they are safe. */
const ALLOWED: Record<string, { calls: Record<string, number>; why: string }> = {
  "common/private-file.ts": { calls: { openSync: 1, linkSync: 1, renameSync: 1 }, why: "the helper itself" },
  "src/internal/upload-data.ts": {
    calls: { createWriteStream: 1 },
    why: "spools stdin to `data` in a fresh mkdtemp directory (0700, random name), never a user's path",
  },
  "cli/jobs/lock.ts": {
    calls: { openSync: 1 },
    why: "the lock file is created with O_CREAT|O_EXCL ('wx'), which never follows a link; its existence is the lock, so no rename",
  },
  "cli/jobs/run-state.ts": {
    calls: { openSync: 1 },
    why: "appends (O_APPEND|O_NOFOLLOW) to the state file it has just written with the helper, in a directory checked to be the user's own (privateDir)",
  },
  "bin/siteops.js": {
    calls: { writeFileSync: 1, renameSync: 1 },
    why: "Node 20's compile cache: created with 'wx' (O_EXCL, never follows a link) under a random name in the user's cache dir, then renamed",
  },
};

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(dir, entry.name);
    if (entry.name === "node_modules" || entry.name === "dist" || entry.name === "generated") return [];
    if (entry.isDirectory()) return sources(rel);
    return /\.(ts|mts|mjs|js|cjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [rel] : [];
  });
}

/** The writers `text` calls, by name. Comments are dropped first (they name these calls too). */
function writersOf(text: string): Record<string, number> {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  const calls: Record<string, number> = {};
  for (const m of code.matchAll(WRITERS)) calls[m[1]!] = (calls[m[1]!] ?? 0) + 1;
  for (const m of code.matchAll(OPEN)) if (WRITE_FLAGS.test(m[2]!)) calls[m[1]!] = (calls[m[1]!] ?? 0) + 1;
  return calls;
}

const sorted = (calls: Record<string, number>) => JSON.stringify(Object.entries(calls).sort());

describe("file writers (issue 38 item 2)", () => {
  it("every file written at a path goes through common/private-file.ts, or is allowed here with its reason", () => {
    const found: Record<string, Record<string, number>> = {};
    for (const dir of SCANNED) {
      for (const file of sources(dir)) {
        const calls = writersOf(readFileSync(path.join(ROOT, file), "utf8"));
        if (Object.keys(calls).length) found[file] = calls;
      }
    }
    const unexpected = Object.entries(found)
      .filter(([file, calls]) => sorted(calls) !== sorted(ALLOWED[file]?.calls ?? {}))
      .map(
        ([file, calls]) =>
          `${file}: ${Object.entries(calls)
            .map(([name, n]) => `${name} x${n}`)
            .join(", ")}`,
      );
    expect(unexpected, "write these through writeFileExclusive (common/private-file.ts), or allow them in this test with why they are safe").toEqual([]);
    // An allowance whose file no longer writes is stale: remove it.
    expect(Object.keys(ALLOWED).filter((file) => !found[file])).toEqual([]);
  });
});
