// deletion_protection of siteops_site with the real terraform: on by default; terraform destroy, a resource taken
// out of the configuration, a removed block and -replace are refused at plan time with one sentence on how to
// turn it off; a tainted site's replacement is refused at apply time (delete is the last guard); turning it off
// is an in-place change that makes no request; a protected site deleted outside Terraform is planned for creation;
// state written before the attribute existed reads as protected with an empty plan.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OWNER_TOKEN, Terraform, api, recordingProxy, type RecordingProxy } from "./harness.js";

let tf: Terraform;
let proxy: RecordingProxy;
let id = "";
beforeAll(async () => {
  tf = await Terraform.start();
  proxy = await recordingProxy(tf.url);
});
afterAll(async () => {
  await proxy?.close();
  await tf?.close();
});

/** The provider through the recording proxy, and the site with `extra` arguments. */
const config = (extra = "") => `terraform {
  required_providers {
    siteops = { source = "siteops/siteops" }
  }
}

provider "siteops" {
  base_url  = "${proxy.url}"
  api_token = "${OWNER_TOKEN}"
}

resource "siteops_site" "blog" {
  name = "Blog"
  url  = "https://blog.example.com"
${extra}}
`;
const HOW = "set deletion_protection = false in its siteops_site block and run terraform apply first.";
const exists = async () => (await api(tf, "GET", `/api/v1/sites/${id}`)).status === 200;
/** Terraform's output on one line: it wraps diagnostics at 78 columns. */
const flat = (r: { stdout: string; stderr: string }) => (r.stdout + r.stderr).replace(/\s+/g, " ");

describe("deletion_protection", () => {
  it("is on for a site created without it", async () => {
    tf.write(config());
    await tf.init();
    await tf.apply();
    const site = (await tf.resource("siteops_site.blog"))!;
    expect(site.deletion_protection).toBe(true);
    id = site.id as string;
    expect((await tf.plan()).code).toBe(0);
  });

  it("plans a protected site deleted outside Terraform for creation, as a new site (nothing to delete)", async () => {
    // Deleted in the console or by the host: the refresh drops it, and the plan creates it again, as Google's
    // provider plans a protected Cloud SQL instance deleted outside Terraform.
    await api(tf, "DELETE", `/api/v1/sites/${id}`);
    const p = await tf.planSaved();
    expect(p.code, p.stdout + p.stderr).toBe(2);
    expect(p.stdout).toContain("Plan: 1 to add, 0 to change, 0 to destroy.");
    expect(flat(p)).not.toContain("deletion_protection is on");
    await tf.applySaved();
    const again = (await tf.resource("siteops_site.blog"))!;
    expect(again.id).not.toBe(id);
    expect(again.deletion_protection).toBe(true);
    id = again.id as string;
    expect((await tf.plan()).code).toBe(0);
  });

  it("refuses nothing for a protected site deleted outside Terraform and taken out of the configuration", async () => {
    // Read first (the default), such a site is found gone and nothing is planned; planned without reading it
    // (-refresh=false), its destroy is planned, and neither refused nor sent: there is nothing to delete.
    const pair = (keys: string) => `${config()}
resource "siteops_site" "pair" {
  for_each = {${keys}}
  name     = "Pair \${each.key}"
  url      = "https://pair-\${each.key}.example.com"
}
`;
    tf.write(pair(' a = "a", b = "b" '));
    await tf.apply();
    const pairId = async (key: string) => (await tf.resource(`siteops_site.pair["${key}"]`))!.id as string;
    await api(tf, "DELETE", `/api/v1/sites/${await pairId("b")}`);
    tf.write(pair(' a = "a" '));
    const p = await tf.planSaved("-refresh=false");
    expect(p.code, p.stdout + p.stderr).toBe(2);
    expect(p.stdout).toContain("Plan: 0 to add, 0 to change, 1 to destroy.");
    const a = await tf.applySaved();
    expect(a.stdout).toContain("0 added, 0 changed, 1 destroyed");
    await api(tf, "DELETE", `/api/v1/sites/${await pairId("a")}`);
    tf.write(config());
    expect((await tf.plan()).code).toBe(0);
    await tf.apply();
  });

  it("refuses terraform destroy at plan time, saying how to turn it off", async () => {
    const r = await tf.run(["destroy", "-auto-approve", "-no-color"]);
    expect(r.code).toBe(1);
    expect(flat(r)).toContain(`Error: Cannot delete site "Blog" (${id}): deletion_protection is on`);
    expect(flat(r)).toContain("Terraform would delete this WordPress site. If the configuration still has it at another address");
    expect(flat(r)).toContain(
      `it moved: write a moved block from this address (the "with" line above) to that one, and nothing is deleted. To delete it, ${HOW}`,
    );
    expect(r.stdout).not.toContain("Destroying...");
    expect(await exists()).toBe(true);
  });

  it("refuses a resource taken out of the configuration, and a removed block that destroys", async () => {
    tf.write(config().replace(/resource "siteops_site"[\s\S]*$/, ""));
    const orphan = await tf.plan();
    expect(orphan.code).toBe(1);
    expect(flat(orphan)).toContain(`Cannot delete site "Blog" (${id}): deletion_protection is on`);

    tf.write(`${config().replace(/resource "siteops_site"[\s\S]*$/, "")}
removed {
  from = siteops_site.blog
  lifecycle {
    destroy = true
  }
}
`);
    const removed = await tf.plan();
    expect(removed.code).toBe(1);
    expect(flat(removed)).toContain(`Cannot delete site "Blog" (${id}): deletion_protection is on`);
    expect(await exists()).toBe(true);
  });

  it("refuses -replace at plan time", async () => {
    tf.write(config());
    const r = await tf.run(["apply", "-auto-approve", "-no-color", "-replace=siteops_site.blog"]);
    expect(r.code).toBe(1);
    expect(flat(r)).toContain('Error: Cannot replace site "Blog": deletion_protection is on');
    expect(flat(r)).toContain(`Replacing it deletes this WordPress site and creates an empty one; to allow that, ${HOW}`);
    expect((await tf.resource("siteops_site.blog"))!.id).toBe(id);
    expect(await exists()).toBe(true);
  });

  it("refuses a tainted site's replacement at apply time: delete is the last guard", async () => {
    await tf.ok(["taint", "-no-color", "siteops_site.blog"]);
    const r = await tf.run(["apply", "-auto-approve", "-no-color"]);
    expect(r.code).toBe(1);
    expect(flat(r)).toContain(`Error: Cannot delete site "Blog" (${id}): deletion_protection is on`);
    expect(await exists()).toBe(true);
    await tf.ok(["untaint", "-no-color", "siteops_site.blog"]);
    expect((await tf.plan()).code).toBe(0);
  });

  it("turns off in place without a request, and then the site can be destroyed", async () => {
    tf.write(config("  deletion_protection = false\n"));
    const p = await tf.plan();
    expect(p.code).toBe(2);
    expect(p.stdout).toMatch(/~ deletion_protection\s+= true -> false/);
    expect(p.stdout).toContain("Plan: 0 to add, 1 to change, 0 to destroy.");
    expect(p.stdout).not.toContain("known after apply");
    proxy.reset();
    const a = await tf.apply("-refresh=false");
    expect(a.stdout).toContain("0 added, 1 changed, 0 destroyed");
    expect(proxy.requests).toEqual([]);
    expect((await tf.plan()).code).toBe(0);
    const d = await tf.ok(["destroy", "-auto-approve", "-no-color"]);
    expect(d.stdout).toContain("Destroy complete! Resources: 1 destroyed.");
    expect(await exists()).toBe(false);
  });

  it("reads state written before the attribute existed as protected, with an empty plan", async () => {
    tf.write(config());
    await tf.apply();
    id = (await tf.resource("siteops_site.blog"))!.id as string;
    // As an older provider wrote it: schema version 0, no deletion_protection, no private state.
    const file = path.join(tf.work, "terraform.tfstate");
    const state = tf.rawState();
    for (const r of state.resources) {
      for (const i of r.instances) {
        i.schema_version = 0;
        delete i.attributes.deletion_protection;
        delete i.private;
      }
    }
    writeFileSync(file, JSON.stringify(state));
    const p = await tf.plan();
    expect(p.code, p.stdout + p.stderr).toBe(0);
    await tf.apply();
    expect(tf.rawState().resources[0]!.instances[0]).toMatchObject({ schema_version: 1, attributes: { deletion_protection: true } });
    const r = await tf.run(["destroy", "-auto-approve", "-no-color"]);
    expect(r.code).toBe(1);
    expect(flat(r)).toContain("deletion_protection is on");
  });
});
