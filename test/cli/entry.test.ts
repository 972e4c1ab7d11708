// bin/siteops.js: the bundle runs with V8's compiled code cached between runs (Node >= 22.1: Node's compile
// cache in $XDG_CACHE_HOME/siteops/compile-cache, owner-only, never a shared temp dir; Node 20: in
// $XDG_CACHE_HOME/siteops); a corrupt or stale cache is rejected by V8 and rewritten; the emulator and provider
// commands, which are not in the bundle, still load.
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
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

  it.skipIf(ownCache)("keeps Node's compile cache in the user's own directory, not in a shared temp dir", async () => {
    const b = sandbox();
    try {
      const e = { ...b.env, XDG_CACHE_HOME: path.join(b.dir, "cache"), NODE_COMPILE_CACHE: "" };
      expect((await runCli(["sites", "matrix", "--shards", "2"], { env: e })).code).toBe(0);
      const dir = path.join(b.dir, "cache", "siteops", "compile-cache");
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(readdirSync(dir).length).toBeGreaterThan(0); // Node's cache, one folder per Node build
      // a directory others can write to is not used: nothing is read from it or written to it
      const open = sandbox();
      try {
        const shared = path.join(open.dir, "cache", "siteops", "compile-cache");
        mkdirSync(shared, { recursive: true });
        chmodSync(shared, 0o777);
        const e2 = { ...open.env, XDG_CACHE_HOME: path.join(open.dir, "cache"), NODE_COMPILE_CACHE: "" };
        expect((await runCli(["sites", "matrix", "--shards", "2"], { env: e2 })).code).toBe(0);
        expect(readdirSync(shared)).toEqual([]);
      } finally {
        open.cleanup();
      }
    } finally {
      b.cleanup();
    }
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
    expect(r.stdout).toMatch(/^install the Terraform provider .*\n\nusage: siteops provider install /);
    const help = await runCli(["--help"], { env });
    expect(help.stdout).toMatch(/emulator\s+run the Site Operations emulator/);
    expect(help.stderr).toBe("");
  });
});
