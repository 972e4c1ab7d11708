// The visual engine stays out of the CLI's start-up (issue 50 item 3; scripts/build-cli.mjs): the bundle holds
// neither pngjs nor pixelmatch, dist/cli/visual.mjs holds both and imports playwright-core from the user's install,
// and an installed CLI whose visual.mjs is gone still runs every other command: nothing reads it until a visual
// command runs.
import { cpSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { runCli, sandbox } from "../cli/helpers.js";
import { ROOT } from "../support/paths.js";
import { start } from "../support/processes.js";
import { removeDir, tempDir } from "../support/temp.js";

const bundle = readFileSync(path.join(ROOT, "dist/cli/siteops.cjs"), "utf8");
const visual = readFileSync(path.join(ROOT, "dist/cli/visual.mjs"), "utf8");
// A message of pixelmatch's and one of pngjs's: present where their code is.
const PIXELMATCH = "Image sizes do not match";
const PNGJS = "Invalid file signature";

it("bundles pngjs and pixelmatch into dist/cli/visual.mjs only, and imports playwright-core from the user's install", () => {
  expect([bundle.includes(PIXELMATCH), bundle.includes(PNGJS)]).toEqual([false, false]);
  expect([visual.includes(PIXELMATCH), visual.includes(PNGJS)]).toEqual([true, true]);
  expect(visual).toContain('import("playwright-core")');
  expect(bundle).toContain('import("./visual.mjs")');
});

const dir = tempDir("visual-build");
afterAll(() => removeDir(dir));

it("runs every other command with dist/cli/visual.mjs gone: nothing loads it at start-up", async () => {
  for (const part of ["bin", "dist/cli", "package.json"]) {
    mkdirSync(path.dirname(path.join(dir, part)), { recursive: true });
    cpSync(path.join(ROOT, part), path.join(dir, part), { recursive: true });
  }
  rmSync(path.join(dir, "dist/cli/visual.mjs"));
  const box = sandbox();
  try {
    const run = async (args: string[]) => start(process.execPath, [path.join(dir, "bin/siteops.js"), ...args], { env: box.env }).done;
    const matrix = await run(["sites", "matrix", "--shards", "2"]);
    expect([matrix.code, matrix.stderr]).toEqual([0, ""]);
    expect((await run(["--help"])).stdout).toMatch(/^ {2}visual +screenshots of sites' pages/m);
    expect((await run(["visual", "capture", "--help"])).code).toBe(0);
    expect((await run(["upgrade", "rollout", "--help"])).code).toBe(0);
    // Only a visual command reads it.
    const capture = await run(["visual", "capture", "--site", "site_1", "--browser", "/no/chrome"]);
    expect(capture.code).toBe(1);
    expect(capture.stderr).toContain("visual.mjs");
    // In the real layout the same command loads the module and gets as far as the browser check.
    const real = await runCli(["visual", "capture", "--site", "site_1", "--browser", "/no/chrome"], { env: box.env });
    expect([real.code, real.stderr]).toEqual([2, expect.stringMatching(/^error: --browser "\/no\/chrome" is not an executable file/)]);
  } finally {
    box.cleanup();
  }
});
