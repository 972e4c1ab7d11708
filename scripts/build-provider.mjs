// Bundles the Terraform provider (provider/main.ts) into CommonJS files with esbuild, embeds the protocol's
// JSON descriptor (so start-up never parses .proto text), and writes the launcher Terraform executes:
//   <outDir>/terraform-provider-siteops_v<version>   (#!/bin/sh, exec node on the bundle: launcherScript; scripts/
//                                                    sea.mjs makes the single-executable one, without Node.js)
//   <outDir>/siteops-provider.cjs   (up to the handshake; then siteops-provider-rpc.cjs, the provider and its
//                                    gRPC server; siteops-client.cjs, the API client, loaded at the first API call)
// Called by scripts/build.mjs as `default({ root })`; tests call it with their own outDir, benchmarks also
// with `serveEntry` (a bench-only provider, see bench/lib/provider-noop.ts) and `minify: false` (for profiles).
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import path from "node:path";
import { undiciPoolOnly } from "./esbuild-undici-pool.mjs";

export const PROVIDER_TYPE = "siteops";
export const BUNDLE_NAME = "siteops-provider.cjs";
export const CLIENT_NAME = "siteops-client.cjs";
export const SERVE_NAME = "siteops-provider-rpc.cjs";

/** Keeps a lazily loaded module out of a bundle: the code that imports it loads the separate file itself. */
function lazyFile(filter, file) {
  return {
    name: `siteops-lazy-${file}`,
    setup(build) {
      build.onResolve({ filter }, (args) => (args.kind === "dynamic-import" ? { path: `./${file}`, external: true } : undefined));
    },
  };
}

/** The Node.js versions the package supports (package.json "engines"), as the launcher states them. */
function nodeRange(root) {
  return JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).engines.node.replace(/^>=\s*/, ">= ");
}

export function providerVersion(root) {
  return JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).version;
}

export function launcherName(version) {
  return `terraform-provider-${PROVIDER_TYPE}_v${version}`;
}

/**
 * The launcher Terraform executes (#!/bin/sh): it picks the Node.js, then execs it on the bundle beside itself (found
 * from $0, so also through a symlinked directory).
 * Nothing of the build machine goes in: no Node.js path, no directory (the package is the same bytes wherever it
 * is built: scripts/check-reproducible.mjs). `siteops provider install` fills in FALLBACK_NODE in the copy it
 * installs (cli/commands/provider/index.ts); a Node.js that is missing or too old is said in a line Terraform shows
 * (docs/node-versions.md, "The Terraform provider's Node.js").
 */
export function launcherScript(version, range) {
  const missing = "the siteops Terraform provider needs Node.js";
  const fix = "install Node.js 24 LTS (https://nodejs.org), or set SITEOPS_NODE to a node executable";
  return [
    "#!/bin/sh",
    `# siteops Terraform provider ${version}: runs the bundled provider with Node.js (${range}): $SITEOPS_NODE when set`,
    "# (a node executable: another Node.js than PATH's), else node on PATH, else FALLBACK_NODE: empty in the package,",
    "# the Node.js that ran `siteops provider install` in an installed copy.",
    'FALLBACK_NODE=""',
    'if [ -n "$SITEOPS_NODE" ]; then NODE=$SITEOPS_NODE; WHY="SITEOPS_NODE=$SITEOPS_NODE is not a node executable"',
    "elif command -v node >/dev/null 2>&1; then NODE=node",
    'else NODE=$FALLBACK_NODE; WHY="there is no node on the PATH${FALLBACK_NODE:+ and $FALLBACK_NODE is gone}"',
    "fi",
    'case "$NODE" in */*) [ -f "$NODE" ] && [ -x "$NODE" ] ;; *) [ -n "$NODE" ] && command -v "$NODE" >/dev/null 2>&1 ;; esac || {',
    "  # A first stdout line that is not a handshake is the one thing Terraform shows of a plugin that failed to start.",
    `  echo "${missing} (${range}): $WHY: ${fix}"`,
    "  exit 1",
    "}",
    // The launcher's own directory without running dirname: a fork and exec fewer per provider process.
    'case "$0" in */*) DIR="${0%/*}" ;; *) DIR=. ;; esac',
    `exec "$NODE" "$DIR/${BUNDLE_NAME}" "$@"`,
    "",
  ].join("\n");
}

export function descriptor(root) {
  const require = createRequire(path.join(root, "package.json"));
  const protobuf = require("protobufjs");
  const source = readFileSync(path.join(root, "provider/protocol/tfplugin6.proto"), "utf8");
  return protobuf.parse(source, { keepCase: true }).root.toJSON();
}

/** Regenerates provider/docs/ from the schemas and examples/terraform/ (committed; CI checks it is current). */
export async function generateProviderDocs({ root, outDir = path.join(root, "provider", "docs") }) {
  const require = createRequire(path.join(root, "package.json"));
  const esbuild = require("esbuild");
  const tmp = mkdtempSync(path.join(tmpdir(), "siteops-docs-"));
  try {
    const file = path.join(tmp, "docs-generator.cjs");
    await esbuild.build({
      entryPoints: [path.join(root, "provider/docs-generator.ts")],
      outfile: file,
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      logLevel: "warning",
      define: { "import.meta.url": "__siteopsImportMetaUrl" },
      banner: { js: "const __siteopsImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    });
    return require(file).generateDocs(outDir, path.join(root, "examples", "terraform"));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Bundles the provider into `outDir`: the entry (`entry`, written as `mainName`), the RPC half and the API
 * client. The single-executable build (scripts/sea.mjs) passes its own entry, which finds the other two files
 * in the executable instead of on disk; `define` adds to the entry's compile-time constants.
 */
export async function bundleProvider({
  root,
  outDir,
  entry = path.join(root, "provider/main.ts"),
  mainName = BUNDLE_NAME,
  define = {},
  serveEntry = path.join(root, "provider/serve.ts"),
  minify = true,
}) {
  const require = createRequire(path.join(root, "package.json"));
  const esbuild = require("esbuild");
  const common = {
    bundle: true,
    platform: "node",
    target: "node20",
    minify,
    legalComments: "none",
    logLevel: "warning",
  };
  // CommonJS starts faster than ESM in Node 20 (no ESM loader on the start-up path). The entry holds only
  // what the handshake line needs; the provider and its RPC server are a second file, loaded right after.
  await esbuild.build({
    ...common,
    entryPoints: [entry],
    outfile: path.join(outDir, mainName),
    format: "cjs",
    define: {
      ...define,
      __SITEOPS_SERVE_FILE__: JSON.stringify(`./${SERVE_NAME}`),
      "import.meta.url": "__siteopsImportMetaUrl",
    },
    banner: { js: "const __siteopsImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins: [lazyFile(/[\\/]serve\.js$/, SERVE_NAME)],
  });
  await esbuild.build({
    ...common,
    entryPoints: [serveEntry],
    outfile: path.join(outDir, SERVE_NAME),
    format: "cjs",
    define: {
      __TFPLUGIN6_DESCRIPTOR__: JSON.stringify(descriptor(root)),
      __SITEOPS_CLIENT_FILE__: JSON.stringify(`./${CLIENT_NAME}`),
      "import.meta.url": "__siteopsImportMetaUrl",
    },
    banner: { js: "const __siteopsImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins: [lazyFile(/core-api\.js$/, CLIENT_NAME)],
  });
  // The API client (src/, with undici) is imported only at the provider's first API call: a file of its own
  // keeps it off the start-up path of the processes that only serve the schema or validation.
  await esbuild.build({
    ...common,
    entryPoints: [path.join(root, "provider/core-api.ts")],
    outfile: path.join(outDir, CLIENT_NAME),
    format: "cjs",
    absWorkingDir: root,
    plugins: [undiciPoolOnly("siteops-provider")],
  });
  return { main: path.join(outDir, mainName), lazy: [SERVE_NAME, CLIENT_NAME].map((f) => path.join(outDir, f)) };
}

export default async function buildProvider({
  root,
  outDir = path.join(root, "dist", "provider"),
  quiet = false,
  docs = !quiet,
  serveEntry = path.join(root, "provider/serve.ts"),
  minify = true,
}) {
  const version = providerVersion(root);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  // Not named terraform-provider-*: Terraform executes the first file with that prefix in the package dir.
  const { main: bundle } = await bundleProvider({ root, outDir, serveEntry, minify });
  const launcher = path.join(outDir, launcherName(version));
  writeFileSync(launcher, launcherScript(version, nodeRange(root)));
  chmodSync(launcher, 0o755);
  if (!quiet) console.error(`build: provider bundled into ${path.relative(root, outDir) || outDir}`);
  if (docs) {
    const pages = await generateProviderDocs({ root });
    if (!quiet) console.error(`build: provider docs generated (${pages.length} pages in provider/docs)`);
  }
  return { outDir, bundle, launcher, version };
}
