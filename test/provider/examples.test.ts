// Every HCL example in examples/terraform/ (which the generated docs embed) is valid for this provider.
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, Terraform } from "./harness.js";

const EXAMPLES = path.join(ROOT, "examples/terraform");
const providerTf = readFileSync(path.join(EXAMPLES, "provider/provider.tf"), "utf8");

const cases: [string, string][] = [];
for (const kind of ["resources", "data-sources", "functions"]) {
  for (const type of readdirSync(path.join(EXAMPLES, kind))) {
    for (const file of readdirSync(path.join(EXAMPLES, kind, type)).filter((f) => f.endsWith(".tf")))
      cases.push([`${kind}/${type}/${file}`, path.join(EXAMPLES, kind, type, file)]);
  }
}

let tf: Terraform;
beforeAll(async () => {
  tf = await Terraform.start();
  tf.write(providerTf, "provider.tf");
  await tf.init();
});
afterAll(async () => {
  await tf?.close();
});

describe("examples/terraform", () => {
  it("covers every resource and data source", () => {
    for (const t of ["siteops_site", "siteops_webhook_endpoint"]) expect(existsSync(path.join(EXAMPLES, "resources", t, "resource.tf"))).toBe(true);
    for (const t of ["siteops_site", "siteops_sites", "siteops_me", "siteops_account"])
      expect(existsSync(path.join(EXAMPLES, "data-sources", t, "data-source.tf"))).toBe(true);
    expect(existsSync(path.join(EXAMPLES, "functions", "shard", "function.tf"))).toBe(true);
  });

  it("terraform providers schema -json shows the schema Terraform sees", async () => {
    tf.remove("example.tf");
    const r = await tf.ok(["providers", "schema", "-json"]);
    const schema = JSON.parse(r.stdout).provider_schemas["registry.terraform.io/siteops/siteops"];
    expect(Object.keys(schema.resource_schemas).sort()).toEqual(["siteops_site", "siteops_webhook_endpoint"]);
    expect(Object.keys(schema.data_source_schemas).sort()).toEqual(["siteops_account", "siteops_me", "siteops_site", "siteops_sites"]);
    expect(schema.provider.block.attributes.api_token).toMatchObject({ type: "string", optional: true, sensitive: true });
    expect(schema.resource_schemas.siteops_webhook_endpoint.block.attributes.secret).toMatchObject({ computed: true, sensitive: true });
    expect(schema.resource_schemas.siteops_webhook_endpoint.block.attributes.enabled_events.type).toEqual(["set", "string"]);
    expect(schema.resource_schemas.siteops_site.block.attributes.name).toMatchObject({ required: true, description_kind: "markdown" });
  });

  it.each(cases)("%s validates", async (_name, file) => {
    let hcl = readFileSync(file, "utf8");
    // An import block needs the resource it imports into.
    if (file.endsWith("import-block.tf")) hcl += "\n" + readFileSync(path.join(path.dirname(file), "resource.tf"), "utf8");
    tf.write(hcl, "example.tf");
    const r = await tf.run(["validate", "-no-color"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
  });
});
