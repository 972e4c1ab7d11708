// What each provider process pays to start, as Terraform runs it: the schema served once per command (later
// processes reuse it: get_provider_schema_optional), the API client's bundle loaded only by a process that
// calls the API, and the compiled code of the bundles cached between processes in an owner-only directory.
import { chmodSync, cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileCacheDir, ownerOnlyDir } from "../../provider/compile-cache.js";
import { buildProvider, Terraform } from "./harness.js";

const site = (n: number) => `
resource "siteops_site" "s" {
  count = ${n}
  name  = "startup \${count.index}"
  url   = "https://startup-\${count.index}.example.test"

  deletion_protection = false # destroyed by these tests
}
`;

let tf: Terraform;
let cacheHome: string;
beforeAll(async () => {
  tf = await Terraform.start();
  cacheHome = mkdtempSync(path.join(tmpdir(), "siteops-cache-home-"));
});
afterAll(async () => {
  await tf?.close();
  rmSync(cacheHome, { recursive: true, force: true });
});

/** Every file under `dir`, with its mode. */
function files(dir: string): { file: string; mode: number }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const file = path.join(e.parentPath, e.name);
      return { file, mode: statSync(file).mode & 0o777 };
    });
}

describe("provider start-up", () => {
  it("serves GetProviderSchema once per command: later processes reuse Terraform's copy", async () => {
    tf.write(tf.providerBlock() + site(2));
    await tf.init();
    const r = await tf.ok(["apply", "-auto-approve", "-input=false", "-no-color"], { env: { TF_LOG: "trace" } });
    // Terraform's plugin client logs each GetProviderSchema RPC, and each call it answers from its cache instead
    // (4 processes: without the capability every one of them is asked).
    const lines = (text: string) => r.stderr.split("\n").filter((l) => l.includes(text)).length;
    expect(lines("provider: starting plugin")).toBe(4);
    expect(lines("GRPCProvider.v6: GetProviderSchema")).toBe(1);
    expect(lines("GRPCProvider.v6: returning cached schema")).toBeGreaterThan(0);
    await tf.ok(["destroy", "-auto-approve", "-input=false", "-no-color"]);
  });

  it("plans creates without loading the API client's bundle", async () => {
    // A provider package without siteops-client.cjs: only a process that calls the API would need it.
    const pkg = path.join(tf.home, "mirror/registry.terraform.io/siteops/siteops");
    const [version] = readdirSync(pkg);
    const client = path.join(pkg, version!, "linux_amd64", "siteops-client.cjs");
    const work = path.join(tf.home, "work");
    rmSync(client);
    rmSync(path.join(work, ".terraform"), { recursive: true, force: true });
    rmSync(path.join(work, ".terraform.lock.hcl"), { force: true });
    try {
      tf.write(tf.providerBlock() + site(3));
      await tf.init();
      const r = await tf.plan();
      expect(r.stderr).toBe("");
      expect(r.code).toBe(2);
      expect(r.stdout).toContain("3 to add");
    } finally {
      cpSync(path.join((await buildProvider()).dir, "siteops-client.cjs"), client);
      rmSync(path.join(work, ".terraform"), { recursive: true, force: true });
      rmSync(path.join(work, ".terraform.lock.hcl"), { force: true });
    }
  });

  it("keeps the compiled code in an owner-only directory under XDG_CACHE_HOME", async () => {
    tf.write(tf.providerBlock() + site(1));
    await tf.init();
    await tf.ok(["apply", "-auto-approve", "-input=false", "-no-color"], { env: { XDG_CACHE_HOME: cacheHome } });
    const dir = path.join(cacheHome, "siteops", "provider-compile-cache");
    expect(lstatSync(dir).mode & 0o777).toBe(0o700);
    const cached = files(dir);
    expect(cached.length).toBeGreaterThan(0);
    for (const f of cached) expect(f.mode & 0o077).toBe(0);
    // Served from the cache: the same apply again (a destroy), still correct.
    await tf.ok(["destroy", "-auto-approve", "-input=false", "-no-color"], { env: { XDG_CACHE_HOME: cacheHome } });
    expect(await tf.state()).not.toHaveProperty("values.root_module.resources");
  });

  it("does not use a cache directory others can write to, or a link", async () => {
    const shared = mkdtempSync(path.join(tmpdir(), "siteops-cache-shared-"));
    try {
      const dir = path.join(shared, "siteops", "provider-compile-cache");
      mkdirSync(dir, { recursive: true });
      chmodSync(dir, 0o777);
      expect(ownerOnlyDir(dir)).toBe(false);
      tf.write(tf.providerBlock() + site(1));
      await tf.ok(["plan", "-input=false", "-no-color"], { env: { XDG_CACHE_HOME: shared } });
      expect(files(dir)).toEqual([]);

      chmodSync(dir, 0o700);
      expect(ownerOnlyDir(dir)).toBe(true);
      const link = path.join(shared, "link");
      symlinkSync(dir, link);
      expect(ownerOnlyDir(link)).toBe(false);
      expect(ownerOnlyDir(path.join(shared, "missing"))).toBe(false);
    } finally {
      rmSync(shared, { recursive: true, force: true });
    }
  });

  it("places the cache under XDG_CACHE_HOME (absolute) or ~/.cache, and SITEOPS_NO_COMPILE_CACHE turns it off", () => {
    expect(compileCacheDir({ XDG_CACHE_HOME: "/x/cache" })).toBe("/x/cache/siteops/provider-compile-cache");
    expect(compileCacheDir({ XDG_CACHE_HOME: "relative", HOME: "/h" })).toMatch(/\.cache\/siteops\/provider-compile-cache$/);
    expect(compileCacheDir({ XDG_CACHE_HOME: "/x/cache", SITEOPS_NO_COMPILE_CACHE: "1" })).toBeUndefined();
  });
});
