// Bundles the GitHub Action (action/src/index.ts, the API core and @actions/*) into one ESM file,
// action/dist/index.js, which is committed: the runner executes it as is, with nothing installed.
// Called by scripts/build.mjs as `default({ root })`; scripts/check-action.mjs builds into a temp dir and
// compares, so the output must depend on nothing but the sources (no timestamps, no absolute paths).
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import path from "node:path";
import { undiciPoolOnly } from "./esbuild-undici-pool.mjs";

// @actions/core and @actions/github import HTTP clients (three undici copies, Octokit) at module level for
// features the action never calls (OIDC tokens, the GitHub API). Declared free of side effects, esbuild drops
// them when nothing imported from them is used: the bundle shrinks several-fold and starts faster.
const UNUSED_WHEN_UNREFERENCED = /[\\/]node_modules[\\/](@actions|@octokit|undici|tunnel|before-after-hook|universal-user-agent|json-with-bigint)[\\/]/;

const sideEffectFree = {
  name: "side-effect-free-dependencies",
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData?.resolving || !(UNUSED_WHEN_UNREFERENCED.test(args.importer) || /^[@a-z]/.test(args.path))) return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { resolving: true },
      });
      if (resolved.errors.length > 0 || !UNUSED_WHEN_UNREFERENCED.test(resolved.path)) return undefined;
      return { path: resolved.path, sideEffects: false };
    });
  },
};

// An ESM `import` of a Node built-in goes through the ESM loader, which wraps each built-in in a module of
// its own (resolve, translate, one binding per export): ~3 ms for the dozen the bundle imports. Each is
// required instead (the banner defines `require`); the code that uses them sees the same objects.
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const builtinsViaRequire = {
  name: "builtins-via-require",
  setup(build) {
    build.onResolve({ filter: /^[a-z_:/]+$/ }, (args) => {
      if (!BUILTINS.has(args.path)) return undefined;
      if (args.namespace === "siteops-builtin") return { path: args.path, external: true };
      // Free of side effects: a module whose imports go unused (webhooks.ts's node:crypto) loads nothing.
      return { path: args.path, namespace: "siteops-builtin", sideEffects: false };
    });
    build.onLoad({ filter: /.*/, namespace: "siteops-builtin" }, (args) => ({
      contents: `module.exports = process.getBuiltinModule?.(${JSON.stringify(args.path)}) ?? require(${JSON.stringify(args.path)});`,
      loader: "js",
    }));
  },
};

// @actions/core loads node:crypto when it loads, for one randomUUID() that delimits a multi-line output in
// $GITHUB_OUTPUT at the end of the run; loading crypto then instead of first takes ~5 ms off the start.
const lazyCryptoInActionsCore = {
  name: "lazy-crypto-in-actions-core",
  setup(build) {
    build.onResolve({ filter: /^(node:)?crypto$/ }, (args) =>
      /@actions[\\/]core[\\/]lib[\\/]file-command\.js$/.test(args.importer) ? { path: "lazy-crypto", namespace: "siteops-action" } : undefined,
    );
    build.onLoad({ filter: /^lazy-crypto$/, namespace: "siteops-action" }, () => ({
      contents: 'module.exports = { randomUUID: () => require("node:crypto").randomUUID() };',
      loader: "js",
    }));
  },
};

// undici's HTTP/1 parser is WebAssembly, shipped as two base64 strings (SIMD and plain, ~140 KiB of source)
// that V8 must scan on every start although at most one is decoded, once, at the first connection. The bundle
// reads the same bytes from files beside it instead, when they are needed. (The CLI bundle does the same.)
const LLHTTP_WASM = [
  { module: "llhttp_simd-wasm.js", file: "llhttp_simd.wasm" },
  { module: "llhttp-wasm.js", file: "llhttp.wasm" },
];
export const llhttpFromFiles = {
  name: "llhttp-wasm-from-files",
  setup(build) {
    build.onResolve({ filter: /[\\/]llhttp[\\/]llhttp(_simd)?-wasm\.js$/ }, (args) => {
      const wasm = LLHTTP_WASM.find((w) => args.path.endsWith(w.module));
      return wasm && /undici[\\/]lib[\\/]dispatcher$/.test(args.resolveDir) ? { path: wasm.file, namespace: "siteops-wasm" } : undefined;
    });
    build.onLoad({ filter: /\.wasm$/, namespace: "siteops-wasm" }, (args) => ({
      contents: `module.exports = require("node:fs").readFileSync(new URL(${JSON.stringify(args.path)}, __siteopsBundleUrl));`,
      loader: "js",
    }));
  },
};

/** The wasm bytes undici's base64 modules hold, written beside the bundle. */
export function writeLlhttpFiles(root, outDir) {
  const require = createRequire(path.join(root, "package.json"));
  for (const { module, file } of LLHTTP_WASM) {
    const bytes = require(path.join(path.dirname(require.resolve("undici/package.json")), "lib", "llhttp", module));
    writeFileSync(path.join(outDir, file), bytes);
  }
}

// The visual gate's engine (visual/) and playwright-core stay out of index.js: a rollout with the visual gate
// imports them, nothing else does. The runner has nothing installed, so both are bundled here, each a file of its
// own: visual.js (the engine, pngjs and pixelmatch) and playwright-core/lib/index.mjs (4.0 MB, 1.0 MB gzipped),
// beside playwright-core's package.json and browsers.json, which it reads from the folder above its own, and its
// LICENSE and NOTICE (Apache-2.0). docs/design.md, section 11.
const PLAYWRIGHT_ENTRY = "./playwright-core/lib/index.mjs";

/** `import("../../visual/index.js")` (action/src/): left as an import of visual.js beside the bundle. */
const separateVisual = {
  name: "siteops-action-separate-visual",
  setup(build) {
    build.onResolve({ filter: /\/visual\/index\.js$/ }, (args) => (args.kind === "dynamic-import" ? { path: "./visual.js", external: true } : undefined));
  },
};

/** ESM banner for bundled CommonJS: `require`, `__filename` and `__dirname` of the file itself. */
const COMMONJS_GLOBALS =
  "import { createRequire as __siteopsCreateRequire } from 'node:module'; import { fileURLToPath as __siteopsPath } from 'node:url'; const require = __siteopsCreateRequire(import.meta.url), __filename = __siteopsPath(import.meta.url), __dirname = __siteopsPath(new URL('.', import.meta.url));";

/** What every bundle of the action shares: one ESM file for the runner's Node (action.yml: node24; tests run Node 20). */
const bundleOf = (root, minify) => ({ absWorkingDir: root, bundle: true, platform: "node", format: "esm", target: "node20", minify, charset: "utf8" });

async function buildVisual(esbuild, root, outDir, minify) {
  await esbuild.build({
    ...bundleOf(root, minify),
    entryPoints: [path.join(root, "visual/index.ts")],
    outfile: path.join(outDir, "visual.js"),
    legalComments: "eof",
    logLevel: "warning",
    plugins: [{ name: "playwright-beside", setup: (b) => b.onResolve({ filter: /^playwright-core$/ }, () => ({ path: PLAYWRIGHT_ENTRY, external: true })) }],
    banner: { js: `// siteops GitHub Action, the visual gate's engine: generated by scripts/build-action.mjs from visual/; do not edit.\n${COMMONJS_GLOBALS}` },
  });
  const require = createRequire(path.join(root, "package.json"));
  const from = path.dirname(require.resolve("playwright-core/package.json"));
  const to = path.join(outDir, "playwright-core");
  mkdirSync(path.join(to, "lib"), { recursive: true });
  const { name, version } = require("playwright-core/package.json");
  await esbuild.build({
    ...bundleOf(root, minify),
    stdin: { contents: 'export { chromium } from "playwright-core";', resolveDir: root, loader: "js" },
    outfile: path.join(to, "lib", "index.mjs"),
    legalComments: "none",
    logLevel: "error",
    banner: {
      js: `// playwright-core ${version} (Apache-2.0: LICENSE, NOTICE beside), bundled by scripts/build-action.mjs; do not edit.\n${COMMONJS_GLOBALS}`,
    },
  });
  writeFileSync(path.join(to, "package.json"), `${JSON.stringify({ name, version, private: true }, null, 2)}\n`);
  for (const file of ["browsers.json", "LICENSE", "NOTICE"]) copyFileSync(path.join(from, file), path.join(to, file));
}

export default async function buildAction({ root, outDir = path.join(root, "action", "dist"), quiet = false, minify = true }) {
  const require = createRequire(path.join(root, "package.json"));
  const esbuild = require("esbuild");
  mkdirSync(outDir, { recursive: true });
  const outfile = path.join(outDir, "index.js");
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [path.join(root, "action/src/index.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    // The runner uses node24 (action.yml); tests and the benchmarks here run it on Node 20.
    target: "node20",
    minify,
    legalComments: "eof",
    charset: "utf8",
    logLevel: "warning",
    metafile: true,
    plugins: [undiciPoolOnly("siteops-action"), lazyCryptoInActionsCore, llhttpFromFiles, separateVisual, sideEffectFree, builtinsViaRequire],
    // Bundled CommonJS dependencies call require() for Node built-ins, which ESM does not define. The bundle
    // imports nothing: process.getBuiltinModule (Node >= 20.16, 22.3) gets node:module without the ESM loader
    // linking a built-in (~1.5 ms); older Node 20 imports it.
    banner: {
      js: [
        "// siteops GitHub Action: generated by scripts/build-action.mjs from action/src; do not edit.",
        "const require = (process.getBuiltinModule?.('node:module') ?? await import('node:module')).createRequire(import.meta.url); const __siteopsBundleUrl = import.meta.url;",
      ].join("\n"),
    },
  });
  writeLlhttpFiles(root, outDir);
  await buildVisual(esbuild, root, outDir, minify);
  // The runner checks the whole repository out, but the bundle must be ESM wherever the folder is copied.
  writeFileSync(path.join(outDir, "package.json"), JSON.stringify({ type: "module", private: true }, null, 2) + "\n");
  const bytes = result.metafile.outputs[path.relative(root, outfile)]?.bytes ?? 0;
  if (!quiet) console.error(`build: action bundled into ${path.relative(root, outfile)} (${Math.round(bytes / 1024)} KiB)`);
  return { outDir, outfile, metafile: result.metafile };
}
