// Benchmark 1: provider process start to handshake line, vs `node -e 0` start to exit, 20 launches each,
// interleaved, medians. Target: <= 1.3x. Also shown: start to the first answered RPC (GetProviderSchema
// over mutual TLS), since the provider finishes loading HTTP/2 after printing the handshake line.
import { spawn } from "node:child_process";
import http2 from "node:http2";
import tls from "node:tls";
import { createPublicKey, generateKeyPairSync, X509Certificate } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildCertificate } from "../provider/protocol/certificate.js";
import { MAGIC_COOKIE_VALUE } from "../provider/protocol/plugin-server.js";
import { buildProvider, median, table } from "./provider-helpers.js";

const LAUNCHES = Number(process.env.BENCH_LAUNCHES ?? 20);

interface Launch {
  handshake: number;
  firstReply: number;
}

function launch(cmd: string, args: string[], env: NodeJS.ProcessEnv, client?: { key: string; cert: string }): Promise<Launch> {
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
        const req = session.request({ ":method": "POST", ":path": "/tfplugin6.Provider/GetProviderSchema", "content-type": "application/grpc", te: "trailers" });
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
    child.on("exit", (code) => {
      if (done) return;
      done = true;
      if (client) reject(new Error(`exited (${code}) before the handshake`));
      else resolve({ handshake: elapsed(), firstReply: elapsed() });
    });
  });
}

// Terraform's side of AutoMTLS: a client certificate in PLUGIN_CLIENT_CERT (Terraform uses P-521).
const { privateKey } = generateKeyPairSync("ec", { namedCurve: "secp521r1" });
const client = {
  cert: new X509Certificate(buildCertificate(privateKey, createPublicKey(privateKey).export({ type: "spki", format: "der" }))).toString(),
  key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
};

const out = mkdtempSync(path.join(tmpdir(), "siteops-provider-startup-"));
try {
  const provider = await buildProvider(out);
  const env = {
    PATH: process.env.PATH,
    TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE,
    PLUGIN_PROTOCOL_VERSIONS: "5,6",
    PLUGIN_MIN_PORT: "10000",
    PLUGIN_MAX_PORT: "25000",
    PLUGIN_CLIENT_CERT: client.cert,
  };
  const node: number[] = [];
  const handshake: number[] = [];
  const firstReply: number[] = [];
  await launch(provider.launcher, [], env, client); // warm the page cache
  for (let i = 0; i < LAUNCHES; i++) {
    node.push((await launch(process.execPath, ["-e", "0"], env)).handshake);
    const p = await launch(provider.launcher, [], env, client);
    handshake.push(p.handshake);
    firstReply.push(p.firstReply);
  }
  const base = median(node);
  const row = (name: string, values: number[]) => [name, median(values).toFixed(1), Math.min(...values).toFixed(1), `${(median(values) / base).toFixed(2)}x`];
  console.log(`${LAUNCHES} launches each, interleaved; wall-clock ms\n`);
  console.log(
    table(
      ["process", "median ms", "min ms", "ratio (medians)"],
      [
        row("node -e 0 (start to exit)", node),
        row("provider launcher: start to handshake line", handshake),
        row("provider launcher: start to first RPC answered (mTLS)", firstReply),
      ],
    ),
  );
  console.log(`\nratio ${(median(handshake) / base).toFixed(2)}x to the handshake line (target <= 1.3x); ${(median(firstReply) / base).toFixed(2)}x to the first answered RPC`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
