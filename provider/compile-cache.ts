// V8's compiled code for the provider's bundles, kept between runs: Terraform starts the provider 3-5 times per
// command, and each process compiles the RPC half (and, when configured, the API client) again. Node >= 22.1
// keeps that code in a directory (module.enableCompileCache) and checks each entry against the file's content,
// so a rebuilt or upgraded provider recompiles and rewrites its entries. The directory is the user's own:
// $XDG_CACHE_HOME/siteops/provider-compile-cache (default ~/.cache/...), created owner-only, and used only when
// it is a real directory owned by this user that no one else can write to; anything else runs uncached.
// SITEOPS_NO_COMPILE_CACHE=1 turns it off.
import { lstatSync, mkdirSync } from "node:fs";
import nodeModule from "node:module";
import { homedir } from "node:os";
import path from "node:path";

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

/** Turns the cache on for the modules loaded from now on; without a safe directory, does nothing. */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): void {
  const enable = (nodeModule as unknown as { enableCompileCache?: Enable }).enableCompileCache;
  const dir = compileCacheDir(env);
  if (typeof enable !== "function" || !dir) return;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (ownerOnlyDir(dir)) enable(dir);
  } catch {
    // no home, or a read-only one: run without the cache
  }
}
