// Adopting a fleet again (issue 47 item 4), with the built CLI (`npm run build` first) and the real terraform
// against the emulator: after `siteops export terraform` and an apply, sites renamed in the console (one to a name
// whose key another site had), an endpoint moved to another URL, new sites and twins, then `export --force` again:
// the plan imports only the new objects and destroys nothing, and after its apply the plan is empty. A change of
// form writes `moved` blocks. An export that cannot keep the keys (to standard output) gives a plan that fails
// naming `moved`, never "set deletion_protection = false". A protected site deleted outside Terraform is planned
// for creation. (test/provider/export-keys.test.ts holds the same over generated fleets.)
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/helpers.js";
import { OWNER_TOKEN, SAVED_PLAN, Terraform, api } from "./harness.js";

let tf: Terraform;
let env: NodeJS.ProcessEnv;
const ids: Record<string, string> = {};

async function createSite(name: string, url: string): Promise<string> {
  const r = await api(tf, "POST", "/api/v1/sites", { name, url });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return (r.json as { id: string }).id;
}

beforeAll(async () => {
  tf = await Terraform.start();
  env = { PATH: process.env.PATH, HOME: tf.home, SITEOPS_BASE_URL: tf.url, SITEOPS_API_TOKEN: OWNER_TOKEN };
  ids.shop = await createSite("Shop", "https://shop.example.com");
  ids.guarded = await createSite("Guarded", "https://guarded.example.com");
  ids.blog = await createSite("Blog", "https://blog.example.com");
  ids.gone = await createSite("Gone", "https://gone.example.com");
  const hook = await api(tf, "POST", "/api/v1/webhook_endpoints", { url: "https://hooks.example.com/siteops" });
  ids.hook = (hook.json as { id: string }).id;
});
afterAll(async () => {
  await tf?.close();
});

const tfEnv = () => ({ SITEOPS_BASE_URL: tf.url, SITEOPS_API_TOKEN: OWNER_TOKEN });
const plan = (...extra: string[]) => tf.run(["plan", "-input=false", "-no-color", "-detailed-exitcode", ...extra], { env: tfEnv() });
const apply = (...extra: string[]) => tf.ok(["apply", "-auto-approve", "-input=false", "-no-color", ...extra], { env: tfEnv() });
/** A plan checked and then applied as checked: Terraform does not plan it again. */
const planSaved = () => plan(`-out=${SAVED_PLAN}`);
const applySaved = () => apply(SAVED_PLAN);
const file = () => path.join(tf.work, "siteops-import.tf");
/** The end of an id in its keys. */
const tail = (id: string) =>
  id
    .replace(/^[a-z]+_/, "")
    .toLowerCase()
    .slice(-8);
/** Terraform's output on one line: it wraps diagnostics at 78 columns. */
const flat = (r: { stdout: string; stderr: string }) => (r.stdout + r.stderr).replace(/\s+/g, " ");

async function runExport(...args: string[]) {
  const r = await runCli(["export", "terraform", "--out", `${tf.work}/`, "--force", "--with-provider", ...args], { env });
  expect(r.code, r.stderr).toBe(0);
  return r;
}

/** The addresses in state, by id. */
async function addresses(): Promise<Record<string, string>> {
  const resources = (await tf.state()).values?.root_module?.resources ?? [];
  return Object.fromEntries(resources.map((r) => [r.values.id as string, r.address]));
}

describe("siteops export terraform, again", () => {
  it("keeps every object at its address: renamed sites and endpoints, new sites and twins are imported, nothing destroyed", async () => {
    await runExport();
    await tf.ok(["init", "-input=false", "-no-color"], { env: tfEnv() });
    await apply();
    const before = await addresses();
    // A key is the slug of the name and the end of the id: it names this site for good.
    expect(before[ids.shop!]).toBe(`siteops_site.this["shop_${tail(ids.shop!)}"]`);

    // Renamed in the console: Shop becomes Store, a new site takes the name Shop (so the slug "shop" now names
    // another site), Blog gets a twin, and the endpoint moves to another URL.
    await api(tf, "PATCH", `/api/v1/sites/${ids.shop}`, { name: "Store" });
    ids.newShop = await createSite("Shop", "https://new-shop.example.com");
    ids.twin = await createSite("Blog", "https://blog-2.example.com");
    await api(tf, "PATCH", `/api/v1/webhook_endpoints/${ids.hook}`, { url: "https://hooks.example.com/v2" });

    const r = await runExport();
    expect(r.stderr).toContain("(5 keep the keys the file it replaces gave them)");
    const p = await planSaved();
    expect(p.stdout, readFileSync(file(), "utf8") + p.stdout + p.stderr).toContain("Plan: 2 to import, 0 to add, 0 to change, 0 to destroy.");
    await applySaved();
    const after = await addresses();
    for (const id of [ids.shop, ids.guarded, ids.blog, ids.gone, ids.hook]) expect(after[id!]).toBe(before[id!]);
    expect(after[ids.newShop!]).toMatch(/^siteops_site\.this\["shop_\w+"\]$/);
    expect(after[ids.twin!]).toMatch(/^siteops_site\.this\["blog_\w+"\]$/);
    const again = await plan();
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it("writes moved blocks when the form changes, and the plan moves them, destroying nothing", async () => {
    const before = await addresses();
    const key = `shop_${tail(ids.shop!)}`;
    await runExport("--form", "blocks");
    const hcl = readFileSync(file(), "utf8");
    expect(hcl).toContain(`moved {\n  from = siteops_site.this["${key}"]\n  to   = siteops_site.${key}\n}`);
    const p = await planSaved();
    expect(p.stdout, hcl + p.stdout + p.stderr).toContain("Plan: 0 to add, 0 to change, 0 to destroy.");
    expect(p.stdout).toContain(`# siteops_site.this["${key}"] has moved to siteops_site.${key}`);
    await applySaved();
    const after = await addresses();
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    expect(after[ids.shop!]).toBe(`siteops_site.${key}`);
    expect((await plan()).code).toBe(0);
    // And back: the blocks form's keys are kept in the map form.
    await runExport();
    expect(readFileSync(file(), "utf8")).toContain(`moved {\n  from = siteops_site.${key}\n  to   = siteops_site.this["${key}"]\n}`);
    await apply();
    expect((await plan()).code).toBe(0);
  });

  it("plans a protected site deleted outside Terraform for creation; exported again, it is gone from the file", async () => {
    await api(tf, "DELETE", `/api/v1/sites/${ids.gone}`);
    const p = await plan();
    expect(p.code, p.stdout + p.stderr).toBe(2);
    expect(p.stdout).toContain("Plan: 1 to add, 0 to change, 0 to destroy.");
    expect(p.stdout).toContain(`# siteops_site.this["gone_${tail(ids.gone!)}"] will be created`);
    expect(flat(p)).not.toContain("deletion_protection is on");
    await runExport();
    expect(readFileSync(file(), "utf8")).not.toContain(ids.gone!);
    const again = await plan();
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it("refuses, naming moved, a plan that imports a site at a new key and destroys it at the old one", async () => {
    // Written to standard output, the export cannot read the file it replaces: the renamed site gets a new key.
    await api(tf, "PATCH", `/api/v1/sites/${ids.guarded}`, { name: "Kept" });
    const out = await runCli(["export", "terraform", "--with-provider"], { env });
    expect(out.code, out.stderr).toBe(0);
    writeFileSync(file(), out.stdout);
    const p = await plan();
    expect(p.code).toBe(1);
    const text = flat(p);
    expect(text).toMatch(new RegExp(`This plan (destroys|imports) siteops_site ${ids.guarded} here and (imports|destroys) it at another address`));
    expect(text).toContain("moved { from = <FROM> to = <TO> }");
    // When the import and the imported site's plan both come before the destroy, only the destroy is refused:
    // Terraform asks them in no set order (provider/framework/import-guard.ts; every order: the property in
    // export-keys.test.ts). When the import's side is refused too, it says where to find FROM.
    if (text.includes(`This plan imports siteops_site ${ids.guarded}`)) expect(text).toContain(`terraform state list -id=${ids.guarded}`);
    // A protected site's refusal would say how to turn protection off, which would delete the live site: not here.
    expect(text).not.toContain("deletion_protection = false");
    expect(text).not.toContain("deletion_protection is on");
    expect((await api(tf, "GET", `/api/v1/sites/${ids.guarded}`)).status).toBe(200);
    // Both errors name their side: the destroy waited for the import, so each address is in a "with" line.
    expect(text).toContain(`This plan destroys siteops_site ${ids.guarded} here`);
    expect(text).toContain(`with siteops_site.this["guarded_${tail(ids.guarded!)}"]`);
  });
});
