// V8's compiled code for the provider's bundles, kept between runs: Terraform starts the provider 3-5 times per
// command, and each process compiles the RPC half (and, when configured, the API client) again. Node >= 22.1
// keeps that code in a directory (module.enableCompileCache) and checks each entry against the file's content,
// so a rebuilt or upgraded provider recompiles and rewrites its entries. The directory is the user's own:
// $XDG_CACHE_HOME/siteops/provider-compile-cache (default ~/.cache/...), created owner-only, and used only when
// it is a real directory owned by this user that no one else can write to, below directories only this user or
// root can change (each checked from the root down); anything else runs uncached, with a debug log line.
// SITEOPS_NO_COMPILE_CACHE=1 turns it off.
import { lstatSync, mkdirSync, realpathSync } from "node:fs";
import nodeModule from "node:module";
import { homedir } from "node:os";
import path from "node:path";
import { log } from "./log.js";

/** module.enableCompileCache: Node >= 22.1 (not in the Node 20 types this repo compiles against). */
type Enable = (dir: string) => unknown;

/** The cache directory for this environment, or undefined when the cache is turned off. */
export function compileCacheDir(env: NodeJS.ProcessEnv): string | undefined {
  if (env.SITEOPS_NO_COMPILE_CACHE) return undefined;
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(homedir(), ".cache");
  return path.join(base, "siteops", "provider-compile-cache");
}

/** Whether `dir` is safe to load compiled code from: a directory (not a link) of this user, owner-only. */
export function ownerOnlyDir(dir: string): boolean {
  const st = lstatSync(dir, { throwIfNoEntry: false });
  return !!st && st.isDirectory() && st.uid === process.getuid?.() && (st.mode & 0o077) === 0;
}

/**
 * Why a directory above the cache is unsafe, or undefined when it is safe: every directory from the root down to
 * `dir` (a real path: links resolved) must be owned by this user or root, and writable by no one else unless
 * sticky (/tmp: others cannot rename or remove what is ours there). Otherwise its owner, or whoever can write in
 * it, could swap the cache directory below it for one of theirs after the check.
 */
function unsafeAncestor(dir: string): string | undefined {
  const uid = process.getuid?.();
  let at = dir;
  for (;;) {
    const st = lstatSync(at);
    if (st.uid !== uid && st.uid !== 0) return `${at} belongs to another user (uid ${st.uid})`;
    if ((st.mode & 0o022) !== 0 && (st.mode & 0o1000) === 0) return `${at} is writable by others (mode ${(st.mode & 0o777).toString(8)})`;
    const parent = path.dirname(at);
    if (parent === at) return undefined;
    at = parent;
  }
}

/** Turns the cache on for the modules loaded from now on; without a safe directory, does nothing (a debug line
 * says why). */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): void {
  const enable = (nodeModule as unknown as { enableCompileCache?: Enable }).enableCompileCache;
  const dir = compileCacheDir(env);
  if (typeof enable !== "function" || !dir) return;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Checked and used by its real path (links above it resolved once), so a link swapped in after the check is
    // not followed; the cache directory itself must not be a link.
    const real = path.join(realpathSync(path.dirname(dir)), path.basename(dir));
    const unsafe = unsafeAncestor(path.dirname(real)) ?? (ownerOnlyDir(real) ? undefined : `${dir} is not an owner-only directory of this user`);
    if (unsafe) log.debug(`compiled code not cached: ${unsafe}`);
    else enable(real);
  } catch (err) {
    // no home, or a read-only one: run without the cache
    log.debug(`compiled code not cached: ${(err as Error).message}`);
  }
}
