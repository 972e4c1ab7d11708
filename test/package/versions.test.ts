// scripts/check-versions.mjs: package.json's version is the one version number; a bump that leaves the README's
// tarball name, the action's tag or the lock file behind fails CI, and --write brings them along.
import { spawnSync } from "node:child_process";
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "./helpers.js";
import { removeDir, tempDir } from "../support/temp.js";

describe("check-versions", () => {
  let dir: string;
  const check = (...args: string[]) =>
    spawnSync(process.execPath, [path.join(ROOT, "scripts/check-versions.mjs"), "--root", dir, ...args], { encoding: "utf8" });
  const bump = (file: string, version: string) => {
    const json = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as { version: string; packages?: Record<string, { version: string }> };
    json.version = version;
    if (json.packages) json.packages[""]!.version = version;
    writeFileSync(path.join(dir, file), JSON.stringify(json));
  };

  beforeAll(() => {
    dir = tempDir("versions");
    const copied = ["package.json", "package-lock.json", "README.md", "CONTRIBUTING.md", "docs", "action/README.md", "emulator/README.md", "examples"];
    for (const f of copied) cpSync(path.join(ROOT, f), path.join(dir, f), { recursive: true });
  });
  afterAll(() => removeDir(dir));

  it("passes on the repository as committed", () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, "scripts/check-versions.mjs")], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
  });

  it("names every file a version bump left behind, then --write brings them along", () => {
    bump("package.json", "2.3.0");
    const r = check();
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("package-lock.json says");
    expect(r.stderr).toMatch(/README\.md says siteops-\d+\.\d+\.\d+\.tgz where package.json's 2\.3\.0 means siteops-2\.3\.0\.tgz/);
    expect(r.stderr).toContain("examples/workflows/nightly-snapshots.yml says v0 where package.json's 2.3.0 means v2");
    expect(r.stderr).toContain("examples/cdktn/README.md says");

    bump("package-lock.json", "2.3.0");
    expect(check("--write").status).toBe(0);
    expect(check().status).toBe(0);
    expect(r.stderr).toContain("docs/install.md says");
    expect(r.stderr).toContain("action/README.md says v0");
    expect(readFileSync(path.join(dir, "docs/install.md"), "utf8")).toContain("npm i ../siteops/siteops-2.3.0.tgz cdktn@^0.24");
    expect(readFileSync(path.join(dir, "action/README.md"), "utf8")).toContain("siteops/siteops/action@v2");
    const readme = readFileSync(path.join(dir, "README.md"), "utf8");
    expect(readme).toContain("npm i ../siteops/siteops-2.3.0.tgz");
    expect(readme).toContain("siteops/siteops/action@v2");
    expect(readme).not.toMatch(/siteops-0\.\d+\.\d+\.tgz/);
    expect(readFileSync(path.join(dir, "examples/workflows/nightly-fleet.yml"), "utf8")).toContain("npx --yes github:siteops/siteops#v2 sites matrix");
  });

  it("keeps a workflow's CLI ref on the action's tag and refuses the unpublished package from the registry", () => {
    const file = path.join(dir, "examples/workflows/drift.yml");
    writeFileSync(file, "jobs:\n  a:\n    steps:\n      - run: npx --yes siteops@0 sites list\n      - run: npx --yes github:siteops/siteops#v1 sites list\n");
    const r = check();
    rmSync(file);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("examples/workflows/drift.yml runs npx --yes siteops@0, but siteops is not on npm (404)");
    expect(r.stderr).toContain("examples/workflows/drift.yml says v1 where package.json's 2.3.0 means v2");
  });
});
