#!/usr/bin/env node
// Installed entry point (CommonJS: bin/package.json): loads the bundled CLI, dist/cli/siteops.cjs, built by
// `npm run build`. Start-up is most of a short command's time, and compiling the bundle is a good part of it,
// so V8's compiled code is cached between runs: Node >= 22.1 does it itself (module.enableCompileCache) in
// $XDG_CACHE_HOME/siteops/compile-cache (default ~/.cache/...), owner-only and used only when it is this user's
// own directory (never Node's default, a shared temp dir where another user could plant compiled code); on
// Node 20 this file keeps it in $XDG_CACHE_HOME/siteops, written after a run so that it holds the functions the run compiled. V8 checks the cache
// against the source and rejects a stale one, which is then rewritten. SITEOPS_NO_COMPILE_CACHE=1 turns it off.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const Module = require("node:module");

const bundle = path.join(__dirname, "..", "dist", "cli", "siteops.cjs");
const useCache = !process.env.SITEOPS_NO_COMPILE_CACHE;

function missing() {
  console.error("siteops: dist/ is missing; run `npm run build` first (or use `npx tsx cli/main.ts`).");
  process.exit(1);
}

function cacheHome() {
  const xdg = process.env.XDG_CACHE_HOME;
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(require("node:os").homedir(), ".cache"), "siteops");
}

/**
 * `dir`, made if missing, by its real path when it is an owner-only directory of this user's and every directory
 * above it is this user's or root's and writable by no one else unless sticky (provider/compile-cache.ts keeps
 * the same rule): someone who can write any of them could swap in compiled code. Else undefined: no cache.
 */
function privateCacheDir(dir) {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const real = path.join(fs.realpathSync(path.dirname(dir)), path.basename(dir));
    const uid = process.getuid?.();
    const own = fs.lstatSync(real);
    if (!own.isDirectory() || own.uid !== uid || (own.mode & 0o077) !== 0) return undefined;
    for (let at = path.dirname(real); ; at = path.dirname(at)) {
      const st = fs.lstatSync(at);
      if ((st.uid !== uid && st.uid !== 0) || ((st.mode & 0o022) !== 0 && (st.mode & 0o1000) === 0)) return undefined;
      if (path.dirname(at) === at) return real;
    }
  } catch {
    return undefined; // no home, or a read-only one: run without the cache
  }
}

/** Node >= 22.1: the compile cache in a private directory of this user's, else none. */
function enableOwnCompileCache() {
  const dir = privateCacheDir(path.join(cacheHome(), "compile-cache"));
  if (dir) Module.enableCompileCache(dir);
}

/** Node 20: the bundle compiled through vm.Script with cached data. */
function loadWithCache() {
  const vm = require("node:vm");
  let source;
  try {
    source = fs.readFileSync(bundle, "utf8");
  } catch {
    missing();
  }
  const dir = privateCacheDir(cacheHome());
  const cacheFile = dir && path.join(dir, `cli-${process.versions.v8}-${process.arch}.cache`);
  let cachedData;
  try {
    // Only a regular file of this user's (a link or another user's file is compiled code someone else chose).
    const st = cacheFile && fs.lstatSync(cacheFile);
    if (st && st.isFile() && st.uid === process.getuid?.()) cachedData = fs.readFileSync(cacheFile);
  } catch {
    // first run
  }
  const script = new vm.Script(Module.wrap(source), { filename: bundle, cachedData });
  const module = { exports: {}, filename: bundle, id: bundle, loaded: false };
  script.runInThisContext().call(module.exports, module.exports, Module.createRequire(bundle), module, bundle, path.dirname(bundle));
  const save = () => {
    if (!cacheFile || (cachedData && !script.cachedDataRejected)) return;
    try {
      // Created exclusively ("wx": a planted link or file makes it fail) under a random name, then renamed.
      const temp = `${cacheFile}.${require("node:crypto").randomBytes(8).toString("hex")}.tmp`;
      fs.writeFileSync(temp, script.createCachedData(), { mode: 0o600, flag: "wx" });
      fs.renameSync(temp, cacheFile);
    } catch {
      // a read-only home: run without the cache
    }
  };
  return { cli: module.exports, save };
}

let loaded;
if (useCache && typeof Module.enableCompileCache === "function") enableOwnCompileCache();
else if (useCache) loaded = loadWithCache();
if (!loaded) {
  try {
    loaded = { cli: require(bundle), save: () => {} };
  } catch (err) {
    if (err?.code === "MODULE_NOT_FOUND" && String(err.message).includes("siteops.cjs")) missing();
    throw err;
  }
}
// `siteops emulator` and `siteops provider` are modules of their own beside the bundle, imported from here.
const host = {
  importCommand: (name) => import(require("node:url").pathToFileURL(path.join(__dirname, "..", "dist", "cli", `${name}.mjs`)).href),
};
loaded.cli.main(process.argv.slice(2), host).then((code) => {
  process.exitCode = code;
  loaded.save();
});
