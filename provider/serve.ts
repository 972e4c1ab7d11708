// The post-handshake half of the plugin (see main.ts): the siteops provider behind the RPC server, or, on a
// Node.js the package does not support, a provider that refuses every call with one diagnostic.
import { ProviderServer } from "./framework/provider-server.js";
import type { RpcModule } from "./protocol/plugin-server.js";
import type { Diagnostic } from "./protocol/tfplugin6.js";
import { startRpcServer } from "./protocol/rpc-server.js";
import { siteopsProvider } from "./provider.js";
import { refusingProvider } from "./unsupported-node.js";

export const rpc: RpcModule = {
  start: (options) => startRpcServer(new ProviderServer(siteopsProvider()), options),
};

/** The RPC server of a provider that answers every call with `diagnostic` (main.ts, on an unsupported Node). */
export function refusal(diagnostic: Diagnostic): RpcModule {
  return { start: (options) => startRpcServer(refusingProvider(diagnostic), options) };
}
