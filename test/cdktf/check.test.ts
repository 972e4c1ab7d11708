// The committed bindings: generated headers, and the CI staleness check (scripts/check-cdktf.mjs) passing on the
// provider's schema and failing, with a clear message, on a schema change that was not regenerated.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providerSchemasJson } from "../../provider/schema-json.js";
import { ROOT } from "./helpers.js";

const CDKTF = path.join(ROOT, "provider/cdktf");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(path.join(dir, n)).isDirectory() ? files(path.join(dir, n)) : [path.join(dir, n)]));
}

function check(...args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, "scripts/check-cdktf.mjs"), "--no-typecheck", ...args], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stderr }));
  });
}

describe("provider/cdktf", () => {
  let tmp: string;
  beforeAll(() => {
    tmp = mkdtempSync(path.join(tmpdir(), "siteops-cdktf-check-"));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("starts every file with the generated header and has the classes the issue names", () => {
    const all = files(CDKTF);
    expect(all.length).toBeGreaterThan(5);
    for (const f of all) expect(readFileSync(f, "utf8"), f).toMatch(/^(\/\/|<!--) GENERATED FILE - DO NOT EDIT\. Regenerate with `npm run generate`/);
    const index = readFileSync(path.join(CDKTF, "index.ts"), "utf8");
    for (const dir of ["provider", "site", "webhook-endpoint", "data-siteops-site", "data-siteops-sites", "data-siteops-me", "data-siteops-account"]) {
      expect(index).toContain(`export * from "./${dir}/index.js";`);
    }
    const site = readFileSync(path.join(CDKTF, "site/index.ts"), "utf8");
    expect(site).toContain("export class Site extends cdktf.TerraformResource");
    // The schema's descriptions become doc comments.
    expect(site).toContain("Absolute http or https URL of the site; unique within the account.");
    expect(readFileSync(path.join(CDKTF, "provider/index.ts"), "utf8")).toContain("export class SiteopsProvider extends cdktf.TerraformProvider");
  });

  it("is up to date with the provider's schema", async () => {
    const r = await check();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("provider/cdktf/ is up to date");
  });

  it("fails CI when a schema change was not regenerated, naming the files and the fix", async () => {
    const schema = providerSchemasJson();
    const site = schema.provider_schemas["registry.terraform.io/siteops/siteops"]!.resource_schemas!.siteops_site!;
    site.block.attributes!.notes = { type: "string", description: "Free-form notes.", description_kind: "markdown", optional: true };
    const file = path.join(tmp, "schema.json");
    writeFileSync(file, JSON.stringify(schema));

    const r = await check("--schema", file);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("check-cdktf: provider/cdktf/ is stale");
    expect(r.stderr).toContain("provider/cdktf/site/index.ts differs");
    expect(r.stderr).not.toContain("webhook-endpoint/index.ts");
    expect(r.stderr).toContain("Run `npm run generate` and commit the result.");
  });

  it("notices a removed resource too", async () => {
    const schema = providerSchemasJson();
    delete schema.provider_schemas["registry.terraform.io/siteops/siteops"]!.data_source_schemas!.siteops_account;
    const file = path.join(tmp, "schema-removed.json");
    writeFileSync(file, JSON.stringify(schema));

    const r = await check("--schema", file);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("provider/cdktf/data-siteops-account/index.ts is not generated any more");
  });
});
