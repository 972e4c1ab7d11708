// Helpers for the release tests: the release built once per test file, terraform run where no Node.js can be
// reached (a mount namespace in which every Node.js binary of this machine is replaced by a stub that records
// being run), a static HTTPS file server on loopback (Terraform accepts network mirrors over https only), a
// zip reader, and qemu-user for running the linux_arm64 executable on an x64 machine.
import { spawn } from "node:child_process";
import { chmodSync, createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { inflateRawSync } from "node:zlib";
import { generateServerCertificate } from "../../provider/protocol/certificate.js";
import { ROOT } from "../provider/harness.js";

export { ROOT };

export interface Release {
  outDir: string;
  version: string;
  /** The network mirror's <version>.json. */
  archives: Record<string, { url: string; hashes: string[] }>;
}

/** `npm run build:release` into a temp dir (the Node.js binaries come from node_modules/.cache/siteops-sea). */
export async function buildRelease(scratch: string): Promise<Release> {
  const outDir = path.join(scratch, "release");
  const mod = (await import(pathToFileURL(path.join(ROOT, "scripts/build-release.mjs")).href)) as {
    default(o: { root: string; outDir: string }): Promise<{ version: string; archives: Release["archives"] }>;
  };
  const { version, archives } = await mod.default({ root: ROOT, outDir });
  return { outDir, version, archives };
}

/** Every Node.js binary on this machine that a process could find: on PATH, this one, the cached ones. */
function nodeBinaries(): string[] {
  const found = new Set<string>();
  const add = (file: string) => {
    if (existsSync(file) && statSync(file).isFile()) found.add(realpathSync(file));
  };
  for (const dir of (process.env.PATH ?? "").split(path.delimiter).filter(Boolean)) add(path.join(dir, "node"));
  for (const dir of ["/usr/bin", "/usr/local/bin", "/bin"]) add(path.join(dir, "node"));
  add(process.execPath);
  const cache = path.join(ROOT, "node_modules/.cache/siteops-sea");
  if (existsSync(cache)) for (const pkg of readdirSync(cache)) add(path.join(cache, pkg, "package/bin/node"));
  return [...found];
}

function which(cmd: string): string {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const file = path.join(dir, cmd);
    if (dir && existsSync(file)) return file;
  }
  throw new Error(`${cmd} is not on PATH`);
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a process to its end, collecting its output. */
export function runProcess(cmd: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/**
 * Runs terraform. With `noNode`, in a user + mount namespace (unshare) where every Node.js binary is bind-
 * mounted over by a stub that appends to `nodeRuns()` and exits 97, with PATH holding terraform alone and a
 * NODE_OPTIONS that would break any Node.js that honoured it.
 */
export class TerraformRunner {
  readonly dir: string;
  private readonly bin: string;
  private readonly marker: string;
  private readonly stub: string;

  constructor(readonly cliConfig: string) {
    this.dir = mkdtempSync(path.join(tmpdir(), "siteops-release-tf-"));
    this.bin = path.join(this.dir, "bin");
    mkdirSync(this.bin);
    symlinkSync(realpathSync(which("terraform")), path.join(this.bin, "terraform"));
    this.marker = path.join(this.dir, "node-runs.log");
    this.stub = path.join(this.dir, "node-stub");
    writeFileSync(this.stub, `#!/bin/sh\necho "node run: $0 $*" >> ${JSON.stringify(this.marker)}\nexit 97\n`);
    chmodSync(this.stub, 0o755);
  }

  /** What the stubbed Node.js binaries recorded (empty when none ran). */
  nodeRuns(): string {
    return existsSync(this.marker) ? readFileSync(this.marker, "utf8") : "";
  }

  run(cwd: string, args: string[], options: { env?: Record<string, string>; noNode?: boolean } = {}): Promise<RunResult> {
    const env: Record<string, string> = {
      TF_CLI_CONFIG_FILE: this.cliConfig,
      CHECKPOINT_DISABLE: "1",
      TF_IN_AUTOMATION: "1",
      HOME: this.dir,
      PATH: options.noNode ? this.bin : (process.env.PATH ?? ""),
      ...options.env,
    };
    let cmd = "terraform";
    let argv = args;
    if (options.noNode) {
      env.NODE_OPTIONS = "--require /nonexistent/siteops-poison.js";
      const script = [
        "set -e",
        ...nodeBinaries().map((n) => `${which("mount")} --bind ${JSON.stringify(this.stub)} ${JSON.stringify(n)}`),
        `exec terraform "$@"`,
      ].join("\n");
      cmd = which("unshare");
      argv = ["--user", "--map-root-user", "--mount", "/bin/sh", "-c", script, "sh", ...args];
    }
    return runProcess(cmd, argv, { cwd, env });
  }

  async ok(cwd: string, args: string[], options: { env?: Record<string, string>; noNode?: boolean } = {}): Promise<RunResult> {
    const r = await this.run(cwd, args, options);
    if (r.code !== 0) throw new Error(`terraform ${args.join(" ")} exited ${r.code}\n${r.stdout}\n${r.stderr}\n${this.nodeRuns()}`);
    return r;
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export function cliConfig(file: string, installation: string): string {
  writeFileSync(file, `provider_installation {\n${installation}\n  direct {\n    exclude = ["registry.terraform.io/siteops/siteops"]\n  }\n}\n`);
  return file;
}

export interface StaticServer {
  url: string;
  /** The certificate to trust (SSL_CERT_FILE for terraform). */
  caFile: string;
  requests: { path: string; status: number }[];
  close(): Promise<void>;
}

/** Serves `dir` over HTTPS on 127.0.0.1 as https://localhost:<port>/, with a fresh self-signed certificate. */
export async function serveStatic(dir: string, scratch: string): Promise<StaticServer> {
  const cert = generateServerCertificate();
  const caFile = path.join(scratch, "mirror-ca.pem");
  writeFileSync(caFile, cert.certPem);
  const requests: StaticServer["requests"] = [];
  const server: Server = createServer({ key: cert.keyPem, cert: cert.certPem }, (req, res) => {
    const rel = decodeURIComponent(new URL(req.url ?? "/", "https://localhost").pathname);
    const file = path.join(dir, rel);
    const ok = req.method === "GET" && file.startsWith(dir + path.sep) && existsSync(file) && statSync(file).isFile();
    requests.push({ path: rel, status: ok ? 200 : 404 });
    if (!ok) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": file.endsWith(".json") ? "application/json" : "application/zip", "content-length": statSync(file).size });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `https://localhost:${(server.address() as AddressInfo).port}/`,
    caFile,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface ZipEntry {
  name: string;
  mode: number;
  data: Buffer;
}

/** The entries of a zip, read through its central directory (deflate or stored). */
export function readZip(zip: Buffer): ZipEntry[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const name = zip.toString("utf8", at + 46, at + 46 + nameLength);
    const local = zip.readUInt32LE(at + 42);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + size);
    entries.push({ name, mode: zip.readUInt32LE(at + 38) >>> 16, data: method === 8 ? inflateRawSync(raw) : Buffer.from(raw) });
    at += 46 + skip;
  }
  return entries;
}

/** qemu-user and the arm64 C libraries (Debian: qemu-user libc6-arm64-cross libstdc++6-arm64-cross), if here. */
export function qemuArm64(): { qemu: string; sysroot: string } | undefined {
  const sysroot = "/usr/aarch64-linux-gnu";
  const qemu = (process.env.PATH ?? "").split(path.delimiter).map((d) => path.join(d, "qemu-aarch64")).find((f) => existsSync(f));
  return qemu && existsSync(path.join(sysroot, "lib/libstdc++.so.6")) ? { qemu, sysroot } : undefined;
}
