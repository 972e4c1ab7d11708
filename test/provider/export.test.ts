// `siteops export terraform` (the built CLI: `npm run build` first) with the real terraform against the emulator:
// a fleet made by hand (odd names included) exported in each form, and one shard of it, plans N to import and
// nothing to add, change or destroy; apply imports; the next plan is empty. Bad input is one clear line.
import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shardOf } from "../../src/fleet.js";
import { runCli } from "../cli/helpers.js";
import { OWNER_TOKEN, Terraform, api } from "./harness.js";

let tf: Terraform;
let env: NodeJS.ProcessEnv;
const ids: string[] = [];
const ODD_NAMES = ["Shop ${oops} %{x}", '42 "quoted" ünïcode', "Back\\slash 🚀 $${y}", "日本語のサイト"];

beforeAll(async () => {
  tf = await Terraform.start();
  env = { PATH: process.env.PATH, HOME: tf.home, SITEOPS_BASE_URL: tf.url, SITEOPS_API_TOKEN: OWNER_TOKEN };
  const sites = [
    { name: "Blog", url: "https://blog.example.com", wp_version: "6.4", php_version: "8.1" },
    { name: ODD_NAMES[0], url: "https://shop.example.com" },
    { name: "Twin", url: "https://twin-1.example.com" },
    { name: "Twin", url: "https://twin-2.example.com" },
    { name: ODD_NAMES[1], url: "https://odd.example.com/path" },
    { name: ODD_NAMES[2], url: "https://slash.example.com" },
    { name: ODD_NAMES[3], url: "https://nihongo.example.com" },
  ];
  for (const s of sites) {
    const r = await api(tf, "POST", "/api/v1/sites", s);
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    ids.push((r.json as { id: string }).id);
  }
  ids.push(
    (
      (await api(tf, "POST", "/api/v1/webhook_endpoints", { url: "https://hooks.example.com/siteops", enabled_events: ["site.created", "site.deleted"] }))
        .json as { id: string }
    ).id,
  );
  const off = (await api(tf, "POST", "/api/v1/webhook_endpoints", { url: "https://hooks.example.com/other", description: "Paused" })).json as { id: string };
  await api(tf, "PATCH", `/api/v1/webhook_endpoints/${off.id}`, { status: "disabled" });
  ids.push(off.id);
  // --with-provider writes the provider block; the provider reads the two SITEOPS_ variables given to terraform.
  await runExport("--with-provider");
  await tf.ok(["init", "-input=false", "-no-color"], { env: tfEnv() });
});
afterAll(async () => {
  await tf?.close();
});

const tfEnv = () => ({ SITEOPS_BASE_URL: tf.url, SITEOPS_API_TOKEN: OWNER_TOKEN });
const plan = () => tf.run(["plan", "-input=false", "-no-color", "-detailed-exitcode"], { env: tfEnv() });
const cli = (...args: string[]) => runCli(["export", "terraform", ...args], { env });
async function runExport(...args: string[]) {
  const r = await cli("--out", `${tf.work}/`, "--force", ...args);
  expect(r.code, r.stderr).toBe(0);
  return r;
}

describe("siteops export terraform, then terraform", () => {
  const cases: [string, string[]][] = [
    ["map form (the default)", []],
    ["blocks form", ["--form", "blocks"]],
    // The shard of the first site, so that it is never empty (ids are random: any fixed shard of 9 objects is
    // empty one run in 38).
    ["--shard K/3 in the map form", ["--shard", "K/3"]],
  ];
  for (const [title, shape] of cases) {
    it(`${title}: plans N imports and nothing else, applies, then plans nothing`, async () => {
      tf.remove("terraform.tfstate");
      const k = shardOf(ids[0]!, 3);
      const args = shape.map((a) => (a === "K/3" ? `${k}/3` : a));
      const expected = args.includes("--shard") ? ids.filter((id) => shardOf(id, 3) === k).length : ids.length;
      const r = await runExport("--with-provider", ...args);
      expect(r.stderr).toMatch(
        /^exported \d+ sites? and \d+ webhook endpoints?( of shard \d\/3)? to .*siteops-import\.tf( \(\d+ keep the keys the file it replaces gave them\))?; next: cd .+, then terraform init, then terraform plan/,
      );
      const hcl = readFileSync(path.join(tf.work, "siteops-import.tf"), "utf8");
      const p = await plan();
      expect(p.stdout, hcl + p.stdout + p.stderr).toContain(`Plan: ${expected} to import, 0 to add, 0 to change, 0 to destroy.`);
      const a = await tf.ok(["apply", "-auto-approve", "-input=false", "-no-color"], { env: tfEnv() });
      expect(a.stdout).toContain(`Apply complete! Resources: ${expected} imported, 0 added, 0 changed, 0 destroyed.`);
      const again = await plan();
      expect(again.code, again.stdout + again.stderr).toBe(0);
      if (!args.includes("--shard")) {
        const names = (await tf.state()).values!.root_module!.resources!.filter((x) => x.address.startsWith("siteops_site")).map((x) => x.values.name);
        for (const name of ODD_NAMES) expect(names).toContain(name);
      }
    });
  }

  it("the shards together export every object once", async () => {
    const outputs = await Promise.all([1, 2, 3].map((i) => cli("--shard", `${i}/3`)));
    const found = outputs.flatMap((o) => [...o.stdout.matchAll(/id += "((?:site|we)_[A-Za-z0-9]+)"/g)].map((m) => m[1]));
    expect(found.sort()).toEqual([...ids].sort());
  });
});

describe("siteops export: bad input", () => {
  it("names the flag and changes nothing", async () => {
    const existing = path.join(tf.home, "existing.tf");
    writeFileSync(existing, "# mine\n");
    const bad: [string[], RegExp][] = [
      [["--shard", "0/3"], /--shard "0\/3": the index must be from 1 to 3/],
      [["--shard", "three"], /--shard must be INDEX\/COUNT/],
      [["--form", "list"], /--form/],
      [["--out", existing], /--out: .*existing\.tf exists; give --force to replace it/],
      [["--out", path.join(existing, "sub", "x.tf")], /--out: .*existing\.tf is not a directory/],
      [["--out", path.join(existing, "x.tf")], /--out: .*existing\.tf is not a directory/],
      [["--out", ""], /--out needs a file or directory name/],
      [["--keys-from", path.join(tf.home, "missing.tf")], /--keys-from: .*missing\.tf: no such file/],
      [["--keys-from", existing], /--keys-from: .*existing\.tf: names no site or webhook endpoint \(not a file written by siteops export\)/],
      [["--keys-from", tf.home], /--keys-from: .*: not a file/],
    ];
    for (const [args, message] of bad) {
      const r = await cli(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stdout).toBe("");
    }
    expect(readFileSync(existing, "utf8")).toBe("# mine\n");
  });

  it("creates the directories --out names (--out adopt/, as docs/guides/terraform-adoption.md writes it)", async () => {
    const r = await runCli(["export", "terraform", "--out", "adopt/", "--with-provider"], { env, cwd: tf.home });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/ to adopt\/siteops-import\.tf; next: cd adopt, then terraform init, then terraform plan/);
    expect(statSync(path.join(tf.home, "adopt")).mode & 0o777).toBe(0o755 & ~process.umask());
    expect(readFileSync(path.join(tf.home, "adopt", "siteops-import.tf"), "utf8")).toContain('source = "siteops/siteops"');
    const deep = await cli("--out", path.join(tf.home, "a", "b", "fleet.tf"));
    expect(deep.code, deep.stderr).toBe(0);
    expect(statSync(path.join(tf.home, "a", "b", "fleet.tf")).isFile()).toBe(true);
  });
});
