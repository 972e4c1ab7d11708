// Adopting existing objects with terraform import blocks: sites by URL, by `name:NAME` or by id, webhook
// endpoints by id or URL (their secret cannot be read back), and the errors for no match or several.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Terraform, api } from "./harness.js";

let tf: Terraform;
const ids: Record<string, string> = {};
beforeAll(async () => {
  tf = await Terraform.start();
  for (const [key, name, url] of [
    ["blog", "Blog", "https://blog.example.com"],
    ["shop", "Shop", "https://shop.example.com"],
    ["docs", "Docs", "https://docs.example.com"],
    ["twin1", "Twin", "https://twin-1.example.com"],
    ["twin2", "Twin", "https://twin-2.example.com"],
  ] as const) {
    ids[key] = ((await api(tf, "POST", "/api/v1/sites", { name, url, wp_version: "6.5" })).json as { id: string }).id;
  }
  for (const [key, url] of [
    ["hook", "https://hooks.example.com/siteops"],
    ["dup1", "https://dup.example.com/hook"],
    ["dup2", "https://dup.example.com/hook"],
  ] as const) {
    ids[key] = ((await api(tf, "POST", "/api/v1/webhook_endpoints", { url, enabled_events: ["site.created"] })).json as { id: string }).id;
  }
  tf.write(tf.providerBlock(), "provider.tf");
  await tf.init();
});
afterAll(async () => {
  await tf?.close();
});

const site = (name: string, title: string, url: string) => `
resource "siteops_site" "${name}" {
  name       = ${JSON.stringify(title)}
  url        = ${JSON.stringify(url)}
  wp_version = "6.5"
}
`;
const importBlock = (to: string, id: string) => `
import {
  to = ${to}
  id = ${JSON.stringify(id)}
}
`;

describe("import by URL or name", () => {
  it("imports sites by URL, by name and by id with import blocks, then plans nothing", async () => {
    tf.write(
      importBlock("siteops_site.blog", "https://blog.example.com") +
        site("blog", "Blog", "https://blog.example.com") +
        importBlock("siteops_site.shop", "name:Shop") +
        site("shop", "Shop", "https://shop.example.com") +
        importBlock("siteops_site.docs", ids.docs!) +
        site("docs", "Docs", "https://docs.example.com") +
        importBlock("siteops_webhook_endpoint.hook", "https://hooks.example.com/siteops") +
        `
resource "siteops_webhook_endpoint" "hook" {
  url            = "https://hooks.example.com/siteops"
  enabled_events = ["site.created"]
}

output "hook_secret_is_null" {
  value = nonsensitive(siteops_webhook_endpoint.hook.secret == null)
}
`,
    );
    const p = await tf.planSaved();
    expect(p.stdout, p.stdout + p.stderr).toContain("Plan: 4 to import, 0 to add, 0 to change, 0 to destroy.");
    const r = await tf.applySaved();
    expect(r.stdout).toContain("Apply complete! Resources: 4 imported, 0 added, 0 changed, 0 destroyed.");
    expect(r.stdout).toContain("hook_secret_is_null = true");
    // Imported sites are protected from deletion.
    expect(await tf.resource("siteops_site.blog")).toMatchObject({ id: ids.blog, name: "Blog", deletion_protection: true });
    expect(await tf.resource("siteops_site.shop")).toMatchObject({ id: ids.shop, url: "https://shop.example.com" });
    expect(await tf.resource("siteops_site.docs")).toMatchObject({ id: ids.docs });
    expect(await tf.resource("siteops_webhook_endpoint.hook")).toMatchObject({ id: ids.hook, secret: null });
    const again = await tf.plan();
    expect(again.code, again.stdout).toBe(0);
    // The next configurations leave these out: forgotten, not destroyed (the sites are protected anyway).
    for (const address of ["siteops_site.blog", "siteops_site.shop", "siteops_site.docs", "siteops_webhook_endpoint.hook"]) {
      await tf.ok(["state", "rm", "-no-color", address]);
    }
  });

  it("imports a webhook endpoint by id", async () => {
    tf.write(
      importBlock("siteops_webhook_endpoint.other", ids.dup1!) +
        `
resource "siteops_webhook_endpoint" "other" {
  url            = "https://dup.example.com/hook"
  enabled_events = ["site.created"]
}
`,
    );
    const r = await tf.apply();
    expect(r.stdout).toContain("1 imported");
    expect(await tf.resource("siteops_webhook_endpoint.other")).toMatchObject({ id: ids.dup1, secret: null });
    await tf.ok(["state", "rm", "-no-color", "siteops_webhook_endpoint.other"]);
  });

  it("names the candidates when a name or URL matches several objects, and says when none matches", async () => {
    tf.write(importBlock("siteops_site.twin", "name:Twin") + site("twin", "Twin", "https://twin-1.example.com"));
    const twin = await tf.plan();
    expect(twin.code).toBe(1);
    expect(twin.stderr).toContain('Error: 2 sites have name "Twin"');
    expect(twin.stderr).toContain(ids.twin1!);
    expect(twin.stderr).toContain(ids.twin2!);

    tf.write(importBlock("siteops_site.none", "https://nowhere.example.com") + site("none", "None", "https://nowhere.example.com"));
    const none = await tf.plan();
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('Error: No site with url "https://nowhere.example.com"');

    tf.write(
      importBlock("siteops_webhook_endpoint.dup", "https://dup.example.com/hook") +
        `
resource "siteops_webhook_endpoint" "dup" {
  url = "https://dup.example.com/hook"
}
`,
    );
    const dup = await tf.plan();
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('Error: 2 webhook endpoints have url "https://dup.example.com/hook"');

    tf.write(
      importBlock("siteops_webhook_endpoint.named", "name:Hook") +
        `
resource "siteops_webhook_endpoint" "named" {
  url = "https://hooks.example.com/siteops"
}
`,
    );
    const named = await tf.plan();
    expect(named.code).toBe(1);
    expect(named.stderr).toContain("Import a siteops_webhook_endpoint by its id (we_...) or its URL");
  });
});
