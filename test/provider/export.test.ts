// provider/export/terraform.ts with the real terraform: the HCL generated for a fleet made by hand plans N to
// import and nothing to add, change or destroy; apply imports; the next plan is empty. Both layouts.
import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderTerraform, readFleet } from "../../provider/export/terraform.js";
import { SiteOps } from "../../src/index.js";
import { OWNER_TOKEN, Terraform, api } from "./harness.js";

let tf: Terraform;
beforeAll(async () => {
  tf = await Terraform.start();
  const sites = [
    { name: "Blog", url: "https://blog.example.com", wp_version: "6.4", php_version: "8.1" },
    { name: "Shop ${oops} %{x}", url: "https://shop.example.com" },
    { name: "Twin", url: "https://twin-1.example.com" },
    { name: "Twin", url: "https://twin-2.example.com" },
    { name: '42 "quoted" ünïcode', url: "https://odd.example.com/path" },
  ];
  for (const s of sites) expect((await api(tf, "POST", "/api/v1/sites", s)).status).toBe(201);
  await api(tf, "POST", "/api/v1/webhook_endpoints", { url: "https://hooks.example.com/siteops", enabled_events: ["site.created", "site.deleted"] });
  const off = (await api(tf, "POST", "/api/v1/webhook_endpoints", { url: "https://hooks.example.com/other", description: "Paused" })).json as { id: string };
  await api(tf, "PATCH", `/api/v1/webhook_endpoints/${off.id}`, { status: "disabled" });
  tf.write(tf.providerBlock(), "provider.tf");
  await tf.init();
});
afterAll(async () => {
  await tf?.close();
});

describe("export terraform", () => {
  for (const layout of ["for_each", "blocks"] as const) {
    it(`${layout}: plans 7 imports and nothing else, applies, then plans nothing`, async () => {
      rmSync(path.join(tf.work, "terraform.tfstate"), { force: true });
      const client = new SiteOps({ baseUrl: tf.url, apiToken: OWNER_TOKEN });
      const hcl = renderTerraform(await readFleet(client), layout);
      tf.write(hcl, "export.tf");
      const p = await tf.plan();
      expect(p.stdout, hcl + p.stdout + p.stderr).toContain("Plan: 7 to import, 0 to add, 0 to change, 0 to destroy.");
      const r = await tf.apply();
      expect(r.stdout).toContain("Apply complete! Resources: 7 imported, 0 added, 0 changed, 0 destroyed.");
      const again = await tf.plan();
      expect(again.code, again.stdout).toBe(0);
      const names = (await tf.state()).values!.root_module!.resources!.filter((x) => x.address.startsWith("siteops_site")).map((x) => x.values.name);
      expect(names).toContain("Shop ${oops} %{x}");
    });
  }
});
