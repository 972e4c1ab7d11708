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

async function loadRpc(): Promise<RpcModule> {
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
