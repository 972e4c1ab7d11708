// Terraform and a rollout agree (issue 42 item 4), with real terraform against the emulator: the fleet block of
// docs/terraform.md ("Upgrades outside Terraform: rollouts"), applied as written, then upgraded outside Terraform
// through upgrade pipelines as a rollout opens them (one rolled back by the emulator's control API, one left for
// a later wave), plans nothing; without its lifecycle block the same plan refuses a downgrade. And a fleet
// adopted with `siteops export terraform` (the built CLI: `npm run build` first) and upgraded plans nothing with
// the lifecycle block added to the export, or exported again.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OperationFailedError, SiteOps } from "../../src/index.js";
import { runCli } from "../cli/helpers.js";
import { readBlocks } from "../docs/markdown.js";
import { OWNER_TOKEN, ROOT, Terraform, api } from "./harness.js";

const SECTION = "Upgrades outside Terraform: rollouts";
const fleetBlock = (): string => {
  const block = readBlocks(ROOT, ["docs/terraform.md"]).find((b) => b.section === SECTION && b.lang === "hcl");
  if (!block) throw new Error(`docs/terraform.md has no HCL block under "${SECTION}"`);
  return block.code;
};
const withoutLifecycle = (hcl: string): string => hcl.replace(/\n\s*lifecycle \{[\s\S]*?\n {2}\}\n/, "\n");

/**
 * Upgrades the sites through pipelines, as a rollout opens them (no approval: the rollout is the decision), and
 * waits for each to end; a pipeline that fails or rolls back is what a stopped wave leaves. Returns their ends.
 */
async function upgradeOutside(tf: Terraform, siteIds: string[], to: { to_wp_version?: string; to_php_version?: string }): Promise<string[]> {
  const client = new SiteOps({ baseUrl: tf.url, apiToken: OWNER_TOKEN });
  return Promise.all(
    siteIds.map(async (id) => {
      try {
        const opened = await client.operations.openUpgrade(id, { ...to, requires_approval: false }, { wait: false });
        return (await client.operations.followUpgrade(opened, { siteId: id })).status;
      } catch (err) {
        if (err instanceof OperationFailedError) return (err as { resource?: { status?: string } }).resource?.status ?? "failed";
        throw err;
      }
    }),
  );
}

async function versions(tf: Terraform, id: string): Promise<string> {
  const site = (await api(tf, "GET", `/api/v1/sites/${id}`)).json as { wp_version: string; php_version: string };
  return `${site.wp_version}/${site.php_version}`;
}

describe("the documented pattern: lifecycle { ignore_changes = [wp_version, php_version] }", () => {
  let tf: Terraform;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    tf = await Terraform.start();
    tf.write(tf.providerBlock() + fleetBlock());
    await tf.init();
    await tf.apply();
    for (const r of (await tf.state()).values!.root_module!.resources!) ids[r.address.replace(/^.*\["|"\]$/g, "")] = r.values.id as string;
  });
  afterAll(async () => {
    await tf?.close();
  });

  it("plans nothing after a rollout upgraded, rolled back and left sites; the next apply records the versions", async () => {
    expect(Object.keys(ids).sort()).toEqual(["blog", "docs", "shop"]);
    const rule = { site_id: ids.shop, outcome: "roll_back" };
    expect((await api(tf, "POST", "/__emulator/pipeline-outcomes", { rules: [rule] })).status).toBe(200);
    // The first wave: blog and shop (shop rolls back); docs waits for a later wave.
    expect(await upgradeOutside(tf, [ids.blog!, ids.shop!], { to_wp_version: "6.8", to_php_version: "8.3" })).toEqual(["succeeded", "rolled_back"]);
    expect([await versions(tf, ids.blog!), await versions(tf, ids.shop!), await versions(tf, ids.docs!)]).toEqual(["6.8/8.3", "6.5/8.2", "6.5/8.2"]);

    const p = await tf.planSaved();
    expect(p.code, p.stdout + p.stderr).toBe(0);
    expect(p.stdout).toContain("No changes.");
    const a = await tf.applySaved();
    expect(a.stdout).toContain("0 added, 0 changed, 0 destroyed");
    expect(await tf.resource('siteops_site.fleet["blog"]')).toMatchObject({ wp_version: "6.8", php_version: "8.3" });
    expect(await tf.resource('siteops_site.fleet["shop"]')).toMatchObject({ wp_version: "6.5", php_version: "8.2" });

    // The next wave upgrades the rest: still nothing to plan.
    await api(tf, "DELETE", "/__emulator/pipeline-outcomes");
    expect(await upgradeOutside(tf, [ids.shop!, ids.docs!], { to_wp_version: "6.8", to_php_version: "8.3" })).toEqual(["succeeded", "succeeded"]);
    const again = await tf.plan();
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it("ignores a version changed in the configuration, and creates a new site at the configured versions", async () => {
    tf.write(
      tf.providerBlock() +
        fleetBlock()
          .replace('wp_version  = "6.5"', 'wp_version  = "6.9"')
          .replace('docs = { name = "Docs", url = "https://docs.example.com" }', '$&\n    news = { name = "News", url = "https://news.example.com" }'),
    );
    const p = await tf.plan();
    expect(p.code, p.stdout + p.stderr).toBe(2);
    expect(p.stdout).toContain("Plan: 1 to add, 0 to change, 0 to destroy.");
    expect(p.stdout).toContain('siteops_site.fleet["news"] will be created');
    expect(p.stdout).toMatch(/\+ wp_version +(= )?"6\.9"/);
    tf.write(tf.providerBlock() + fleetBlock());
  });

  it("without the lifecycle block, the same plan refuses a downgrade on each upgraded site", async () => {
    const hcl = withoutLifecycle(fleetBlock());
    expect(hcl).not.toContain("ignore_changes");
    tf.write(tf.providerBlock() + hcl);
    const p = await tf.plan();
    expect(p.code).toBe(1);
    expect(p.stderr.match(/Error: WordPress downgrade refused/g)).toHaveLength(3);
    const text = p.stderr.replace(/\s+/g, " ");
    expect(text).toContain("wp_version would go from 6.8 down to 6.5");
    expect(text).toContain("let them own the versions with lifecycle { ignore_changes = [wp_version, php_version] }");
    tf.write(tf.providerBlock() + fleetBlock());
  });
});

describe("siteops export terraform after a rollout", () => {
  let tf: Terraform;
  let env: NodeJS.ProcessEnv;
  const tfEnv = () => ({ SITEOPS_BASE_URL: tf.url, SITEOPS_API_TOKEN: OWNER_TOKEN });
  const exportFleet = async () => {
    const r = await runCli(["export", "terraform", "--out", `${tf.work}/`, "--force", "--with-provider"], { env });
    expect(r.code, r.stderr).toBe(0);
  };
  const plan = () => tf.run(["plan", "-input=false", "-no-color", "-detailed-exitcode"], { env: tfEnv() });

  beforeAll(async () => {
    tf = await Terraform.start();
    env = { PATH: process.env.PATH, HOME: tf.home, SITEOPS_BASE_URL: tf.url, SITEOPS_API_TOKEN: OWNER_TOKEN };
  });
  afterAll(async () => {
    await tf?.close();
  });

  it("an adopted fleet upgraded outside Terraform: the old export refuses a downgrade; with the lifecycle block, or exported again, it plans nothing", async () => {
    const ids: string[] = [];
    for (const name of ["Alpha", "Beta", "Gamma"]) {
      const r = await api(tf, "POST", "/api/v1/sites", { name, url: `https://${name.toLowerCase()}.example.com`, wp_version: "6.5", php_version: "8.2" });
      expect(r.status, JSON.stringify(r.json)).toBe(201);
      ids.push((r.json as { id: string }).id);
    }
    await exportFleet();
    await tf.ok(["init", "-input=false", "-no-color"], { env: tfEnv() });
    await tf.ok(["apply", "-auto-approve", "-input=false", "-no-color"], { env: tfEnv() });

    await api(tf, "POST", "/__emulator/pipeline-outcomes", { rules: [{ site_id: ids[2], outcome: "roll_back" }] });
    expect(await upgradeOutside(tf, ids, { to_wp_version: "6.8" })).toEqual(["succeeded", "succeeded", "rolled_back"]);

    const stale = await plan();
    expect(stale.code).toBe(1);
    expect(stale.stderr.match(/Error: WordPress downgrade refused/g)).toHaveLength(2);

    // The old export with the guide's lifecycle block added to its resource: nothing to plan either.
    const file = path.join(tf.work, "siteops-import.tf");
    const old = readFileSync(file, "utf8");
    const opening = /resource "siteops_site" "this" \{\n {2}for_each = local\.sites\n/;
    expect(old).toMatch(opening);
    writeFileSync(file, old.replace(opening, "$&\n  lifecycle {\n    ignore_changes = [wp_version, php_version]\n  }\n"));
    const kept = await plan();
    expect(kept.code, kept.stdout + kept.stderr).toBe(0);

    await exportFleet();
    const hcl = readFileSync(path.join(tf.work, "siteops-import.tf"), "utf8");
    expect(hcl.match(/wp_version += "6\.8"/g)).toHaveLength(2);
    const fresh = await plan();
    expect(fresh.code, hcl + fresh.stdout + fresh.stderr).toBe(0);
    expect(fresh.stdout).toContain("No changes.");
  });
});
