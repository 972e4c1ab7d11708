// Bundles the GitHub Action (action/src/index.ts, the API core and @actions/*) into one ESM file,
// action/dist/index.js, which is committed: the runner executes it as is, with nothing installed.
// Called by scripts/build.mjs as `default({ root })`; scripts/check-action.mjs builds into a temp dir and
// compares, so the output must depend on nothing but the sources (no timestamps, no absolute paths).
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
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

// undici's HTTP/2 client loads node:http2 (and with it node:tls) when the module loads, to read ten
// constants; the action's Pool never negotiates HTTP/2 (allowH2 is off), so that is ~30 ms of start-up for
// nothing. That one import gets the constants (fixed by RFC 9113 and RFC 8441) and loads node:http2 on use.
export const HTTP2_CONSTANTS = {
  HTTP2_HEADER_AUTHORITY: ":authority",
  HTTP2_HEADER_METHOD: ":method",
  HTTP2_HEADER_PATH: ":path",
  HTTP2_HEADER_SCHEME: ":scheme",
  HTTP2_HEADER_CONTENT_LENGTH: "content-length",
  HTTP2_HEADER_EXPECT: "expect",
  HTTP2_HEADER_STATUS: ":status",
  HTTP2_HEADER_PROTOCOL: ":protocol",
  NGHTTP2_REFUSED_STREAM: 7,
  NGHTTP2_CANCEL: 8,
};
const lazyHttp2 = {
  name: "lazy-http2-in-undici",
  setup(build) {
    build.onResolve({ filter: /^node:http2$/ }, (args) =>
      /undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/.test(args.importer) ? { path: "lazy-http2", namespace: "siteops-action" } : undefined,
    );
    build.onLoad({ filter: /^lazy-http2$/, namespace: "siteops-action" }, () => ({
      contents: [
        `module.exports = { constants: ${JSON.stringify(HTTP2_CONSTANTS)},`,
        '  connect: (...args) => require("node:http2").connect(...args) };',
      ].join("\n"),
      loader: "js",
    }));
  },
};

// undici's HTTP/1 parser is WebAssembly, shipped as two base64 strings (SIMD and plain, ~140 KiB of source)
// that V8 must scan on every start although at most one is decoded, once, at the first connection. The bundle
// reads the same bytes from files beside it instead, when they are needed.
const LLHTTP_WASM = [
  { module: "llhttp_simd-wasm.js", file: "llhttp_simd.wasm" },
  { module: "llhttp-wasm.js", file: "llhttp.wasm" },
];
const llhttpFromFiles = {
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
function writeLlhttpFiles(root, outDir) {
  const require = createRequire(path.join(root, "package.json"));
  for (const { module, file } of LLHTTP_WASM) {
    const bytes = require(path.join(path.dirname(require.resolve("undici/package.json")), "lib", "llhttp", module));
    writeFileSync(path.join(outDir, file), bytes);
  }
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
    plugins: [undiciPoolOnly("siteops-action"), lazyHttp2, llhttpFromFiles, sideEffectFree],
    // Bundled CommonJS dependencies call require() for Node built-ins, which ESM does not define.
    banner: {
      js: [
        "// siteops GitHub Action: generated by scripts/build-action.mjs from action/src; do not edit.",
        "import { createRequire as __siteopsCreateRequire } from 'node:module'; const require = __siteopsCreateRequire(import.meta.url); const __siteopsBundleUrl = import.meta.url;",
      ].join("\n"),
    },
  });
  writeLlhttpFiles(root, outDir);
  // The runner checks the whole repository out, but the bundle must be ESM wherever the folder is copied.
  writeFileSync(path.join(outDir, "package.json"), JSON.stringify({ type: "module", private: true }, null, 2) + "\n");
  const bytes = result.metafile.outputs[path.relative(root, outfile)]?.bytes ?? 0;
  if (!quiet) console.error(`build: action bundled into ${path.relative(root, outfile)} (${Math.round(bytes / 1024)} KiB)`);
  return { outDir, outfile, metafile: result.metafile };
}
