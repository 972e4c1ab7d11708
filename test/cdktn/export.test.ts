// `siteops export cdktn` (the built CLI and CDK bindings: `npm run build` first): the app it writes, run as a user
// runs it (`npx tsx` in a project with cdktn, constructs and siteops installed: here links to this checkout's),
// synthesizes import blocks for every site and webhook endpoint, odd names included, and terraform plans them all
// to import and nothing to add, change or destroy.
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runCli } from "../cli/helpers.js";
import { OWNER_TOKEN, ROOT, Terraform, api } from "../provider/harness.js";

let tf: Terraform;
let app: string;
const ids: string[] = [];

beforeAll(async () => {
  tf = await Terraform.start();
  for (const s of [
    { name: "Blog", url: "https://blog.example.com", wp_version: "6.4" },
    { name: 'Shop ${oops} %{x} "quoted" \\ ünï', url: "https://shop.example.com" },
    { name: 'Shop ${oops} %{x} "quoted" \\ üni', url: "https://shop-2.example.com" },
  ]) {
    const r = await api(tf, "POST", "/api/v1/sites", s);
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    ids.push((r.json as { id: string }).id);
  }
  const hook = await api(tf, "POST", "/api/v1/webhook_endpoints", {
    url: "https://hooks.example.com/${x}",
    description: "50% {of} it",
    enabled_events: ["site.created"],
  });
  ids.push((hook.json as { id: string }).id);
  app = mkdtempSync(path.join(tmpdir(), "siteops-export-cdktn-"));
  mkdirSync(path.join(app, "node_modules"));
  symlinkSync(ROOT, path.join(app, "node_modules", "siteops"));
  for (const dep of ["cdktn", "constructs"]) symlinkSync(path.join(ROOT, "node_modules", dep), path.join(app, "node_modules", dep));
  writeFileSync(path.join(app, "package.json"), JSON.stringify({ type: "module" }));
});
afterAll(async () => {
  await tf?.close();
  if (app) rmSync(app, { recursive: true, force: true });
});

function tsx(file: string, cwd: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", pathToFileURL(path.join(ROOT, "node_modules/tsx/dist/loader.mjs")).href, file], {
      cwd,
      env: { PATH: process.env.PATH, HOME: app, CHECKPOINT_DISABLE: "1" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stderr }));
  });
}

it("writes an app whose synthesized stack plans every object to import and nothing else", async () => {
  const r = await runCli(["export", "cdktn", "--out", path.join(app, "main.ts")], {
    env: { PATH: process.env.PATH, HOME: app, SITEOPS_BASE_URL: tf.url, SITEOPS_API_TOKEN: OWNER_TOKEN },
  });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toContain("exported 3 sites and 1 webhook endpoint to ");
  const synth = await tsx("main.ts", app);
  expect(synth.code, synth.stderr).toBe(0);

  const stackJson = path.join(app, "cdktf.out", "stacks", "siteops", "cdk.tf.json");
  const imports = (JSON.parse(readFileSync(stackJson, "utf8")) as { import: { id: string; to: string }[] }).import;
  expect(imports.map((i) => i.id).sort()).toEqual([...ids].sort());
  copyFileSync(stackJson, path.join(tf.work, "cdk.tf.json"));
  const env = { SITEOPS_BASE_URL: tf.url, SITEOPS_API_TOKEN: OWNER_TOKEN };
  await tf.ok(["init", "-input=false", "-no-color"], { env });
  const plan = await tf.run(["plan", "-input=false", "-no-color"], { env });
  expect(plan.stdout, plan.stdout + plan.stderr).toContain(`Plan: ${ids.length} to import, 0 to add, 0 to change, 0 to destroy.`);
  expect(plan.stdout).toMatch(/name\s+= "Shop \$\{oops\} %\{x\} \\"quoted\\" \\\\ ünï"/);
  expect(plan.stdout).toMatch(/deletion_protection\s+= true/);
});
