// The packed tarball as built: nothing of the machine that built it (no absolute path of this checkout, of $HOME or
// of the Node.js that built it; the provider's launcher names no Node.js), and the size the README and
// docs/install.md state, within 5 %. That two checkouts in different directories pack the same bytes is
// scripts/check-reproducible.mjs (run by .ci/run).
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: plain .mjs scripts, no declarations
import { SIZE_CLAIMS, sizeClaimProblems } from "../../scripts/check-package.mjs";
// @ts-expect-error: plain .mjs scripts, no declarations
import { buildPathProblems, machinePaths, packInto, tarballFiles } from "../../scripts/check-reproducible.mjs";
import { removeDir, tempDir } from "../support/temp.js";
import { PKG, ROOT } from "./helpers.js";

let dir = "";
let tarball = "";
let files: Map<string, Buffer>;
beforeAll(() => {
  dir = tempDir("tarball");
  tarball = packInto(ROOT, dir) as string;
  files = tarballFiles(tarball) as Map<string, Buffer>;
}, 120_000);
afterAll(() => removeDir(dir));

describe("the packed tarball", () => {
  it("holds no path of the checkout, $HOME or the Node.js that built it", () => {
    expect(files.size).toBeGreaterThan(100);
    expect(buildPathProblems(files, machinePaths())).toEqual([]);
  });

  it("ships a provider launcher that names no Node.js and no path but /bin/sh and /dev/null", () => {
    const launcher = files.get(`package/dist/provider/terraform-provider-siteops_v${PKG.version}`)!.toString("utf8");
    expect(launcher).toContain('\nFALLBACK_NODE=""\n');
    expect(new Set(launcher.match(/(?<![\w.$}])\/[\w.-]+\/[\w./-]*/g))).toEqual(new Set(["/bin/sh", "/dev/null"]));
  });

  it("packs to the size the README and docs/install.md state, within 5 %", () => {
    const texts = Object.fromEntries((SIZE_CLAIMS as string[]).map((f) => [f, readFileSync(path.join(ROOT, f), "utf8")]));
    expect(Object.values(texts).join("\n")).toMatch(/\(about \d+ kB\)/);
    expect(sizeClaimProblems(statSync(tarball).size, texts)).toEqual([]);
  });

  it("the search finds a checkout, a node directory and a path under $HOME, and leaves prose alone", () => {
    const fake = new Map([
      ["package/a.js", Buffer.from('const x = "/build/siteops/dist/a.js";')],
      ["package/b.js", Buffer.from('#!/bin/sh\nNODE="/opt/node-24/bin/node"\n')],
      ["package/c.md", Buffer.from("not under /home, /root or /tmp; /build/siteopsx is another tree")],
      ["package/d.js", Buffer.from("cache: /home/ci/.cache/x")],
    ]);
    const patterns = machinePaths({ checkouts: ["/build/siteops"], node: "/opt/node-24/bin/node", home: "/home/ci" });
    expect(buildPathProblems(fake, patterns).map((p: string) => p.split(" contains ")[0])).toEqual([
      path.join("package", "a.js"),
      path.join("package", "b.js"),
      path.join("package", "d.js"),
    ]);
  });
});
