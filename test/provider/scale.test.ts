// Many resources at once, and Ctrl-C in the middle of an apply.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OWNER_TOKEN, Terraform, api, faults, recordingProxy } from "./harness.js";

let tf: Terraform;
/**
 * Each test in a working directory and an emulator of its own: what one leaves behind is not another's to destroy
 * (the first destroys its 200 sites as what it shows; the others need no clean-up).
 */
beforeEach(async () => {
  tf = await Terraform.start();
  tf.write(tf.providerBlock());
  await tf.init();
});
afterEach(async () => {
  await tf?.close();
});

const sites = (n: number, prefix: string) => `
resource "siteops_site" "many" {
  count = ${n}
  name  = "${prefix} \${count.index}"
  url   = "https://${prefix}-\${count.index}.example.com"

  deletion_protection = false # these tests destroy them
}
`;

async function remoteCount(): Promise<number> {
  let total = 0;
  for (let page = 1; ; page++) {
    const list = (await api(tf, "GET", `/api/v1/sites?per_page=100&page=${page}`)).json as unknown[];
    total += list.length;
    if (list.length < 100) return total;
  }
}

describe("scale", () => {
  it("creates 200 sites with -parallelism=10, plans nothing after, destroys them", async () => {
    tf.write(tf.providerBlock() + sites(200, "bulk"));
    const r = await tf.apply("-parallelism=10");
    expect(r.stdout).toContain("Apply complete! Resources: 200 added, 0 changed, 0 destroyed.");
    expect(await remoteCount()).toBe(200);
    expect((await tf.plan("-parallelism=10")).code).toBe(0);
    // Large refreshes read sites from one listing: drift must still show, both kinds.
    const state = tf.rawState().resources.find((r) => r.type === "siteops_site")!.instances;
    const [gone, edited] = [state[150]!.attributes.id as string, state[160]!.attributes.id as string];
    await api(tf, "DELETE", `/api/v1/sites/${gone}`);
    await api(tf, "PATCH", `/api/v1/sites/${edited}`, { name: "edited out of band" });
    const drift = await tf.planSaved("-parallelism=10");
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain("Plan: 1 to add, 1 to change, 0 to destroy.");
    expect(drift.stdout).toMatch(/~ name\s+= "edited out of band" -> "bulk 160"/);
    await tf.applySaved("-parallelism=10");
    expect((await tf.plan("-parallelism=10")).code).toBe(0);
    const d = await tf.ok(["destroy", "-auto-approve", "-no-color", "-parallelism=10"]);
    expect(d.stdout).toContain("Destroy complete! Resources: 200 destroyed.");
    expect(await remoteCount()).toBe(0);
  });
});

describe("-refresh=false, -target and -parallelism at scale", () => {
  it("reads nothing with -refresh=false, only the target with -target, and stays within max_concurrency at -parallelism=50", async () => {
    const proxy = await recordingProxy(tf.url);
    const block = (extra = "") => `terraform {
  required_providers {
    siteops = { source = "siteops/siteops" }
  }
}
provider "siteops" {
  base_url  = "${proxy.url}"
  api_token = "${OWNER_TOKEN}"
${extra}}
`;
    try {
      tf.write(block("  max_concurrency = 4\n") + sites(60, "flags"));
      await tf.apply("-parallelism=50");
      expect(proxy.mostInFlight()).toBeLessThanOrEqual(4);
      proxy.reset();

      expect((await tf.plan("-refresh=false")).code).toBe(0);
      expect(proxy.requests).toEqual([]);

      const target = tf.rawState().resources.find((r) => r.type === "siteops_site")!.instances[7]!.attributes.id as string;
      expect((await tf.plan("-target=siteops_site.many[7]")).code).toBe(0);
      expect(proxy.requests).toEqual([`GET /api/v1/sites/${target}`]);
      proxy.reset();

      // A full refresh of 60 sites: the first reads one by one, the rest from the listing (100 a page).
      expect((await tf.plan("-parallelism=50")).code).toBe(0);
      expect(proxy.requests.filter((r) => r.startsWith("GET /api/v1/sites?"))).toHaveLength(1);
      expect(proxy.requests.length).toBeLessThan(30);
    } finally {
      await proxy.close();
    }
  });
});

describe("Ctrl-C during apply", () => {
  it("stops the provider's in-flight API calls, keeps state consistent, and a rerun finishes the job", async () => {
    // Creates hang longer than the writes' grace after Ctrl-C (STOP_GRACE_MS), and then fail, so the ones cut
    // off leave nothing behind.
    await faults(tf, [{ method: "POST", path: "/api/v1/sites", delay_ms: 30_000, status: 503 }]);
    tf.write(tf.providerBlock() + sites(3, "interrupted"));
    const r = await tf.run(["apply", "-auto-approve", "-no-color"], { interruptOn: "Creating..." });
    await faults(tf, []);
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toContain("Interrupt received");
    expect(r.stderr).toContain("the operation was cancelled");
    expect(r.stderr).not.toContain("plugin exited");
    expect(r.stderr).not.toContain("panic");
    const again = await tf.apply();
    expect(again.stdout).toContain("3 added");
    expect((await tf.plan()).code).toBe(0);
  });
});
