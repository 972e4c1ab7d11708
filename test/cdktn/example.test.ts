// examples/cdktn synthesizes, run as a user runs it, to what it promises (the checks: test/cdktf/example-suite.ts),
// and is the same fleet as examples/cdktf: only the two CDK imports differ, which is the whole move between them.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeExample } from "../cdktf/example-suite.js";
import { exampleDir, loadExample, readTfJson, synthStack, type Flavor } from "../cdktf/helpers.js";
import { removeDir, tempDir } from "../support/temp.js";

/** A synthesized configuration without its "//" metadata (the CDK's name and version), which Terraform ignores. */
function withoutMetadata(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutMetadata);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== "//")
        .map(([k, v]) => [k, withoutMetadata(v)]),
    );
  return value;
}

describeExample("cdktn");

describe("examples/cdktn next to examples/cdktf", () => {
  const read = (flavor: Flavor, file: string) => readFileSync(path.join(exampleDir(flavor), file), "utf8");

  it("declares the same sites and webhooks, with the same stack and configuration files", () => {
    for (const file of ["sites.ts", "tsconfig.json", "cdktf.json", ".npmrc"]) expect(read("cdktn", file), file).toBe(read("cdktf", file));
  });

  it("differs from the CDKTF stack only in what it imports", () => {
    const moved = read("cdktf", "stack.ts").replace('from "cdktf"', 'from "cdktn"').replace('from "siteops/cdktf"', 'from "siteops/cdktn"');
    expect(read("cdktn", "stack.ts")).toBe(moved);
    const pkg = (flavor: Flavor) => JSON.parse(read(flavor, "package.json")) as { dependencies: Record<string, string> };
    expect(pkg("cdktn").dependencies).toEqual({ cdktn: "^0.24.0", constructs: ">=10.6.0 <10.8.0", siteops: "file:../.." });
    expect(pkg("cdktf").dependencies).toEqual({ cdktf: "^0.21.0", constructs: "^10.4.2", siteops: "file:../.." });
  });

  it("synthesizes the same Terraform configuration, so moving changes no resource address or state", async () => {
    const dir = tempDir("cdk-same");
    try {
      const { sites, webhooks } = await loadExample("cdktf");
      const state = path.join(dir, "terraform.tfstate");
      const [tf, tn] = await Promise.all(
        (["cdktf", "cdktn"] as const).map(async (flavor) => readTfJson(await synthStack(flavor, path.join(dir, flavor), state, { sites, webhooks }))),
      );
      expect(Object.keys(tn!.resource).length).toBeGreaterThan(0);
      expect(withoutMetadata(tn)).toEqual(withoutMetadata(tf));
    } finally {
      removeDir(dir);
    }
  });
});
