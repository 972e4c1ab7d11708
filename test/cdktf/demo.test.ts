// `npm run demo` as a user runs it (no TTY): the whole flow succeeds and cleans up; without terraform it fails
// early with one clear line.
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { run, type RunResult } from "../support/processes.js";
import { ROOT } from "./helpers.js";

function demo(env: NodeJS.ProcessEnv = process.env): Promise<RunResult> {
  return run(process.execPath, [path.join(ROOT, "scripts/demo.mjs")], { cwd: ROOT, env: { ...env, SITEOPS_DEMO_PORT: "0", NO_COLOR: "1" } });
}

describe("npm run demo", () => {
  it("applies the CDKTF example, updates a site in place, snapshots and upgrades it, summarizes and cleans up", async () => {
    const r = await demo();
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const out = r.stdout;
    expect(out).toContain("terraform apply: 5 added, 0 changed, 0 destroyed");
    expect(out).toContain("terraform apply: 0 added, 1 changed, 0 destroyed");
    expect(out).toMatch(/# siteops_site\.shop will be updated in-place\n\s+~ php_version\s+= "8\.1" -> "8\.2"/);
    expect(out).toMatch(/snapshot snap_\w+ of "shop" created/);
    expect(out).toMatch(/upgrade pipeline upg_\w+ opened: WordPress 6\.4 -> \d+\.\d+/);
    expect(out).toMatch(/\]\s+succeeded \(/);
    // The summary: ids and states of what was created, deliveries verified with the secrets Terraform kept.
    expect(out).toMatch(/shop\s+site_\w+\s+Shop\s+\w+\s+\d+\.\d+\s+8\.2/);
    expect(out).toMatch(/snapshots\s+we_\w+\s+enabled\s+snapshot\.completed, snapshot\.failed/);
    expect(out).toMatch(/snap_\w+\s+completed\s+upload/);
    expect(out).toMatch(/upg_\w+\s+succeeded\s+6\.4 -> /);
    expect(out).toMatch(/Webhook deliveries received: (\d+), \1 with a valid signature/);
    expect(out).toContain("Activity log (newest first)");
    expect(out).toContain("terraform apply (deletion_protection = false): 0 added, 3 changed, 0 destroyed");
    expect(out).toContain("terraform destroy: 5 destroyed");
    // Secrets stay out of a run without --keep.
    expect(out + r.stderr).not.toMatch(/whsec_|sot_/);
    const dir = /filesystem mirror \((\/[^)]+)\)/.exec(out)?.[1];
    expect(dir && existsSync(dir)).toBe(false);
  }, 180_000); // a whole demo; on a loaded 2-core CI box it can take several times its usual 15 s

  it("fails with one clear message when terraform is missing", async () => {
    const r = await demo({ ...process.env, PATH: "/nonexistent" });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      "demo failed: terraform is not on the PATH. Install Terraform 1.5 or later (https://developer.hashicorp.com/terraform/install) and run `npm run demo` again.",
    );
  });
});
