// Entry point of the provider executable (bundled by scripts/build-provider.mjs): handshake first, then
// the provider and its RPC server (serve.ts, a separate file in the bundle, compiled code cached between
// runs: compile-cache.ts), serving until Terraform's go-plugin client sends Shutdown. On a Node.js the package
// does not support, the same handshake, then a provider that answers every call with the one sentence
// (unsupported-node.ts): Terraform shows a diagnostic, never the stderr of a plugin that exited.
import { createRequire } from "node:module";
import { unsupportedNode } from "../common/node-support.js";
import { enableCompileCache } from "./compile-cache.js";
import { launchedAsPlugin, servePlugin, type RpcModule } from "./protocol/plugin-server.js";
import { unsupportedNodeDiagnostic } from "./unsupported-node.js";

declare const __SITEOPS_SERVE_FILE__: string | undefined;

type ServeModule = typeof import("./serve.js");

async function loadServe(): Promise<ServeModule> {
  if (typeof __SITEOPS_SERVE_FILE__ !== "undefined") return createRequire(import.meta.url)(__SITEOPS_SERVE_FILE__) as ServeModule;
  return import("./serve.js");
}

/**
 * V8 without its optimizing compilers (Maglev, TurboFan) for the RPC half: interpreted and baseline (Sparkplug)
 * code. Terraform starts the provider 3-5 times per command and each process serves one phase's RPCs, a few
 * hundred for a few hundred resources, while Terraform works on the same cores: there the optimizing compilers
 * spent more CPU than their code saved in so short a life (provider CPU per resource at 200 per process, busy
 * machine: 863 -> 393 us for siteops_noop, 2,033 -> 1,364 for siteops_site; bench/results/provider-issue-51.md,
 * "Less work per RPC"). SITEOPS_V8_OPTIMIZE=1 keeps Node's default. Set before the RPC half loads, through
 * getBuiltinModule (node:v8 loaded at the top would cost start-up).
 */
function baselineTiersOnly(env: NodeJS.ProcessEnv): void {
  if (env.SITEOPS_V8_OPTIMIZE) return;
  process.getBuiltinModule?.("node:v8")?.setFlagsFromString("--no-maglev --no-turbofan --always-sparkplug");
}

async function loadRpc(): Promise<RpcModule> {
  baselineTiersOnly(process.env);
  // After the handshake line, before the RPC half and the API client load: their compiled code is cached.
  enableCompileCache();
  return (await loadServe()).rpc;
}

const unsupported = unsupportedNode("the siteops Terraform provider");
if (unsupported && !launchedAsPlugin(process.env)) {
  // Run by hand: the one line, as the CLI prints it.
  process.stderr.write(`${unsupported}\n`);
  process.exit(1);
}
const rpc = unsupported ? async () => (await loadServe()).refusal(unsupportedNodeDiagnostic(unsupported)) : loadRpc;

servePlugin(rpc).catch((err: unknown) => {
  process.stderr.write(`siteops provider: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
