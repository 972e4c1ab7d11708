// go-plugin's side of the conversation: magic cookie, protocol negotiation, AutoMTLS, the handshake line,
// and a gRPC server (grpc-server.ts) on a unix socket carrying the tfplugin6 Provider service plus
// go-plugin's own controller, stdio and broker services and the health check.
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer, type Socket } from "node:net";
import { join } from "node:path";
import type { ProviderServer } from "../framework/provider-server.js";
import { log } from "../framework/log.js";
import { generateServerCertificate, handshakeCertificate } from "./certificate.js";
import { loadProtocol } from "./descriptor.js";
import { createGrpcServer, type GrpcServer, type UnaryHandler } from "./grpc-server.js";

export const MAGIC_COOKIE_KEY = "TF_PLUGIN_MAGIC_COOKIE";
export const MAGIC_COOKIE_VALUE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";
const CORE_PROTOCOL_VERSION = 1;
const APP_PROTOCOL_VERSION = 6;

export class HandshakeError extends Error {
  override name = "HandshakeError";
}

/** Checks the environment go-plugin sets; throws a message meant for a human who ran the binary by hand. */
export function checkLaunch(env: NodeJS.ProcessEnv): void {
  if (env[MAGIC_COOKIE_KEY] !== MAGIC_COOKIE_VALUE) {
    throw new HandshakeError(
      "This binary is a plugin. These are not meant to be executed directly.\n" +
        "Please execute the program that consumes these plugins, which will load any plugins automatically\n" +
        "(for this one: Terraform, with `source = \"siteops/siteops\"` in required_providers).",
    );
  }
  const offered = (env.PLUGIN_PROTOCOL_VERSIONS ?? String(APP_PROTOCOL_VERSION)).split(",").map((v) => v.trim());
  if (!offered.includes(String(APP_PROTOCOL_VERSION))) {
    throw new HandshakeError(
      `This provider speaks Terraform plugin protocol ${APP_PROTOCOL_VERSION}, but the client offered ${offered.join(", ")}. Use Terraform 1.0 or later.`,
    );
  }
}

type Handler = (req: never) => Promise<object> | object;

export interface Served {
  socketPath: string;
  handshake: string;
  close(): void;
}

/**
 * Starts the gRPC server and returns the handshake line (without printing it). `onShutdown` runs when
 * Terraform's go-plugin client has received the answer to GRPCController.Shutdown; the process should exit.
 */
export async function startPluginServer(provider: ProviderServer<unknown>, env: NodeJS.ProcessEnv, onShutdown: () => void): Promise<Served> {
  const clientCert = env.PLUGIN_CLIENT_CERT;
  const useTls = !!clientCert && env.TF_DISABLE_PLUGIN_TLS !== "1";
  let certField = "";
  let tls: { key: string; cert: string; clientCert: string } | undefined;
  if (useTls) {
    const cert = generateServerCertificate();
    // The client's self-signed certificate is its own root: requiring it is go-plugin's mutual TLS.
    tls = { key: cert.keyPem, cert: cert.certPem, clientCert: clientCert! };
    certField = handshakeCertificate(cert.der);
  }

  // Listen first and announce the socket; HTTP/2, TLS and the protocol tables load right after, while
  // Terraform reads the handshake line and dials. Connections that arrive meanwhile wait, unread, in `early`.
  let grpc: GrpcServer | undefined;
  const early: Socket[] = [];
  const listener = createServer((socket) => (grpc ? grpc.accept(socket) : early.push(socket)));
  const socketPath = join(env.PLUGIN_UNIX_SOCKET_DIR || tmpdir(), `plugin${randomBytes(6).toString("hex")}`);
  await new Promise<void>((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(socketPath, () => {
      listener.off("error", reject);
      resolve();
    });
  });
  log.debug("plugin server listening", { socket: socketPath, tls: useTls });

  let exiting = false;
  const SHUTDOWN = "/plugin.GRPCController/Shutdown";
  // setImmediate: the handshake line is written (in a microtask of the caller) before any of this runs.
  const ready = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
    const proto = loadProtocol();
    const unary: Record<string, UnaryHandler> = {};
    for (const method of proto.services.get("tfplugin6.Provider") ?? []) {
      const fn = methodHandler(provider, method.name);
      unary[`/tfplugin6.Provider/${method.name}`] = async (bytes) => {
        const reply = await fn(proto.decode(method.requestType, bytes) as never);
        return proto.encode(method.responseType, reply as Record<string, unknown>);
      };
    }
    unary[SHUTDOWN] = () => new Uint8Array(0);
    // HealthCheckResponse{status: SERVING}
    unary["/grpc.health.v1.Health/Check"] = () => Uint8Array.of(0x08, 0x01);
    grpc = await createGrpcServer({
      tls,
      unary,
      // Terraform always opens these two streams; we have nothing to send on them.
      idle: ["/plugin.GRPCStdio/StreamStdio", "/plugin.GRPCBroker/StartStream"],
      onReplied(path) {
        // Exit once the Shutdown reply is delivered: go-plugin otherwise waits ~2 s before killing us.
        if (path !== SHUTDOWN || exiting) return;
        exiting = true;
        onShutdown();
      },
    });
    for (const socket of early.splice(0)) grpc.accept(socket);
  });
  ready.catch((err: unknown) => {
    log.error("cannot start the gRPC server", { error: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  });

  const handshake = [CORE_PROTOCOL_VERSION, APP_PROTOCOL_VERSION, "unix", socketPath, "grpc", certField].join("|");
  return {
    socketPath,
    handshake,
    close() {
      grpc?.close();
      listener.close();
      rmSync(socketPath, { force: true });
    },
  };
}

function methodHandler(provider: ProviderServer<unknown>, name: string): Handler {
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
    StopProvider: () => provider.stopProvider(),
  };
  const h = table[name];
  if (!h) throw new Error(`no handler for ${name}`);
  return h;
}

/** Runs the plugin for the life of the process: what `main.ts` calls. */
export async function servePlugin(provider: ProviderServer<unknown>): Promise<void> {
  try {
    checkLaunch(process.env);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  }
  // Ctrl-C reaches the whole process group; Terraform forwards it as StopProvider instead.
  process.on("SIGINT", () => log.debug("SIGINT ignored; waiting for StopProvider"));
  let served: Served | undefined;
  const exit = () => {
    served?.close();
    process.exit(0);
  };
  served = await startPluginServer(provider, process.env, exit);
  process.stdout.write(`${served.handshake}\n`);
  // From here on stdout belongs to the protocol: anything printed by mistake goes to stderr.
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  process.on("exit", () => served?.close());
  // If Terraform dies without Shutdown (SIGKILL, crash), we are re-parented: exit instead of lingering.
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && exit(), 1000).unref();
}
