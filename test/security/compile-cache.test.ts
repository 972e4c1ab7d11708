// Issue 38 item 10 (the compile caches): the provider (and the installed CLI, below) runs V8 code read from $XDG_CACHE_HOME/siteops/
// provider-compile-cache, so every directory above it must be safe too, not only the last: one another user owns,
// or can write in without the sticky bit, lets them swap the cache for one of theirs. Each case enables the cache
// in a fresh Node (provider/compile-cache.ts from source) and asks Node which directory it caches in. The
// directories are given to a second real user (useradd) with chown: only as root, skipped visibly otherwise.
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import nodeModule from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../support/paths.js";
import { removeDir, tempDir } from "../support/temp.js";
import { isRoot, systemUser, type User } from "./local-users.js";

if (!isRoot) console.warn("test/security/compile-cache: SKIPPED, needs root and useradd to create a second real user");

const SCRIPT = `
import { getCompileCacheDir } from "node:module";
import { enableCompileCache } from ${JSON.stringify(path.join(ROOT, "provider/compile-cache.ts"))};
enableCompileCache(process.env);
process.stdout.write(String(getCompileCacheDir?.() ?? "")); // the cache's own subdirectory of it, or nothing
`;

/** The directory the provider's compile cache uses with this XDG_CACHE_HOME ("" for none), and its debug lines. */
function cacheWith(cacheHome: string): { dir: string; log: string } {
  // Node caches in a subdirectory per Node version and architecture: the directory the provider gave it.
  const env = { PATH: process.env.PATH, HOME: cacheHome, XDG_CACHE_HOME: cacheHome, TF_LOG_PROVIDER: "debug" };
  const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", SCRIPT], { cwd: ROOT, env, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`node exited ${run.status}: ${run.stderr}`);
  return { dir: run.stdout && path.dirname(run.stdout), log: run.stderr };
}

/** module.enableCompileCache: Node >= 22.1 (older Node has no cache to check). */
const hasCache = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === "function";

describe.skipIf(!isRoot || !hasCache)("the provider's compile cache below directories others control (real users, as root)", () => {
  let base: string;
  let attacker: User;
  beforeAll(() => {
    attacker = systemUser("siteops-attacker");
    base = tempDir("sec-cache");
    chmodSync(base, 0o755);
  });
  afterAll(() => base && removeDir(base));

  it("is used below directories of this user or root that no one else can write to", () => {
    const home = path.join(base, "ok", "cache");
    mkdirSync(home, { recursive: true, mode: 0o755 });
    expect(cacheWith(home).dir).toBe(path.join(home, "siteops", "provider-compile-cache"));
  });

  it("is not used below a directory another user owns (they could swap siteops/ for theirs)", () => {
    const parent = path.join(base, "foreign");
    const home = path.join(parent, "cache");
    mkdirSync(home, { recursive: true, mode: 0o755 });
    chownSync(parent, attacker.uid, attacker.gid);
    const { dir, log } = cacheWith(home);
    expect(dir).toBe("");
    expect(log).toContain(`compiled code not cached: ${parent} belongs to another user (uid ${attacker.uid})`);
  });

  it("is not used below a directory others can write to without the sticky bit, and is below a sticky one (/tmp)", () => {
    const open = path.join(base, "open", "cache");
    mkdirSync(open, { recursive: true });
    chmodSync(open, 0o777);
    const { dir, log } = cacheWith(open);
    expect(dir).toBe("");
    expect(log).toContain(`compiled code not cached: ${open} is writable by others (mode 777)`);

    const sticky = path.join(base, "sticky", "cache");
    mkdirSync(sticky, { recursive: true });
    chmodSync(sticky, 0o1777);
    expect(cacheWith(sticky).dir).toBe(path.join(sticky, "siteops", "provider-compile-cache"));
  });
});

/** What the installed CLI (bin/siteops.js, Node >= 22.1) left in its compile cache after one run: the entries. */
function cliCacheAfterRun(cacheHome: string): string[] {
  const env = { PATH: process.env.PATH, HOME: cacheHome, XDG_CACHE_HOME: cacheHome };
  const run = spawnSync(process.execPath, [path.join(ROOT, "bin/siteops.js"), "--version"], { cwd: ROOT, env, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`siteops --version exited ${run.status}: ${run.stderr}`);
  const dir = path.join(cacheHome, "siteops", "compile-cache");
  return existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : [];
}

describe.skipIf(!isRoot || !hasCache || !existsSync(path.join(ROOT, "dist/cli/siteops.cjs")))(
  "the CLI's compile cache below directories others control (real users, as root)",
  () => {
    let base: string;
    let attacker: User;
    beforeAll(() => {
      attacker = systemUser("siteops-attacker");
      base = tempDir("sec-cli-cache");
      chmodSync(base, 0o755);
    });
    afterAll(() => base && removeDir(base));

    it("is written below this user's own directories, and not below another user's or an open one", () => {
      const ok = path.join(base, "ok", "cache");
      mkdirSync(ok, { recursive: true, mode: 0o755 });
      expect(cliCacheAfterRun(ok).length).toBeGreaterThan(0);

      const parent = path.join(base, "foreign");
      const foreign = path.join(parent, "cache");
      mkdirSync(foreign, { recursive: true, mode: 0o755 });
      chownSync(parent, attacker.uid, attacker.gid);
      expect(cliCacheAfterRun(foreign)).toEqual([]);

      const open = path.join(base, "open", "cache");
      mkdirSync(open, { recursive: true });
      chmodSync(open, 0o777);
      expect(cliCacheAfterRun(open)).toEqual([]);
    });
  },
);
