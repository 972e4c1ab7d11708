// Helpers for the release tests: the release built once per test file, what a test makes of it (mirrors, a
// configuration, the lock file's hashes), a static HTTPS file server on loopback (Terraform accepts network
// mirrors over https only), a zip reader, and qemu-user for running the linux_arm64 executable on x64.
import { copyFileSync, createReadStream, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { inflateRawSync } from "node:zlib";
import { generateServerCertificate } from "../../provider/protocol/certificate.js";
import { ROOT } from "../provider/harness.js";

export { ROOT };

export const MIRROR_PATH = "registry.terraform.io/siteops/siteops";

export interface Release {
  outDir: string;
  version: string;
  /** The network mirror's <version>.json. */
  archives: Record<string, { url: string; hashes: string[] }>;
}

export const zipName = (release: Release, platform: string): string => `terraform-provider-siteops_${release.version}_${platform}.zip`;

/** The h1: hash the release lists for each platform. */
export const h1Hashes = (release: Release): string[] => Object.values(release.archives).map((a) => a.hashes.find((h) => h.startsWith("h1:"))!);

/** A filesystem mirror in `dir` holding the release's zips and nothing else. */
export function zipMirror(release: Release, dir: string): string {
  mkdirSync(path.join(dir, MIRROR_PATH), { recursive: true });
  for (const platform of Object.keys(release.archives))
    copyFileSync(path.join(release.outDir, zipName(release, platform)), path.join(dir, MIRROR_PATH, zipName(release, platform)));
  return dir;
}

/** A configuration in `dir` with one site, against the service at `baseUrl`. */
export function siteConfig(dir: string, baseUrl: string, token: string, siteName: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, "main.tf"),
    `terraform {
  required_providers {
    siteops = { source = "siteops/siteops" }
  }
}

provider "siteops" {
  base_url  = ${JSON.stringify(baseUrl)}
  api_token = ${JSON.stringify(token)}
}

resource "siteops_site" "packaged" {
  name = ${JSON.stringify(siteName)}
  url  = "https://${siteName.toLowerCase().replace(/\W+/g, "-")}.example.com"

  deletion_protection = false # destroyed by the tests
}
`,
  );
  return dir;
}

/** The hashes a working directory's .terraform.lock.hcl records, sorted. */
export function lockHashes(dir: string): string[] {
  const lock = readFileSync(path.join(dir, ".terraform.lock.hcl"), "utf8");
  return [...lock.matchAll(/"((?:h1|zh):[^"]+)"/g)].map((m) => m[1]!).sort();
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
  const qemu = (process.env.PATH ?? "")
    .split(path.delimiter)
    .map((d) => path.join(d, "qemu-aarch64"))
    .find((f) => existsSync(f));
  return qemu && existsSync(path.join(sysroot, "lib/libstdc++.so.6")) ? { qemu, sysroot } : undefined;
}
