// An emulator user's path from the packed tarball: the peers the CLI names, installed beside it; then
// `siteops emulator --demo` (its JSON line first on stdout), the README's in-process snippet, and its types
// without skipLibCheck, on the Node that SITEOPS_TEST_NODE names (.ci/run: 24 in npm test, then 22 and 26). The peers
// come from the registry (npm's cache) at the ranges package.json declares; none has a native part to build.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstLine, stop } from "../support/processes.js";
import { PKG, Project, docBlock, unexplainedWarnings } from "./helpers.js";

const PEERS = ["fastify", "@fastify/type-provider-typebox", "jose", "otplib", "typebox", "@fastify/cookie", "@fastify/csrf-protection", "@fastify/formbody"];

describe("the packed package, installed with the emulator's peers", () => {
  let project: Project;

  beforeAll(async () => {
    const args = [`siteops-${PKG.version}.tgz`, ...PEERS.map((p) => `${p}@${PKG.peerDependencies[p]}`), "@types/node@^22"];
    project = await Project.create("emulator", args);
  }, 120_000);
  afterAll(() => project?.remove());

  it("installs without a warning the README does not explain (no EBADENGINE on a supported Node)", () => {
    expect(unexplainedWarnings(project.installOutput)).toEqual([]);
  });

  it("starts with `siteops emulator --demo`: the JSON line first on stdout, credentials that work, no warning", async () => {
    const emulator = project.spawnSiteops(["emulator", "--demo", "--port", "0"]);
    try {
      const line = JSON.parse(await firstLine(emulator)) as { url: string; demo: { api_token: string } };
      const sites = await fetch(`${line.url}/api/v1/sites`, { headers: { authorization: `token ${line.demo.api_token}` } });
      expect(sites.status).toBe(200);
      // Node 22 flags node:sqlite experimental; the emulator keeps that warning off its users' terminals.
      expect(emulator.stderr()).not.toMatch(/Warning/);
    } finally {
      await stop(emulator.child);
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
