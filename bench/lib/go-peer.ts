// Builds the Go peer (bench/go-peer/, a Go provider on HashiCorp's go-plugin and gRPC with siteops_site's schema)
// from Debian's packages alone: no Go module proxy is reachable, so it builds in GOPATH mode over Debian's
// /usr/share/gocode, with tfplugin6.proto as the provider has it compiled by Debian's protoc and its Go plugins.
// On a machine without them it installs them (apt-get update, then apt-get install; root only).
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Schema } from "../../provider/framework/schema.js";
import { useStateForUnknown } from "../../provider/framework/plan-modifiers.js";
import { PROVIDER_ADDRESS, providerSchemasJson } from "../../provider/schema-json.js";
import { siteSchema } from "../../provider/resources/site-schema.js";
import { ROOT } from "./provider-helpers.js";

/**
 * Debian's packages the peer is built from. golang-google-grpc-dev accepts golang/protobuf 1.3 or 1.5, and apt
 * picks 1.3, whose codec cannot marshal the messages protoc-gen-go 1.28 generates: the first RPC panics ("protobuf
 * tag not enough fields in GetProviderSchema_Request.state"). 1.5 is named so that apt picks it.
 */
const GO_PACKAGES = [
  "golang-go",
  "protobuf-compiler",
  "protoc-gen-go",
  "protoc-gen-go-grpc",
  "golang-github-hashicorp-go-plugin-dev",
  "golang-google-grpc-dev",
  "golang-google-protobuf-dev",
  "golang-github-golang-protobuf-1-5-dev",
  // go-cty: the value library of Terraform itself and of SDKv2 providers (msgpack, JSON).
  "golang-github-zclconf-go-cty-dev",
];
const GOCODE = "/usr/share/gocode";
export const GO_PEER_TYPE = "gopeer";
const GO_PEER_VERSION = "0.0.1";

/** The packages of GO_PACKAGES that are not installed. */
function missing(): string[] {
  return GO_PACKAGES.filter((p) => spawnSync("dpkg-query", ["-W", "-f=${Status}", p], { encoding: "utf8" }).stdout?.trim() !== "install ok installed");
}

/** Installs Debian's packages when something is missing; throws, saying what to run, when it cannot. */
export function ensureGoToolchain(log: (line: string) => void = console.log): void {
  const lacking = missing();
  if (lacking.length === 0) return;
  const packages = GO_PACKAGES;
  const command = `apt-get update && apt-get install -y --no-install-recommends ${packages.join(" ")}`;
  if (process.getuid?.() !== 0 || spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status !== 0)
    throw new Error(`the Go peer needs ${lacking.join(", ")}: run as root \`${command}\` (or BENCH_GO=0 to run without it)`);
  log(`go peer: installing Debian's ${packages.join(" ")} (missing: ${lacking.join(", ")})`);
  const apt = (args: string[]) =>
    execFileSync("apt-get", ["-q", "-o", "DPkg::Lock::Timeout=900", ...args], {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  apt(["update"]);
  apt(["install", "-y", "--no-install-recommends", ...packages]);
  const still = missing();
  if (still.length) throw new Error(`the Go peer still lacks ${still.join(", ")} after \`${command}\``);
}

/**
 * What the peer reads at build time (peer.json, embedded): siteops' provider and siteops_site schemas as
 * `terraform providers schema -json` has them, the attribute defaults, and the attributes that keep their prior
 * value rather than go unknown (useStateForUnknown): what site-schema.ts adds that the JSON does not show.
 */
function peerSchemaJson(): string {
  const entry = providerSchemasJson().provider_schemas[PROVIDER_ADDRESS]!;
  const attributes = (siteSchema as Schema).attributes;
  const keep = useStateForUnknown().description;
  const defaults = Object.fromEntries(Object.entries(attributes).flatMap(([name, a]) => (a.default === undefined ? [] : [[name, a.default]])));
  const stateForUnknown = Object.entries(attributes)
    .filter(([, a]) => a.planModifiers?.some((m) => m.description === keep))
    .map(([name]) => name);
  return JSON.stringify({ provider: entry.provider, site: entry.resource_schemas!.siteops_site, defaults, state_for_unknown: stateForUnknown });
}

export interface BuiltGoPeer {
  /** The directory holding the executable, as a filesystem mirror's package directory would. */
  dir: string;
  type: string;
  version: string;
  /** `go version` of the toolchain that built it. */
  goVersion: string;
}

/** Builds the peer's executable into `outDir` (CGO off, as HashiCorp's release builds). */
export function buildGoPeer(outDir: string): BuiltGoPeer {
  const gopath = mkdtempSync(path.join(tmpdir(), "siteops-go-peer-"));
  try {
    const src = path.join(gopath, "src/siteopsgopeer");
    mkdirSync(path.join(src, "tfplugin6"), { recursive: true });
    for (const f of readdirSync(path.join(ROOT, "bench/go-peer")).filter((f) => f.endsWith(".go")))
      cpSync(path.join(ROOT, "bench/go-peer", f), path.join(src, f));
    writeFileSync(path.join(src, "peer.json"), peerSchemaJson());
    const go = "siteopsgopeer/tfplugin6";
    execFileSync(
      "protoc",
      [
        `--proto_path=${path.join(ROOT, "provider/protocol")}`,
        `--go_out=${path.join(src, "tfplugin6")}`,
        "--go_opt=paths=source_relative",
        `--go_opt=Mtfplugin6.proto=${go}`,
        `--go-grpc_out=${path.join(src, "tfplugin6")}`,
        "--go-grpc_opt=paths=source_relative",
        `--go-grpc_opt=Mtfplugin6.proto=${go}`,
        "tfplugin6.proto",
      ],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    mkdirSync(outDir, { recursive: true });
    const exe = path.join(outDir, `terraform-provider-${GO_PEER_TYPE}_v${GO_PEER_VERSION}`);
    const env = { ...process.env, GO111MODULE: "off", GOPATH: `${gopath}:${GOCODE}`, GOFLAGS: "", CGO_ENABLED: "0" };
    execFileSync("go", ["build", "-trimpath", "-o", exe, "siteopsgopeer"], { cwd: src, env, stdio: ["ignore", "ignore", "inherit"] });
    chmodSync(exe, 0o755);
    const goVersion = execFileSync("go", ["version"], { encoding: "utf8" }).trim();
    return { dir: outDir, type: GO_PEER_TYPE, version: GO_PEER_VERSION, goVersion };
  } finally {
    rmSync(gopath, { recursive: true, force: true });
  }
}
