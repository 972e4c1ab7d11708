// go-plugin's side of the conversation: magic cookie, protocol negotiation, AutoMTLS, the handshake line,
// and a gRPC server on a unix socket carrying the tfplugin6 Provider service plus go-plugin's own
// controller, stdio and broker services.
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import type protobuf from "protobufjs/light.js";
import type { ProviderServer } from "../framework/provider-server.js";
import { log } from "../framework/log.js";
import { generateServerCertificate, handshakeCertificate } from "./certificate.js";
import { loadRoot } from "./descriptor.js";

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

const empty = Buffer.alloc(0);
const passthrough = {
  serialize: (b: Buffer) => b,
  deserialize: (b: Buffer) => b,
};

function unaryDef(path: string, req: protobuf.Type, res: protobuf.Type): grpc.MethodDefinition<protobuf.Message, object> {
  return {
    path,
    requestStream: false,
    responseStream: false,
    requestSerialize: (m: protobuf.Message) => Buffer.from(req.encode(m).finish()),
    requestDeserialize: (b: Buffer) => req.decode(b),
    responseSerialize: (o: object) => Buffer.from(res.encode(res.fromObject(o as Record<string, unknown>)).finish()),
    responseDeserialize: (b: Buffer) => res.decode(b),
  };
}

type Handler = (req: never) => Promise<object> | object;

export interface Served {
  socketPath: string;
  handshake: string;
  close(): void;
}

/**
 * Starts the gRPC server and returns the handshake line (without printing it). `onShutdown` runs when
 * Terraform's go-plugin client calls GRPCController.Shutdown; the process should exit then.
 */
export async function startPluginServer(provider: ProviderServer<unknown>, env: NodeJS.ProcessEnv, onShutdown: () => void): Promise<Served> {
  const root = loadRoot();
  const service = root.lookupService("tfplugin6.Provider");
  const definition: Record<string, grpc.MethodDefinition<protobuf.Message, object>> = {};
  const implementation: Record<string, grpc.handleUnaryCall<never, object>> = {};
  for (const method of service.methodsArray) {
    method.resolve();
    const name = method.name;
    definition[name] = unaryDef(`/tfplugin6.Provider/${name}`, method.resolvedRequestType!, method.resolvedResponseType!);
    const fn = methodHandler(provider, name);
    implementation[name] = (call: grpc.ServerUnaryCall<never, object>, callback: grpc.sendUnaryData<object>) => {
      Promise.resolve()
        .then(() => fn(call.request))
        .then(
          (res) => callback(null, res),
          (err: unknown) => callback({ code: grpc.status.INTERNAL, details: err instanceof Error ? err.message : String(err) }),
        );
    };
  }

  const server = new grpc.Server({ "grpc.max_receive_message_length": 256 * 1024 * 1024, "grpc.max_send_message_length": 256 * 1024 * 1024 });
  server.addService(definition as grpc.ServiceDefinition, implementation as unknown as grpc.UntypedServiceImplementation);

  server.addService(
    {
      Shutdown: { path: "/plugin.GRPCController/Shutdown", requestStream: false, responseStream: false, requestSerialize: passthrough.serialize, requestDeserialize: passthrough.deserialize, responseSerialize: passthrough.serialize, responseDeserialize: passthrough.deserialize },
    },
    {
      Shutdown: (_call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
        callback(null, empty);
        // Exit as soon as the reply is delivered (go-plugin otherwise waits ~2 s before killing us): end the
        // idle streams, let grpc-js flush, and cap the wait in case the client keeps something open.
        for (const call of idle) call.end();
        const cap = setTimeout(onShutdown, 100);
        server.tryShutdown(() => {
          clearTimeout(cap);
          onShutdown();
        });
      },
    },
  );
  // Terraform always opens these two streams; we have nothing to send on them, so they stay open and idle.
  const idle = new Set<grpc.ServerWritableStream<Buffer, Buffer> | grpc.ServerDuplexStream<Buffer, Buffer>>();
  server.addService(
    {
      StreamStdio: { path: "/plugin.GRPCStdio/StreamStdio", requestStream: false, responseStream: true, requestSerialize: passthrough.serialize, requestDeserialize: passthrough.deserialize, responseSerialize: passthrough.serialize, responseDeserialize: passthrough.deserialize },
    },
    { StreamStdio: (call: grpc.ServerWritableStream<Buffer, Buffer>) => void idle.add(call) },
  );
  server.addService(
    {
      StartStream: { path: "/plugin.GRPCBroker/StartStream", requestStream: true, responseStream: true, requestSerialize: passthrough.serialize, requestDeserialize: passthrough.deserialize, responseSerialize: passthrough.serialize, responseDeserialize: passthrough.deserialize },
    },
    {
      StartStream: (call: grpc.ServerDuplexStream<Buffer, Buffer>) => {
        idle.add(call);
        call.on("data", () => {});
        call.on("end", () => call.end());
      },
    },
  );
  server.addService(
    {
      Check: { path: "/grpc.health.v1.Health/Check", requestStream: false, responseStream: false, requestSerialize: passthrough.serialize, requestDeserialize: passthrough.deserialize, responseSerialize: passthrough.serialize, responseDeserialize: passthrough.deserialize },
    },
    // HealthCheckResponse{status: SERVING}
    { Check: (_c: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) => cb(null, Buffer.from([0x08, 0x01])) },
  );

  const clientCert = env.PLUGIN_CLIENT_CERT;
  const tls = !!clientCert && env.TF_DISABLE_PLUGIN_TLS !== "1";
  let certField = "";
  let credentials: grpc.ServerCredentials;
  if (tls) {
    const cert = generateServerCertificate();
    // The client's self-signed certificate is its own root: requiring it is go-plugin's mutual TLS.
    credentials = grpc.ServerCredentials.createSsl(Buffer.from(clientCert), [{ cert_chain: Buffer.from(cert.certPem), private_key: Buffer.from(cert.keyPem) }], true);
    certField = handshakeCertificate(cert.der);
  } else {
    credentials = grpc.ServerCredentials.createInsecure();
  }

  const socketPath = join(env.PLUGIN_UNIX_SOCKET_DIR || tmpdir(), `plugin${randomBytes(6).toString("hex")}`);
  await new Promise<void>((resolve, reject) => {
    server.bindAsync(`unix://${socketPath}`, credentials, (err) => (err ? reject(err) : resolve()));
  });
  log.debug("plugin server listening", { socket: socketPath, tls });
  const handshake = [CORE_PROTOCOL_VERSION, APP_PROTOCOL_VERSION, "unix", socketPath, "grpc", certField].join("|");
  return {
    socketPath,
    handshake,
    close() {
      for (const call of idle) call.end();
      server.forceShutdown();
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
}
