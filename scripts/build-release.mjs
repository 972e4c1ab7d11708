#!/usr/bin/env node
// `npm run build:release`: the provider's release packages, as Terraform's registry and mirrors expect them.
// Into dist/release/ (or --out DIR):
//   terraform-provider-siteops_<version>_<os>_<arch>.zip   one per target: the single executable + LICENSE.node
//   terraform-provider-siteops_<version>_manifest.json     plugin protocol 6, for the public registry
//   terraform-provider-siteops_<version>_SHA256SUMS        of the zips and the manifest (`sha256sum -c` format)
//   registry.terraform.io/siteops/siteops/index.json       the provider network mirror protocol: serve
//   registry.terraform.io/siteops/siteops/<version>.json   dist/release/ from any static HTTPS server
// Other versions' files already in the directory are kept, and listed in index.json: a mirror accumulates.
// Usage: node scripts/build-release.mjs [--out DIR] [--target linux_amd64 ...]
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { launcherName, PROVIDER_TYPE, providerVersion } from "./build-provider.mjs";
import { packageHash, sha256, zipFiles, zipHash } from "./release-zip.mjs";
import { buildSeaExecutables, SEA_TARGETS } from "./sea.mjs";

export const MIRROR_PATH = `registry.terraform.io/${PROVIDER_TYPE}/${PROVIDER_TYPE}`;
/** The plugin protocol versions the provider speaks, as the registry's manifest lists them. */
const PROTOCOL_VERSIONS = ["6.0"];

export const releaseFileName = (version, suffix) => `terraform-provider-${PROVIDER_TYPE}_${version}_${suffix}`;

/** Writes the network mirror's `index.json` from the `<version>.json` files present. */
function writeMirrorIndex(mirrorDir) {
  const versions = readdirSync(mirrorDir)
    .filter((f) => f.endsWith(".json") && f !== "index.json")
    .map((f) => f.slice(0, -".json".length))
    .sort();
  writeFileSync(path.join(mirrorDir, "index.json"), `${JSON.stringify({ versions: Object.fromEntries(versions.map((v) => [v, {}])) }, null, 2)}\n`);
}

export default async function buildRelease({ root, outDir = path.join(root, "dist", "release"), targets = Object.keys(SEA_TARGETS), log = () => {} }) {
  const version = providerVersion(root);
  const work = mkdtempSync(path.join(tmpdir(), "siteops-release-"));
  try {
    const built = await buildSeaExecutables({ root, outDir: work, targets, log });
    const mirrorDir = path.join(outDir, MIRROR_PATH);
    mkdirSync(mirrorDir, { recursive: true });
    // This version's files are replaced as a set: no zip of a target left over from an earlier build.
    for (const f of readdirSync(outDir)) if (f.startsWith(releaseFileName(version, ""))) rmSync(path.join(outDir, f));

    const archives = {};
    const sums = [];
    for (const { target, file, license } of built) {
      const files = [
        { name: launcherName(version), data: readFileSync(file), mode: 0o755 },
        { name: "LICENSE.node", data: readFileSync(license), mode: 0o644 },
      ];
      const zip = zipFiles(files);
      const name = releaseFileName(version, `${target}.zip`);
      writeFileSync(path.join(outDir, name), zip);
      sums.push([sha256(zip), name]);
      // Relative to the <version>.json URL, as the protocol resolves it: the zips sit at the top of dist/release.
      archives[target] = { url: `${"../".repeat(MIRROR_PATH.split("/").length)}${name}`, hashes: [packageHash(files), zipHash(zip)] };
      log(`packed ${name} (${(zip.length / 1e6).toFixed(1)} MB; executable ${(files[0].data.length / 1e6).toFixed(1)} MB)`);
    }
    const manifestName = releaseFileName(version, "manifest.json");
    const manifest = `${JSON.stringify({ version: 1, metadata: { protocol_versions: PROTOCOL_VERSIONS } }, null, 2)}\n`;
    writeFileSync(path.join(outDir, manifestName), manifest);
    sums.push([sha256(Buffer.from(manifest)), manifestName]);
    const sumsName = releaseFileName(version, "SHA256SUMS");
    writeFileSync(
      path.join(outDir, sumsName),
      sums
        .sort((a, b) => (a[1] < b[1] ? -1 : 1))
        .map(([hash, name]) => `${hash}  ${name}\n`)
        .join(""),
    );

    writeFileSync(path.join(mirrorDir, `${version}.json`), `${JSON.stringify({ archives }, null, 2)}\n`);
    writeMirrorIndex(mirrorDir);
    log(`release ${version} in ${path.relative(root, outDir) || outDir}: ${built.map((b) => b.target).join(", ")}`);
    return { outDir, version, sums: path.join(outDir, sumsName), archives };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  let values;
  try {
    ({ values } = parseArgs({ options: { out: { type: "string" }, target: { type: "string", multiple: true } }, strict: true }));
    for (const t of values.target ?? []) if (!(t in SEA_TARGETS)) throw new Error(`--target ${t}: the targets are ${Object.keys(SEA_TARGETS).join(", ")}`);
  } catch (err) {
    console.error(`build:release: ${err.message}\nusage: node scripts/build-release.mjs [--out DIR] [--target ${Object.keys(SEA_TARGETS).join("|")} ...]`);
    process.exit(2);
  }
  try {
    await buildRelease({
      root,
      outDir: values.out ? path.resolve(values.out) : undefined,
      targets: values.target,
      log: (m) => console.error(`build:release: ${m}`),
    });
  } catch (err) {
    console.error(`build:release: ${err.message}`);
    process.exit(1);
  }
}
