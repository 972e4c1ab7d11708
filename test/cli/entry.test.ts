// bin/siteops.js: the bundle runs with V8's compiled code cached between runs (Node 20: in
// $XDG_CACHE_HOME/siteops); a corrupt or stale cache is rejected by V8 and rewritten; the emulator and provider
// commands, which are not in the bundle, still load.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import Module from "node:module";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, sandbox } from "./helpers.js";

const box = sandbox();
const cacheDir = path.join(box.dir, "cache", "siteops");
const env = { ...box.env, XDG_CACHE_HOME: path.join(box.dir, "cache") };
afterAll(() => box.cleanup());

// Node >= 22.1 caches compiled code itself (module.enableCompileCache); this file's cache is Node 20's.
const ownCache = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache !== "function";

describe("bin/siteops.js", () => {
  it.runIf(ownCache)("caches compiled code after a run, and recovers from a corrupt cache", async () => {
    expect((await runCli(["--version"], { env })).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const [file] = readdirSync(cacheDir);
    const cache = path.join(cacheDir, file!);
    expect(statSync(cache).mode & 0o777).toBe(0o600);
    expect(statSync(cache).size).toBeGreaterThan(10_000);
    writeFileSync(cache, "not V8 code");
    const r = await runCli(["sites", "matrix", "--shards", "2"], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ include: [{ shard: "1/2" }, { shard: "2/2" }] });
    expect(readFileSync(cache).length).toBeGreaterThan(10_000); // rejected, then rewritten
  });

  it("SITEOPS_NO_COMPILE_CACHE=1 writes no cache", async () => {
    const b = sandbox();
    try {
      const e = { ...b.env, XDG_CACHE_HOME: path.join(b.dir, "cache"), SITEOPS_NO_COMPILE_CACHE: "1" };
      expect((await runCli(["--version"], { env: e })).code).toBe(0);
      expect(() => readdirSync(path.join(b.dir, "cache"))).toThrow(/ENOENT/);
    } finally {
      b.cleanup();
    }
  });

  it("loads the commands outside the bundle (provider, emulator)", async () => {
    const r = await runCli(["provider", "--help"], { env });
    expect(r.stdout).toMatch(/^usage: siteops provider install/);
    const help = await runCli(["--help"], { env });
    expect(help.stdout).toMatch(/emulator\s+run the Site Operations emulator/);
    expect(help.stderr).toBe("");
  });
});
