// Real local users for the multi-user security tests (issues 26 and 38): a system user made with useradd (so
// only as root: `isRoot` says whether this run can, and those tests are skipped with a warning when not), a
// symlink planted as one, and the built CLI run as one from a copy every user can read.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, cpSync } from "node:fs";
import path from "node:path";
import { BIN } from "../cli/helpers.js";
import { removeDir, tempDir } from "../support/temp.js";

export const isRoot = process.getuid?.() === 0 && spawnSync("useradd", ["--help"]).status === 0;

export interface User {
  uid: number;
  gid: number;
}

/** A system user (created once per machine, kept: useradd is idempotent here). */
export function systemUser(name: string): User {
  if (spawnSync("id", ["-u", name]).status !== 0) {
    const made = spawnSync("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name], { encoding: "utf8" });
    if (made.status !== 0 && spawnSync("id", ["-u", name]).status !== 0) throw new Error(`useradd ${name}: ${made.stderr}`);
  }
  const uid = Number(spawnSync("id", ["-u", name], { encoding: "utf8" }).stdout.trim());
  const gid = Number(spawnSync("id", ["-g", name], { encoding: "utf8" }).stdout.trim());
  return { uid, gid };
}

/** `ln -s target link` run as `who`. */
export function plantLink(who: User, target: string, link: string): void {
  const res = spawnSync("ln", ["-s", target, link], { uid: who.uid, gid: who.gid, encoding: "utf8" });
  if (res.status !== 0) throw new Error(`ln -s as uid ${who.uid}: ${res.stderr}`);
}

export interface Run {
  pid: number;
  write(text: string): void;
  done: Promise<{ code: number | null; stderr: string }>;
}

/**
 * Node and the built CLI where an unprivileged user can run them: the Node CI runs on lives in root's home
 * (scripts/fetch-node.mjs), and so may the checkout. A copy in a world-readable temp dir: node, bin/, dist/cli/.
 */
function runnableCopy(): { node: string; bin: string; dir: string } {
  const dir = tempDir("sec-runtime");
  chmodSync(dir, 0o755);
  const root = path.resolve(path.dirname(BIN), "..");
  const node = path.join(dir, "node");
  copyFileSync(process.execPath, node);
  chmodSync(node, 0o755);
  for (const part of ["bin", "dist/cli"]) cpSync(path.join(root, part), path.join(dir, part), { recursive: true });
  spawnSync("chmod", ["-R", "a+rX", dir]);
  return { node, bin: path.join(dir, "bin", path.basename(BIN)), dir };
}
let runtime: { node: string; bin: string; dir: string } | undefined;

/** The built CLI as `who`, stdin open until write(). */
export function runAs(who: User, args: string[], env: NodeJS.ProcessEnv): Run {
  runtime ??= runnableCopy();
  const child = spawn(runtime.node, [runtime.bin, ...args], {
    uid: who.uid,
    gid: who.gid,
    env: { PATH: process.env.PATH, NO_COLOR: "1", ...env },
    stdio: "pipe",
  });
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  child.stdout.resume();
  return {
    pid: child.pid!,
    write: (text) => child.stdin.end(text),
    done: new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr }))),
  };
}

/** Removes the copy runAs made, if any (a test file's afterAll). */
export function removeRuntime(): void {
  if (runtime) removeDir(runtime.dir);
  runtime = undefined;
}
