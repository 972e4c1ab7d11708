// siteops_site end to end: real terraform, the bundled provider from a filesystem mirror, the emulator.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Terraform, api } from "./harness.js";

let tf: Terraform;
beforeAll(async () => {
  tf = await Terraform.start();
});
afterAll(async () => {
  await tf?.close();
});

// The lifecycle replaces and destroys the site: deletion_protection (deletion-protection.test.ts) is off.
const site = (name: string, url: string, extra = "") => `
resource "siteops_site" "blog" {
  name = ${JSON.stringify(name)}
  url  = ${JSON.stringify(url)}

  deletion_protection = false
${extra}}
`;

describe("siteops_site lifecycle", () => {
  let firstId = "";

  it("inits from the filesystem mirror and creates the site", async () => {
    tf.write(tf.providerBlock() + site("Blog", "https://blog.example.com"));
    const init = await tf.init();
    expect(init.stdout).toContain("Installing siteops/siteops v0.1.0");
    const r = await tf.apply();
    expect(r.stdout).toContain("siteops_site.blog: Creation complete");
    const values = (await tf.resource("siteops_site.blog"))!;
    expect(values).toMatchObject({ name: "Blog", url: "https://blog.example.com", status: expect.any(String) });
    expect(values.id).toMatch(/^site_/);
    expect(values.wp_version).toMatch(/^\d+\.\d+$/);
    expect(values.created_at).toMatch(/Z$/);
    firstId = values.id as string;
    const remote = await api(tf, "GET", `/api/v1/sites/${firstId}`);
    expect(remote.json).toMatchObject({ name: "Blog" });
  });

  it("plans no changes right after apply", async () => {
    const p = await tf.plan();
    expect(p.stdout).toContain("No changes.");
    expect(p.code).toBe(0);
  });

  it("updates in place", async () => {
    // A lower PHP version: in place only with the direct strategy (site-upgrade.test.ts covers pipelines).
    tf.write(tf.providerBlock() + site("Blog 2", "https://blog.example.com", '  php_version = "8.2"\n  upgrade {\n    strategy = "direct"\n  }\n'));
    const p = await tf.planSaved();
    expect(p.code).toBe(2);
    expect(p.stdout).toContain("~ update in-place");
    expect(p.stdout).toMatch(/~ name\s+= "Blog" -> "Blog 2"/);
    expect(p.stdout).not.toContain("forces replacement");
    await tf.applySaved();
    const values = (await tf.resource("siteops_site.blog"))!;
    expect(values).toMatchObject({ id: firstId, name: "Blog 2", php_version: "8.2" });
    expect((await tf.plan()).code).toBe(0);
  });

  it("replaces on request (-replace) and deletes the old site", async () => {
    const r = await tf.apply("-replace=siteops_site.blog");
    expect(r.stdout).toContain("1 added, 0 changed, 1 destroyed");
    const values = (await tf.resource("siteops_site.blog"))!;
    expect(values.id).not.toBe(firstId);
    expect((await api(tf, "GET", `/api/v1/sites/${firstId}`)).status).toBe(404);
    firstId = values.id as string;
  });

  it("shows an out-of-band edit as an in-place update", async () => {
    await api(tf, "PATCH", `/api/v1/sites/${firstId}`, { name: "Edited elsewhere" });
    const p = await tf.planSaved();
    expect(p.code).toBe(2);
    expect(p.stdout).toMatch(/~ name\s+= "Edited elsewhere" -> "Blog 2"/);
    await tf.applySaved();
    expect((await tf.plan()).code).toBe(0);
  });

  it("plans to create again a site deleted out of band", async () => {
    await api(tf, "DELETE", `/api/v1/sites/${firstId}`);
    const p = await tf.planSaved();
    expect(p.code).toBe(2);
    expect(p.stdout).toContain("siteops_site.blog will be created");
    await tf.applySaved();
    expect((await tf.plan()).code).toBe(0);
  });

  it("maps a 422 field error to the attribute", async () => {
    tf.write(
      tf.providerBlock() +
        site("Blog 2", "https://blog.example.com", '  php_version = "8.2"\n') +
        `
resource "siteops_site" "dup" {
  name = "Duplicate"
  url  = "https://blog.example.com"
}
`,
    );
    const r = await tf.run(["apply", "-auto-approve", "-no-color"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Error: Invalid url");
    expect(r.stderr).toContain("with siteops_site.dup");
    expect(r.stderr).toMatch(/url\s+= "https:\/\/blog.example.com"/);
    tf.write(tf.providerBlock() + site("Blog 2", "https://blog.example.com", '  php_version = "8.2"\n'));
  });

  it("passes unknown and refined-unknown values through the plan", async () => {
    // url interpolates a value known only after apply: Terraform sends a refined unknown (prefix "https://").
    tf.write(
      tf.providerBlock() +
        site("Blog 2", "https://blog.example.com", '  php_version = "8.2"\n') +
        `
resource "siteops_site" "mirror" {
  name       = "Mirror of \${siteops_site.blog.name}"
  url        = "https://\${siteops_site.fresh.id}.mirror.example.com"
  wp_version = siteops_site.fresh.wp_version

  deletion_protection = false
}

resource "siteops_site" "fresh" {
  name = "Fresh"
  url  = "https://fresh.example.com"

  deletion_protection = false
}
`,
    );
    const p = await tf.planSaved();
    expect(p.code).toBe(2);
    expect(p.stdout).toMatch(/\+ url\s+= \(known after apply\)/);
    const r = await tf.applySaved();
    expect(r.stdout).toContain("2 added");
    const fresh = (await tf.resource("siteops_site.fresh"))!;
    expect(await tf.resource("siteops_site.mirror")).toMatchObject({ url: `https://${fresh.id}.mirror.example.com`, wp_version: fresh.wp_version });
    expect((await tf.plan()).code).toBe(0);
    tf.write(tf.providerBlock() + site("Blog 2", "https://blog.example.com", '  php_version = "8.2"\n'));
    await tf.apply();
  });

  it("destroys", async () => {
    const id = (await tf.resource("siteops_site.blog"))!.id as string;
    const r = await tf.ok(["destroy", "-auto-approve", "-no-color"]);
    expect(r.stdout).toContain("Destroy complete! Resources: 1 destroyed.");
    expect((await api(tf, "GET", `/api/v1/sites/${id}`)).status).toBe(404);
  });
});

describe("validation before any API call", () => {
  it("reports each invalid attribute with its path", async () => {
    tf.write(
      tf.providerBlock() +
        `
resource "siteops_site" "bad" {
  name       = ""
  url        = "ftp://example.com"
  wp_version = "six"
}
`,
    );
    const r = await tf.run(["validate", "-no-color"]);
    expect(r.code).toBe(1);
    const out = r.stderr + r.stdout;
    expect(out).toContain("Attribute must be a string of length between 1 and 255, got: 0.");
    expect(out).toMatch(/name\s+= ""/);
    expect(out).toContain('Attribute must be an absolute http or https URL, got: "ftp://example.com".');
    expect(out).toMatch(/on main.tf line \d+, in resource "siteops_site" "bad":/);
    expect(out).toContain('must be a major.minor version such as "6.4", got: "six"');
  });
});

describe("import", () => {
  it("terraform import, then an empty plan", async () => {
    const created = (await api(tf, "POST", "/api/v1/sites", { name: "Shop", url: "https://shop.example.com", wp_version: "6.3" })).json as { id: string };
    tf.write(
      tf.providerBlock() +
        `
resource "siteops_site" "shop" {
  name       = "Shop"
  url        = "https://shop.example.com"
  wp_version = "6.3"
}
`,
    );
    const r = await tf.ok(["import", "-no-color", "siteops_site.shop", created.id]);
    expect(r.stdout).toContain("Import successful!");
    expect(await tf.resource("siteops_site.shop")).toMatchObject({ id: created.id, name: "Shop", wp_version: "6.3" });
    expect((await tf.plan()).code).toBe(0);
    await tf.ok(["state", "rm", "-no-color", "siteops_site.shop"]);
    await api(tf, "DELETE", `/api/v1/sites/${created.id}`);
  });

  it("import blocks, planned and applied", async () => {
    const created = (await api(tf, "POST", "/api/v1/sites", { name: "Docs", url: "https://docs.example.com" })).json as { id: string };
    tf.write(
      tf.providerBlock() +
        `
import {
  to = siteops_site.docs
  id = ${JSON.stringify(created.id)}
}

resource "siteops_site" "docs" {
  name = "Docs"
  url  = "https://docs.example.com"
}
`,
    );
    const p = await tf.planSaved();
    expect(p.stdout).toContain("Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.");
    const r = await tf.applySaved();
    expect(r.stdout).toContain("Apply complete! Resources: 1 imported, 0 added, 0 changed, 0 destroyed.");
    expect((await tf.plan()).code).toBe(0);
  });

  it("importing an id that does not exist fails clearly", async () => {
    tf.write(
      tf.providerBlock() +
        `
resource "siteops_site" "ghost" {
  name = "Ghost"
  url  = "https://ghost.example.com"
}
`,
    );
    const r = await tf.run(["import", "-no-color", "siteops_site.ghost", "site_doesnotexist0000"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Cannot import non-existent remote object");
  });
});
