// Launching a Terraform provider the way Terraform does, for the start-up benchmarks: go-plugin's environment
// with a client certificate (Terraform's side of AutoMTLS), timed from spawn to the handshake line and to the
// first answered RPC (GetProviderSchema over mutual TLS); `node -e 0`-style baselines timed to their exit; and a
// plugin client that plays Terraform's part for the benchmarks that send RPCs without Terraform (startPlugin).
import { spawn } from "node:child_process";
import { createPublicKey, generateKeyPairSync, X509Certificate } from "node:crypto";
import http2 from "node:http2";
import tls from "node:tls";
import { buildCertificate } from "../../provider/protocol/certificate.js";
import { loadProtocol } from "../../provider/protocol/descriptor.js";
import { MAGIC_COOKIE_VALUE } from "../../provider/protocol/plugin-server.js";

export interface PluginClient {
  key: string;
  cert: string;
}

export interface Launch {
  handshake: number;
  firstReply: number;
}

/** A client certificate as Terraform makes one (P-521). */
export function pluginClient(): PluginClient {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "secp521r1" });
  return {
    cert: new X509Certificate(buildCertificate(privateKey, createPublicKey(privateKey).export({ type: "spki", format: "der" }))).toString(),
    key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}

/** The environment Terraform gives a provider process. */
export function pluginEnv(client: PluginClient, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE,
    PLUGIN_PROTOCOL_VERSIONS: "5,6",
    PLUGIN_MIN_PORT: "10000",
    PLUGIN_MAX_PORT: "25000",
    PLUGIN_CLIENT_CERT: client.cert,
    ...extra,
  };
}

/**
 * ms from spawn to the handshake line and to the first answered RPC; without `client`, ms from spawn to exit
 * (both fields), for baselines such as `node -e 0`.
 */
export function launch(cmd: string, args: string[], env: NodeJS.ProcessEnv, client?: PluginClient): Promise<Launch> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(cmd, args, { env, stdio: ["ignore", "pipe", "ignore"] });
    const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
    let done = false;
    if (client) {
      let out = "";
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        if (done || !out.includes("\n")) return;
        done = true;
        const handshake = elapsed();
        const [, , , socket, , cert] = out.slice(0, out.indexOf("\n")).split("|");
        const ca = new X509Certificate(Buffer.from(cert!, "base64")).toString();
        const session = http2.connect("https://localhost", {
          createConnection: () => tls.connect({ path: socket!, ca, key: client.key, cert: client.cert, servername: "localhost", ALPNProtocols: ["h2"] }),
        });
        const req = session.request({
          ":method": "POST",
          ":path": "/tfplugin6.Provider/GetProviderSchema",
          "content-type": "application/grpc",
          te: "trailers",
        });
        req.on("data", () => {});
        req.on("end", () => {
          resolve({ handshake, firstReply: elapsed() });
          session.destroy();
          child.kill("SIGKILL");
        });
        req.on("error", reject);
        req.end(Buffer.alloc(5)); // one empty, uncompressed gRPC message
      });
    }
    child.on("error", reject);
    child.on("exit", (code) => {
      if (done) return;
      done = true;
      if (client) reject(new Error(`${cmd} exited (${code}) before the handshake`));
      else resolve({ handshake: elapsed(), firstReply: elapsed() });
    });
  });
}

/** A provider process serving a client in this process (Terraform's part), over its handshake's socket and TLS. */
export interface Plugin {
  pid: number;
  call(method: string, request: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Terraform's way out: GRPCController.Shutdown, after which the provider exits by itself. */
  stop(): Promise<void>;
}

const proto = loadProtocol();
const methods = new Map(proto.services.get("tfplugin6.Provider")!.map((m) => [m.name, m]));

/** Starts `cmd args` as Terraform starts a provider and connects to it; tfplugin6 calls encoded with our codec. */
export async function startPlugin(cmd: string, args: string[], client: PluginClient, extraEnv: NodeJS.ProcessEnv = {}): Promise<Plugin> {
  const child = spawn(cmd, args, { env: pluginEnv(client, extraEnv), stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
    });
    child.once("exit", (code) => reject(new Error(`${cmd} exited (${code}) before the handshake`)));
  });
  const [, , , socket, , cert] = line.split("|");
  const ca = new X509Certificate(Buffer.from(cert!, "base64")).toString();
  const session = http2.connect("https://localhost", {
    createConnection: () => tls.connect({ path: socket!, ca, key: client.key, cert: client.cert, servername: "localhost", ALPNProtocols: ["h2"] }),
  });
  const request = (path: string, body: Uint8Array) =>
    new Promise<Buffer>((resolve, reject) => {
      const framed = Buffer.alloc(5 + body.length);
      framed.writeUInt32BE(body.length, 1);
      framed.set(body, 5);
      const req = session.request({ ":method": "POST", ":path": path, "content-type": "application/grpc", te: "trailers" });
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => resolve(Buffer.concat(chunks)));
      req.on("error", reject);
      req.end(framed);
    });
  return {
    pid: child.pid!,
    async call(method, body) {
      const m = methods.get(method)!;
      return proto.decode(m.responseType, (await request(`/tfplugin6.Provider/${method}`, proto.encode(m.requestType, body))).subarray(5));
    },
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      await request("/plugin.GRPCController/Shutdown", new Uint8Array(0)).catch(() => {});
      await exited;
      session.destroy();
    },
  };
}
