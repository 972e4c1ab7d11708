// Everything the plugin needs after the handshake line: the protocol tables and the gRPC server, serving a
// tfplugin6 Provider service (tfplugin6.ts; the framework's ProviderServer is one). A module of its own so
// that the process can print the handshake line before loading it (serve.ts binds the provider; scripts/
// build-provider.mjs bundles them into a separate file).
import { loadProtocol } from "./descriptor.js";
import { createGrpcServer, type GrpcServer, type UnaryHandler } from "./grpc-server.js";
import type { ProviderService } from "./tfplugin6.js";
import { baselineTiersFirst } from "./v8-tiers.js";

type Handler = (req: never) => Promise<object> | object;

export interface RpcOptions {
  tls?: { key: string; cert: string; clientCert: string };
  /** Runs once Terraform's go-plugin client has received the answer to GRPCController.Shutdown. */
  onShutdown: () => void;
}

const SHUTDOWN = "/plugin.GRPCController/Shutdown";

export async function startRpcServer(provider: ProviderService, options: RpcOptions): Promise<GrpcServer> {
  const proto = loadProtocol();
  const tiers = baselineTiersFirst(process.env);
  const unary: Record<string, UnaryHandler> = {};
  for (const method of proto.services.get("tfplugin6.Provider") ?? []) {
    const fn = methodHandler(provider, method.name);
    unary[`/tfplugin6.Provider/${method.name}`] = async (bytes) => {
      tiers.served();
      const reply = await fn(proto.decode(method.requestType, bytes) as never);
      return proto.encode(method.responseType, reply as Record<string, unknown>);
    };
  }
  unary[SHUTDOWN] = () => new Uint8Array(0);
  // HealthCheckResponse{status: SERVING}
  unary["/grpc.health.v1.Health/Check"] = () => Uint8Array.of(0x08, 0x01);
  let exiting = false;
  return createGrpcServer({
    tls: options.tls,
    unary,
    // Terraform always opens these two streams; we have nothing to send on them.
    idle: ["/plugin.GRPCStdio/StreamStdio", "/plugin.GRPCBroker/StartStream"],
    onReplied(path) {
      // Exit once the Shutdown reply is delivered: go-plugin otherwise waits ~2 s before killing us.
      if (path !== SHUTDOWN || exiting) return;
      exiting = true;
      options.onShutdown();
    },
  });
}

function methodHandler(provider: ProviderService, name: string): Handler {
  const table: Record<string, Handler> = {
    GetMetadata: () => provider.getMetadata(),
    GetProviderSchema: () => provider.getProviderSchema(),
    ValidateProviderConfig: (r: never) => provider.validateProviderConfig(r),
    ValidateResourceConfig: (r: never) => provider.validateResourceConfig(r),
    ValidateDataResourceConfig: (r: never) => provider.validateDataResourceConfig(r),
    UpgradeResourceState: (r: never) => provider.upgradeResourceState(r),
    ConfigureProvider: (r: never) => provider.configureProvider(r),
    ReadResource: (r: never) => provider.readResource(r),
    PlanResourceChange: (r: never) => provider.planResourceChange(r),
    ApplyResourceChange: (r: never) => provider.applyResourceChange(r),
    ImportResourceState: (r: never) => provider.importResourceState(r),
    ReadDataSource: (r: never) => provider.readDataSource(r),
    GetFunctions: () => provider.getFunctions(),
    CallFunction: (r: never) => provider.callFunction(r),
    StopProvider: () => provider.stopProvider(),
  };
  const h = table[name];
  if (!h) throw new Error(`no handler for ${name}`);
  return h;
}
