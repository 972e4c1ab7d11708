// Entry point of the provider as a single executable (scripts/sea.mjs): main.ts, unchanged, with the two files
// it loads after the handshake (the RPC half, then the API client at the first API call) read from the executable's
// embedded assets instead of from beside it. The executable is a Node.js binary; it never looks for another.
import nodeModule from "node:module";
import path from "node:path";
import { getAsset } from "node:sea";
import { fileURLToPath } from "node:url";

/** The bundle files embedded as assets, by file name (set by the build). */
declare const __SITEOPS_SEA_ASSETS__: string[];

const assets = new Set(__SITEOPS_SEA_ASSETS__);
const dir = path.dirname(process.execPath);

/** The asset a file URL names: a bundle file "beside" the executable, where the Node launcher's files are. */
function assetAt(url: string): string | undefined {
  if (!url.startsWith("file:")) return undefined;
  const file = fileURLToPath(url);
  return path.dirname(file) === dir && assets.has(path.basename(file)) ? path.basename(file) : undefined;
}

interface Hooks {
  resolve(specifier: string, context: { parentURL?: string }, next: (specifier: string, context: unknown) => unknown): unknown;
  load(url: string, context: unknown, next: (url: string, context: unknown) => unknown): unknown;
}

// module.registerHooks (Node >= 22.15; not in this repo's Node 20 types) is synchronous and in-thread, so it
// also serves require(): the bundles load each other with createRequire(...)("./<file>.cjs").
const { registerHooks } = nodeModule as unknown as { registerHooks(hooks: Hooks): unknown };
registerHooks({
  resolve(specifier, context, next) {
    if (specifier.startsWith("./") && context.parentURL) {
      const url = new URL(specifier, context.parentURL).href;
      if (assetAt(url)) return { url, format: "commonjs", shortCircuit: true };
    }
    return next(specifier, context);
  },
  load(url, context, next) {
    const asset = assetAt(url);
    return asset ? { format: "commonjs", source: getAsset(asset, "utf8"), shortCircuit: true } : next(url, context);
  },
});

// After the hooks: a static import would run main.ts first. The bundle turns this into a plain call.
void import("./main.js");
