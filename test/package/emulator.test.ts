// An emulator user's path from the packed tarball: the peers the CLI names, installed beside it; then
// `siteops emulator --demo` (its JSON line first on stdout), the README's in-process snippet, and its types
// without skipLibCheck. better-sqlite3 is this repository's already built copy (a source build takes a minute
// here); the rest comes from the registry (npm's cache) at the ranges package.json declares.
import { createInterface } from "node:readline";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PKG, Project, ROOT, SAME_ABI, npmWarnings, docBlock } from "./helpers.js";

const PEERS = [
  "fastify",
  "@fastify/type-provider-typebox",
  "better-sqlite3",
  "jose",
  "otplib",
  "typebox",
  "@types/better-sqlite3",
  "@fastify/cookie",
  "@fastify/csrf-protection",
  "@fastify/formbody",
];

// better-sqlite3 is built for this Node only; the Node 24 leg of .ci/run covers the other users' paths.
describe.runIf(SAME_ABI)("the packed package, installed with the emulator's peers", () => {
  let project: Project;

  beforeAll(async () => {
    const args = [`siteops-${PKG.version}.tgz`, ...PEERS.map((p) => `${p}@${PKG.peerDependencies[p]}`), "@types/node@^22"];
    project = await Project.create("emulator", args, {
      [`better-sqlite3@${PKG.peerDependencies["better-sqlite3"]}`]: `file:${path.join(ROOT, "node_modules/better-sqlite3")}`,
    });
  }, 120_000);
  afterAll(() => project?.remove());

  it("installs without a warning beyond the Node-version ones the README explains", () => {
    const unexplained = npmWarnings(project.installOutput).filter((l) => !/EBADENGINE/.test(l));
    expect(unexplained).toEqual([]);
  });

  it("starts with `siteops emulator --demo`: the JSON line first on stdout, credentials that work", async () => {
    const child = project.spawnSiteops(["emulator", "--demo", "--port", "0"]);
    try {
      const first = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once("line", resolve);
        child.once("exit", (code) => reject(new Error(`exited ${code}`)));
      });
      const line = JSON.parse(first) as { url: string; demo: { api_token: string } };
      const sites = await fetch(`${line.url}/api/v1/sites`, { headers: { authorization: `token ${line.demo.api_token}` } });
      expect(sites.status).toBe(200);
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("runs the README's in-process snippet", async () => {
    const r = await project.run("in-process.ts", docBlock("docs/client.md", "Testing against the emulator", "ts"));
    expect(r.stderr).toBe("");
    expect(r.stdout.trim()).toBe("0");
  });

  it("typechecks siteops/emulator without skipLibCheck", async () => {
    const r = await project.typecheck(["in-process.ts"]);
    expect(r.stdout + r.stderr).toBe("");
    expect(r.code).toBe(0);
  }, 90_000);
});
