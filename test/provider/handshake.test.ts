// The go-plugin side of the provider, run as Terraform runs it: the bundled launcher, the magic cookie,
// the handshake line, mutual TLS with the client certificate from PLUGIN_CLIENT_CERT, the gRPC services,
// and Shutdown ending the process.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { X509Certificate, createPublicKey, generateKeyPairSync } from "node:crypto";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildCertificate } from "../../provider/protocol/certificate.js";
import { loadProtocol } from "../../provider/protocol/descriptor.js";
import { MAGIC_COOKIE_VALUE } from "../../provider/protocol/plugin-server.js";
import { buildProvider } from "./harness.js";

let launcher = "";
beforeAll(async () => {
  const { dir, version } = await buildProvider();
  launcher = path.join(dir, `terraform-provider-siteops_v${version}`);
});

function clientCertificate() {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "secp521r1" });
  const der = buildCertificate(privateKey, createPublicKey(privateKey).export({ type: "spki", format: "der" }));
  return {
    certPem: new X509Certificate(der).toString(),
    keyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
});

interface Launched {
  child: ChildProcess;
  line: string;
  stdoutAfter: () => string;
  exited: Promise<number | null>;
}

function launch(env: Record<string, string>): Promise<Launched> {
  return new Promise((resolve, reject) => {
    const child = spawn(launcher, [], { env: { PATH: process.env.PATH!, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    let out = "";
    let line: string | undefined;
    child.stdout!.setEncoding("utf8").on("data", (c: string) => {
      out += c;
      if (line === undefined && out.includes("\n")) {
        line = out.slice(0, out.indexOf("\n"));
        resolve({ child, line, stdoutAfter: () => out.slice(line!.length + 1), exited });
      }
    });
    child.on("exit", () => line === undefined && reject(new Error(`exited before the handshake; stdout: ${out}`)));
  });
}

function pemOf(b64: string): string {
  return new X509Certificate(Buffer.from(b64, "base64")).toString();
}

function unary(client: grpc.Client, method: string, req: Buffer, deserialize: (b: Buffer) => unknown = (b) => b): Promise<unknown> {
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(
      method,
      (b: Buffer) => b,
      deserialize,
      req,
      (err, res) => (err ? reject(err) : resolve(res)),
    );
  });
}

describe("go-plugin handshake", () => {
  it("refuses to run by hand, with a message for a human", () => {
    const r = spawnSync(launcher, [], { env: { PATH: process.env.PATH! }, encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("This binary is a plugin. These are not meant to be executed directly.");
  });

  it("refuses a client that does not offer protocol 6", () => {
    const r = spawnSync(launcher, [], {
      env: { PATH: process.env.PATH!, TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "5" },
      encoding: "utf8",
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("protocol 6");
  });

  it("prints 1|6|unix|<socket>|grpc|<unpadded base64 DER> and serves mutual TLS", async () => {
    const client = clientCertificate();
    const p = await launch({ TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "5,6", PLUGIN_CLIENT_CERT: client.certPem });
    const [core, app, network, socket, protocol, cert] = p.line.split("|");
    expect([core, app, network, protocol]).toEqual(["1", "6", "unix", "grpc"]);
    expect(cert).not.toMatch(/=/);
    const x = new X509Certificate(Buffer.from(cert!, "base64"));
    expect(x.subjectAltName).toBe("DNS:localhost");
    expect(x.checkHost("localhost")).toBe("localhost");
    expect(x.publicKey.asymmetricKeyDetails?.namedCurve).toBe("prime256v1");
    // positive serial, minimally encoded: no leading 00 unless the top bit needs it
    expect(/^[0-7]/.test(x.serialNumber) || x.serialNumber.length % 2 === 0).toBe(true);

    const proto = loadProtocol();
    const creds = grpc.credentials.createSsl(Buffer.from(pemOf(cert!)), Buffer.from(client.keyPem), Buffer.from(client.certPem));
    const c = new grpc.Client(`unix://${socket}`, creds);
    const schema = (await unary(c, "/tfplugin6.Provider/GetProviderSchema", Buffer.from(proto.encode("tfplugin6.GetProviderSchema.Request", {})), (b) =>
      proto.decode("tfplugin6.GetProviderSchema.Response", b),
    )) as {
      resource_schemas: Record<string, unknown>;
      data_source_schemas: Record<string, unknown>;
    };
    expect(Object.keys(schema.resource_schemas).sort()).toEqual(["siteops_site", "siteops_webhook_endpoint"]);
    expect(Object.keys(schema.data_source_schemas).sort()).toEqual(["siteops_account", "siteops_me", "siteops_site", "siteops_sites"]);

    // A client without the certificate Terraform announced is turned away.
    const stranger = clientCertificate();
    const other = new grpc.Client(
      `unix://${socket}`,
      grpc.credentials.createSsl(Buffer.from(pemOf(cert!)), Buffer.from(stranger.keyPem), Buffer.from(stranger.certPem)),
    );
    await expect(unary(other, "/tfplugin6.Provider/GetProviderSchema", Buffer.alloc(0))).rejects.toThrow();
    other.close();
    // So is one with no client certificate at all.
    const anonymous = new grpc.Client(`unix://${socket}`, grpc.credentials.createSsl(Buffer.from(pemOf(cert!))));
    await expect(unary(anonymous, "/tfplugin6.Provider/GetProviderSchema", Buffer.alloc(0))).rejects.toThrow();
    anonymous.close();

    // Shutdown answers and the process exits right away (go-plugin would otherwise wait 2 s to kill it).
    await unary(c, "/plugin.GRPCController/Shutdown", Buffer.alloc(0));
    expect(await p.exited).toBe(0);
    expect(p.stdoutAfter()).toBe("");
    c.close();
  });

  it("ignores SIGINT (Terraform sends StopProvider instead)", async () => {
    const p = await launch({ TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "6", TF_DISABLE_PLUGIN_TLS: "1" });
    const [, , , socket, , cert] = p.line.split("|");
    expect(cert).toBe("");
    p.child.kill("SIGINT");
    const c = new grpc.Client(`unix://${socket}`, grpc.credentials.createInsecure());
    const stop = (await unary(c, "/tfplugin6.Provider/StopProvider", Buffer.alloc(0), (b) => loadProtocol().decode("tfplugin6.StopProvider.Response", b))) as {
      Error: string;
    };
    expect(stop.Error).toBe("");
    expect(p.child.exitCode).toBeNull();
    await unary(c, "/plugin.GRPCController/Shutdown", Buffer.alloc(0));
    expect(await p.exited).toBe(0);
    c.close();
  });
});
