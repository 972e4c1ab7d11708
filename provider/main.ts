// Entry point of the provider executable (bundled by scripts/build-provider.mjs): handshake first, then
// the provider and its RPC server (serve.ts, a separate file in the bundle, compiled code cached between
// runs: compile-cache.ts), serving until Terraform's go-plugin client sends Shutdown.
import { createRequire } from "node:module";
import { unsupportedNode } from "../common/node-support.js";
import { enableCompileCache } from "./compile-cache.js";
import { servePlugin, type RpcModule } from "./protocol/plugin-server.js";

declare const __SITEOPS_SERVE_FILE__: string | undefined;

async function loadRpc(): Promise<RpcModule> {
  // After the handshake line, before the RPC half and the API client load: their compiled code is cached.
  enableCompileCache();
  if (typeof __SITEOPS_SERVE_FILE__ !== "undefined") return (createRequire(import.meta.url)(__SITEOPS_SERVE_FILE__) as { rpc: RpcModule }).rpc;
  return (await import("./serve.js")).rpc;
}

const unsupported = unsupportedNode("the siteops Terraform provider");
if (unsupported) {
  process.stderr.write(`${unsupported}\n`);
  process.exit(1);
}

servePlugin(loadRpc).catch((err: unknown) => {
  process.stderr.write(`siteops provider: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
