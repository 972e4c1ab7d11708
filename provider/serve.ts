// The post-handshake half of the plugin (see main.ts): the siteops provider behind the RPC server.
import { ProviderServer } from "./framework/provider-server.js";
import type { RpcModule } from "./protocol/plugin-server.js";
import { startRpcServer } from "./protocol/rpc-server.js";
import { siteopsProvider } from "./provider.js";

export const rpc: RpcModule = {
  start: (options) => startRpcServer(new ProviderServer(siteopsProvider()), options),
};
