// `siteops emulator` after the README's global install (issue 49): the packed tarball installed with
// `npm install --global` into a fresh prefix, as a user's own npm does it. Without its peers the command names
// them with the command that installs them where a global siteops finds them (beside itself: npm i -g), also
// when ./node_modules holds them; that command, run exactly as printed, makes the next start work. Bundling the
// peers instead would add about 480 kB (gzip, minified) to a 670 kB tarball (budget 700 kB: scripts/check-package.mjs).
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstLine, run, start, stop } from "../support/processes.js";
import { removeDir, tempDir } from "../support/temp.js";
import { NODE, NPM_CACHE, PKG, ROOT } from "./helpers.js";

const PEERS = ["fastify", "@fastify/type-provider-typebox", "jose", "otplib", "typebox", "@fastify/cookie", "@fastify/csrf-protection", "@fastify/formbody"];

describe("siteops installed globally (npm install --global) into a fresh prefix", () => {
  let dir: string;
  let prefix: string;
  let env: NodeJS.ProcessEnv;
  let siteops: string;

  beforeAll(async () => {
    dir = tempDir("global-install");
    prefix = path.join(dir, "prefix");
    const bin = path.join(dir, "bin");
    for (const d of [prefix, bin, path.join(dir, "home"), path.join(dir, "work")]) mkdirSync(d);
    symlinkSync(NODE, path.join(bin, "node"));
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|SITEOPS_)/i.test(k)));
    env = {
      ...clean,
      PATH: [path.join(prefix, "bin"), bin, process.env.PATH].join(path.delimiter),
      HOME: path.join(dir, "home"),
      npm_config_prefix: prefix,
      npm_config_cache: NPM_CACHE,
      npm_config_prefer_offline: "true",
      npm_config_audit: "false",
      npm_config_fund: "false",
      npm_config_update_notifier: "false",
      NO_COLOR: "1",
    };
    const packed = await run("npm", ["pack", "--json", "--pack-destination", dir], { cwd: ROOT, env: { ...process.env, npm_config_loglevel: "error" } });
    expect(packed.code, packed.stderr).toBe(0);
    const tarball = path.join(dir, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
    // The README's line: npm install --global ./siteops/siteops-<version>.tgz
    const installed = await run("npm", ["install", "--global", tarball], { cwd: dir, env });
    expect(installed.code, installed.stderr).toBe(0);
    siteops = path.join(prefix, "bin", "siteops");
  }, 180_000);
  afterAll(() => dir && removeDir(dir));

  const ranges = PEERS.map((p) => `${p}@${PKG.peerDependencies[p]}`).join(" ");

  it("names its peers and the global install that provides them, also when ./node_modules holds them", async () => {
    const r = await run(siteops, ["emulator", "--demo", "--port", "0"], { cwd: path.join(dir, "work"), env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `siteops emulator: the emulator needs its optional peer dependencies (missing: ${PEERS.join(", ")}); siteops is installed globally, so they go beside it; install them with: npm i -g ${ranges}\n`,
    );
    // What the user did first: the peers installed into a folder, where a global siteops never looks.
    const folder = path.join(dir, "work", "node_modules", "fastify");
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, "package.json"), '{"name":"fastify","version":"5.6.0"}\n');
    const there = await run(siteops, ["emulator", "--demo", "--port", "0"], { cwd: path.join(dir, "work"), env });
    expect(there.code).toBe(2);
    expect(there.stderr).toContain("; a global siteops loads them from beside itself, never from ./node_modules; install them with: npm i -g ");
  }, 60_000);

  it("starts once the printed command has run, from any folder", async () => {
    const r = await run(siteops, ["emulator", "--demo", "--port", "0"], { cwd: dir, env });
    const command = /install them with: (npm .*)$/m.exec(r.stderr)?.[1];
    expect(command, r.stderr).toBeDefined();
    const [npm, ...args] = command!.split(" ");
    const installed = await run(npm!, args, { cwd: path.join(dir, "work"), env });
    expect(installed.code, installed.stderr).toBe(0);

    const emulator = start(siteops, ["emulator", "--demo", "--port", "0"], { cwd: path.join(dir, "home"), env });
    try {
      const line = JSON.parse(await firstLine(emulator)) as { url: string; demo: { api_token: string } };
      const sites = await fetch(`${line.url}/api/v1/sites`, { headers: { authorization: `token ${line.demo.api_token}` } });
      expect(sites.status).toBe(200);
      expect(emulator.stderr()).not.toMatch(/Warning|peer dependencies/);
    } finally {
      await stop(emulator.child);
    }
  }, 300_000);
});
