// Node built-ins that the first request never needs (hashing, the hash worker) or that only one transport
// needs (node:http, node:https), loaded on first use rather than when the core loads: each is a measurable part
// of a bundled action's or provider's start-up (BENCHMARKS.md, the action's and the provider's start-up).
// process.getBuiltinModule (Node >= 20.16) does exactly this; older 20.x use a require.

import { createRequire } from "node:module";
import path from "node:path";

type Builtins = {
  "node:crypto": typeof import("node:crypto");
  "node:dns": typeof import("node:dns");
  "node:http": typeof import("node:http");
  "node:https": typeof import("node:https");
  "node:worker_threads": typeof import("node:worker_threads");
  "node:zlib": typeof import("node:zlib");
};

let requireBuiltin: ((id: string) => unknown) | undefined;

export function builtin<ID extends keyof Builtins>(id: ID): Builtins[ID] {
  const get = process.getBuiltinModule as ((id: string) => unknown) | undefined;
  if (get) return get.call(process, id) as Builtins[ID];
  // Built-ins resolve the same from any directory (and import.meta is not there in the CommonJS bundles).
  requireBuiltin ??= createRequire(path.join(process.cwd(), "[siteops]"));
  return requireBuiltin(id) as Builtins[ID];
}
