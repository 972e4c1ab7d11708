// examples/cdktn synthesizes, run as a user runs it, to what it promises (the checks: test/cdktf/example-suite.ts),
// and is the same fleet as examples/cdktf: only the two CDK imports differ, which is the whole move between them.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeExample } from "../cdktf/example-suite.js";
import { exampleDir } from "../cdktf/helpers.js";

describeExample("cdktn");

describe("examples/cdktn next to examples/cdktf", () => {
  const read = (flavor: "cdktf" | "cdktn", file: string) => readFileSync(path.join(exampleDir(flavor), file), "utf8");

  it("declares the same sites and webhooks, with the same stack and configuration files", () => {
    for (const file of ["sites.ts", "tsconfig.json", "cdktf.json", ".npmrc"]) expect(read("cdktn", file), file).toBe(read("cdktf", file));
  });

  it("differs from the CDKTF stack only in what it imports", () => {
    const moved = read("cdktf", "stack.ts").replace('from "cdktf"', 'from "cdktn"').replace('from "siteops/cdktf"', 'from "siteops/cdktn"');
    expect(read("cdktn", "stack.ts")).toBe(moved);
    const pkg = (flavor: "cdktf" | "cdktn") => JSON.parse(read(flavor, "package.json")) as { dependencies: Record<string, string> };
    expect(pkg("cdktn").dependencies).toEqual({ cdktn: "^0.24.0", constructs: ">=10.6.0 <10.8.0", siteops: "file:../.." });
    expect(pkg("cdktf").dependencies).toEqual({ cdktf: "^0.21.0", constructs: "^10.4.2", siteops: "file:../.." });
  });
});
