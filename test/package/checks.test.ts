// The CI checks of packaging and docs on inputs they must reject: scripts/check-package.mjs's contents rules and
// scripts/check-docs.mjs's Markdown link and anchor rules (GitHub's heading slugs).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: plain .mjs scripts, no declarations
import { contentProblems, sizeClaimProblems } from "../../scripts/check-package.mjs";
// @ts-expect-error: plain .mjs scripts, no declarations
import { headingSlugs, markdownProblems } from "../../scripts/check-docs.mjs";
import { removeDir, tempDir } from "../support/temp.js";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => removeDir(d)));

describe("check-package contents", () => {
  const pkg = { exports: { ".": { types: "./dist/src/index.d.ts", default: "./dist/src/index.js" } }, bin: { siteops: "bin/siteops.js" } };
  const info = (paths: string[], size = 1000) => ({ size, files: paths.map((p) => ({ path: p })) });
  const good = ["package.json", "README.md", "LICENSE", "bin/siteops.js", "dist/src/index.js", "dist/src/index.d.ts"];

  it("accepts the expected layout", () => {
    expect(contentProblems(info(good), pkg)).toEqual([]);
  });

  it("names a source map, a .ts source, a stray file, a missing export target and an oversized tarball", () => {
    const problems = contentProblems(
      info([...good.filter((f) => f !== "dist/src/index.d.ts"), "dist/src/index.js.map", "dist/src/x.ts", "test/a.test.ts"], 850_000),
      pkg,
    ) as string[];
    expect(problems.join("\n")).toMatch(/dist\/src\/index\.js\.map: source maps are not shipped/);
    expect(problems.join("\n")).toMatch(/dist\/src\/x\.ts: TypeScript sources are not shipped/);
    expect(problems.join("\n")).toMatch(/test\/a\.test\.ts is packed but is neither in bin\/, dist\/ nor a top-level document/);
    expect(problems.join("\n")).toMatch(/\.\/dist\/src\/index\.d\.ts \(from package\.json\) is not in the tarball/);
    expect(problems.join("\n")).toMatch(/the tarball is 850000 bytes, over the 820000 budget/);
  });
});

describe("check-package size claims", () => {
  it("names a document whose stated tarball size is more than 5 % off, and accepts one within", () => {
    const texts = { "README.md": "npm pack     # writes siteops-0.1.0.tgz (about 495 kB)", "docs/install.md": "(about 480 kB)" };
    expect(sizeClaimProblems(464_600, texts)).toEqual(['README.md says "about 495 kB"; the tarball packs to 465 kB']);
  });
});

describe("check-docs Markdown links", () => {
  it("slugs headings as GitHub does", () => {
    const slugs = headingSlugs("# The API client (`siteops`)\n## Node.js versions\n```sh\n# not a heading\n```\n## Install\n### Install\n");
    expect([...slugs]).toEqual(["the-api-client-siteops", "nodejs-versions", "install", "install-1"]);
  });

  it("reports a missing file and a missing anchor, and accepts good links and HTML anchors", () => {
    const dir = tempDir("links");
    dirs.push(dir);
    mkdirSync(path.join(dir, "docs"));
    writeFileSync(path.join(dir, "docs/a.md"), '# A\n<a id="custom"></a>\n## Part two\n');
    writeFileSync(
      path.join(dir, "README.md"),
      "# R\n[ok](docs/a.md#part-two) [html](docs/a.md#custom) [self](#r) [web](https://example.com/x#y)\n[gone](docs/b.md) [bad](docs/a.md#part-three)\n`[code](nowhere.md)`\n",
    );
    expect(markdownProblems(dir)).toEqual([
      "README.md: (docs/b.md) points to a missing docs/b.md",
      "README.md: (docs/a.md#part-three): no heading #part-three in docs/a.md",
    ]);
  });
});
