// go-plugin's side of the conversation: magic cookie, protocol negotiation, AutoMTLS, the handshake line,
// and a gRPC server (grpc-server.ts) on a unix socket carrying the tfplugin6 Provider service plus
// go-plugin's own controller, stdio and broker services and the health check.
import { randomBytes } from "node:crypto";
import { rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer, type Socket } from "node:net";
import { join } from "node:path";
import { log } from "../log.js";
import { generateServerCertificate, handshakeCertificate } from "./certificate.js";
import type { GrpcServer } from "./grpc-server.js";
import type { RpcOptions } from "./rpc-server.js";

const MAGIC_COOKIE_KEY = "TF_PLUGIN_MAGIC_COOKIE";
export const MAGIC_COOKIE_VALUE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";
const CORE_PROTOCOL_VERSION = 1;
const APP_PROTOCOL_VERSION = 6;

class HandshakeError extends Error {
  override name = "HandshakeError";
}

/** Whether go-plugin started this process (its magic cookie is set), not a human by hand. */
export function launchedAsPlugin(env: NodeJS.ProcessEnv): boolean {
  return env[MAGIC_COOKIE_KEY] === MAGIC_COOKIE_VALUE;
}

/** Checks the environment go-plugin sets; throws a message meant for a human who ran the binary by hand. */
function checkLaunch(env: NodeJS.ProcessEnv): void {
  if (!launchedAsPlugin(env)) {
    throw new HandshakeError(
      "This binary is a plugin. These are not meant to be executed directly.\n" +
        "Please execute the program that consumes these plugins, which will load any plugins automatically\n" +
        '(for this one: Terraform, with `source = "siteops/siteops"` in required_providers).',
    );
  }
  const offered = (env.PLUGIN_PROTOCOL_VERSIONS ?? String(APP_PROTOCOL_VERSION)).split(",").map((v) => v.trim());
  if (!offered.includes(String(APP_PROTOCOL_VERSION))) {
    throw new HandshakeError(
      `This provider speaks Terraform plugin protocol ${APP_PROTOCOL_VERSION}, but the client offered ${offered.join(", ")}. Use Terraform 1.0 or later.`,
    );
  }
}

/** What the post-handshake module provides (rpc-server.ts with the provider bound, see main.ts). */
export interface RpcModule {
  start(options: RpcOptions): Promise<GrpcServer>;
}

interface Served {
  socketPath: string;
  handshake: string;
  /** Loads the RPC layer and serves the connections that arrived meanwhile; call once the line is out. */
  serve(): Promise<void>;
  close(): void;
}

/**
 * Listens and returns the handshake line (without printing it); `serve()` then loads the RPC layer with
 * `loadRpc`. `onShutdown` runs when Terraform's go-plugin client has received the answer to
 * GRPCController.Shutdown; the process should exit then.
 */
async function startPluginServer(loadRpc: () => Promise<RpcModule>, env: NodeJS.ProcessEnv, onShutdown: () => void): Promise<Served> {
  const clientCert = env.PLUGIN_CLIENT_CERT;
  const useTls = !!clientCert && env.TF_DISABLE_PLUGIN_TLS !== "1";
  let certField = "";
  let tls: { key: string; cert: string; clientCert: string } | undefined;
  if (useTls) {
    const cert = generateServerCertificate();
    // The client's self-signed certificate is its own root: requiring it is go-plugin's mutual TLS.
    tls = {
      get key() {
        return cert.keyPem;
      },
      get cert() {
        return cert.certPem;
      },
      clientCert: clientCert!,
    };
    certField = handshakeCertificate(cert.der);
  }

  // Listen first and announce the socket; HTTP/2, TLS and the protocol tables load right after the line is
  // out. Connections that arrive meanwhile wait, unread, in `early`.
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

  const handshake = [CORE_PROTOCOL_VERSION, APP_PROTOCOL_VERSION, "unix", socketPath, "grpc", certField].join("|");
  return {
    socketPath,
    handshake,
    async serve() {
      try {
        grpc = await (await loadRpc()).start({ tls, onShutdown });
      } catch (err) {
        log.error("cannot start the gRPC server", { error: err instanceof Error ? err.message : String(err) });
        process.exit(1);
      }
      for (const socket of early.splice(0)) grpc.accept(socket);
    },
    close() {
      grpc?.close();
      listener.close();
      rmSync(socketPath, { force: true });
    },
  };
}

/** Runs the plugin for the life of the process: what `main.ts` calls. */
export async function servePlugin(loadRpc: () => Promise<RpcModule>): Promise<void> {
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
  served = await startPluginServer(loadRpc, process.env, exit);
  // Written synchronously to the fd: process.stdout would build a stream object, a cost of every start, that is
  // never used again, and the RPC layer can then load at once instead of after a turn of the event loop.
  writeSync(1, `${served.handshake}\n`);
  // From here on stdout belongs to the protocol: anything printed by mistake (console.log included) goes to stderr.
  Object.defineProperty(process, "stdout", { configurable: true, enumerable: true, get: () => process.stderr });
  process.on("exit", () => served?.close());
  // If Terraform dies without Shutdown (SIGKILL, crash), we are re-parented: exit instead of lingering.
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && exit(), 1000).unref();
  await served.serve();
}
