// The committed bindings of both CDKs (provider/cdktf, provider/cdktn): generated headers, each importing its own
// library, and the CI staleness check (scripts/check-cdk.mjs) passing on the provider's schema and failing, with a
// clear message naming both folders, on a schema change that was not regenerated.
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providerSchemasJson } from "../../provider/schema-json.js";
import { run, type RunResult } from "../support/processes.js";
import { removeDir, tempDir } from "../support/temp.js";
import { ROOT, type Flavor } from "./helpers.js";

const FLAVORS: Flavor[] = ["cdktf", "cdktn"];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(path.join(dir, n)).isDirectory() ? files(path.join(dir, n)) : [path.join(dir, n)]));
}

function check(...args: string[]): Promise<RunResult> {
  return run(process.execPath, [path.join(ROOT, "scripts/check-cdk.mjs"), "--no-typecheck", ...args], { cwd: ROOT });
}

describe("provider/cdktf and provider/cdktn", () => {
  let tmp: string;
  beforeAll(() => {
    tmp = tempDir("cdk-check");
  });
  afterAll(() => removeDir(tmp));

  it.each(FLAVORS)("%s: every file has the generated header, the classes the provider serves, and imports its own library", (flavor) => {
    const dir = path.join(ROOT, "provider", flavor);
    const other = flavor === "cdktf" ? "cdktn" : "cdktf";
    const all = files(dir);
    expect(all.length).toBeGreaterThan(5);
    for (const f of all) {
      const text = readFileSync(f, "utf8");
      expect(text, f).toMatch(/^(\/\/|<!--) GENERATED FILE - DO NOT EDIT\. Regenerate with `npm run generate`/);
      expect(text, f).not.toContain(`from '${other}'`);
    }
    const index = readFileSync(path.join(dir, "index.ts"), "utf8");
    for (const module of ["provider", "site", "webhook-endpoint", "data-siteops-site", "data-siteops-sites", "data-siteops-me", "data-siteops-account"]) {
      expect(index).toContain(`export * from "./${module}/index.js";`);
    }
    const site = readFileSync(path.join(dir, "site/index.ts"), "utf8");
    expect(site).toContain(`import * as ${flavor} from '${flavor}';`);
    expect(site).toContain(`export class Site extends ${flavor}.TerraformResource`);
    // The schema's descriptions become doc comments.
    expect(site).toContain("Absolute http or https URL of the site; unique within the account.");
    expect(readFileSync(path.join(dir, "provider/index.ts"), "utf8")).toContain(`export class SiteopsProvider extends ${flavor}.TerraformProvider`);
  });

  it("is up to date with the provider's schema", async () => {
    const r = await check();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("provider/cdktf/ is up to date");
    expect(r.stderr).toContain("provider/cdktn/ is up to date");
  });

  it("fails CI when a schema change was not regenerated, naming the files of both flavours and the fix", async () => {
    const schema = providerSchemasJson();
    const site = schema.provider_schemas["registry.terraform.io/siteops/siteops"]!.resource_schemas!.siteops_site!;
    site.block.attributes!.notes = { type: "string", description: "Free-form notes.", description_kind: "markdown", optional: true };
    const file = path.join(tmp, "schema.json");
    writeFileSync(file, JSON.stringify(schema));

    const r = await check("--schema", file);
    expect(r.code).toBe(1);
    for (const flavor of FLAVORS) {
      expect(r.stderr).toContain(`check-cdk: provider/${flavor}/ is stale`);
      expect(r.stderr).toContain(`provider/${flavor}/site/index.ts differs`);
    }
    expect(r.stderr).not.toContain("webhook-endpoint/index.ts");
    expect(r.stderr).toContain("Run `npm run generate` and commit the result.");
  });

  it("notices a removed resource too, in the one flavour asked for", async () => {
    const schema = providerSchemasJson();
    delete schema.provider_schemas["registry.terraform.io/siteops/siteops"]!.data_source_schemas!.siteops_account;
    const file = path.join(tmp, "schema-removed.json");
    writeFileSync(file, JSON.stringify(schema));

    const r = await check("cdktn", "--schema", file);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("provider/cdktn/data-siteops-account/index.ts is not generated any more");
    expect(r.stderr).not.toContain("provider/cdktf/");
  });

  it("rejects an unknown flavour in one line", async () => {
    const r = await check("cdk8s");
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('check-cdk: unknown flavour "cdk8s": expected cdktf or cdktn');
  });
});
