// Data sources against seeded sites: siteops_site (by id, name, url), siteops_sites, siteops_me, siteops_account.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OWNER_EMAIL, Terraform, api, defaultSeed } from "./harness.js";

let tf: Terraform;
beforeAll(async () => {
  tf = await Terraform.start({
    seed: defaultSeed([
      { name: "Alpha", url: "https://alpha.example.com", wp_version: "6.2" },
      { name: "Beta", url: "https://beta.example.com" },
      { name: "Twin", url: "https://twin-1.example.com" },
      { name: "Twin", url: "https://twin-2.example.com" },
    ]),
  });
  tf.write(tf.providerBlock());
  await tf.init();
});
afterAll(async () => {
  await tf?.close();
});

async function outputs(hcl: string): Promise<Record<string, { value: unknown }>> {
  tf.write(tf.providerBlock() + hcl);
  await tf.apply();
  const r = await tf.ok(["output", "-json", "-no-color"]);
  return JSON.parse(r.stdout);
}

describe("data sources", () => {
  it("siteops_sites lists every site, oldest first", async () => {
    const out = await outputs(`
data "siteops_sites" "all" {}
output "names" { value = [for s in data.siteops_sites.all.sites : s.name] }
output "first" { value = data.siteops_sites.all.sites[0] }
`);
    expect(out.names!.value).toEqual(["Alpha", "Beta", "Twin", "Twin"]);
    expect(out.first!.value).toMatchObject({ name: "Alpha", url: "https://alpha.example.com", wp_version: "6.2", id: expect.stringMatching(/^site_/) });
  });

  it("siteops_site by name, by url and by id", async () => {
    const out = await outputs(`
data "siteops_site" "by_name" { name = "Alpha" }
data "siteops_site" "by_url" { url = "https://beta.example.com" }
data "siteops_site" "by_id" { id = data.siteops_site.by_name.id }
output "by_name" { value = data.siteops_site.by_name }
output "by_url" { value = data.siteops_site.by_url.name }
output "by_id" { value = data.siteops_site.by_id.url }
`);
    expect(out.by_name!.value).toMatchObject({ name: "Alpha", wp_version: "6.2", status: expect.any(String), created_at: expect.stringMatching(/Z$/) });
    expect(out.by_url!.value).toBe("Beta");
    expect(out.by_id!.value).toBe("https://alpha.example.com");
  });

  it("siteops_site reports an ambiguous or missing name at the attribute", async () => {
    tf.write(tf.providerBlock() + `data "siteops_site" "twin" { name = "Twin" }\n`);
    const twin = await tf.run(["plan", "-no-color"]);
    expect(twin.code).toBe(1);
    expect(twin.stderr).toContain('Error: 2 sites have name "Twin"');
    expect(twin.stderr).toMatch(/name = "Twin"/);
    tf.write(tf.providerBlock() + `data "siteops_site" "none" { id = "site_missing00000000" }\n`);
    const none = await tf.run(["plan", "-no-color"]);
    expect(none.stderr).toContain('Error: No site with id "site_missing00000000"');
  });

  it("siteops_site needs exactly one of id, name, url", async () => {
    tf.write(tf.providerBlock() + `data "siteops_site" "both" {\n  name = "Alpha"\n  url  = "https://alpha.example.com"\n}\n`);
    const r = await tf.run(["validate", "-no-color"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Exactly one of these attributes must be configured: [id,name,url]");
  });

  it("siteops_me and siteops_account", async () => {
    const out = await outputs(`
data "siteops_me" "me" {}
data "siteops_account" "current" {}
data "siteops_account" "by_id" { id = data.siteops_me.me.current_account_id }
output "me" { value = data.siteops_me.me }
output "account" { value = data.siteops_account.current }
output "same" { value = data.siteops_account.by_id.name == data.siteops_account.current.name }
`);
    expect(out.me!.value).toMatchObject({ email: OWNER_EMAIL, role: "owner", two_factor_enabled: false, current_account_id: expect.stringMatching(/^acct_/) });
    expect(out.account!.value).toMatchObject({ name: "Provider Tests", id: (out.me!.value as { current_account_id: string }).current_account_id });
    expect(out.same!.value).toBe(true);
  });

  it("a data source feeds a resource", async () => {
    await outputs(`
data "siteops_site" "alpha" { name = "Alpha" }
resource "siteops_site" "copy" {
  name       = "Copy of \${data.siteops_site.alpha.name}"
  url        = "https://copy.example.com"
  wp_version = data.siteops_site.alpha.wp_version
}
`);
    const list = (await api(tf, "GET", "/api/v1/sites?per_page=100")).json as { name: string; wp_version: string }[];
    expect(list.find((s) => s.name === "Copy of Alpha")).toMatchObject({ wp_version: "6.2" });
    expect((await tf.plan()).code).toBe(0);
  });
});
