// An example stack (examples/cdktf, examples/cdktn), through the generated classes, deployed with real terraform
// and the locally built provider (filesystem mirror, temp CLI config) against the emulator: apply, empty re-plan,
// an in-place update of one site, destroy (refused while the sites are protected, then with protection off). Plain `terraform` runs on the cdk.tf.json that app.synth() wrote;
// neither cdktf-cli nor cdktn-cli is involved. test/cdktf/deploy.test.ts and test/cdktn/deploy.test.ts run it.
import { copyFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providerSchemasJsonText } from "../../provider/schema-json.js";
import { OWNER_TOKEN, SAVED_PLAN, Terraform, api } from "../provider/harness.js";
import { TITLES, loadExample, synthStack, type Flavor, type SiteSpec, type WebhookSpec } from "./helpers.js";

interface ApiSite {
  id: string;
  name: string;
  url: string;
  wp_version: string;
  php_version: string;
}

export function describeDeploy(flavor: Flavor): void {
  describe(`${TITLES[flavor]} example deployed with terraform`, () => {
    let t: Terraform;
    let env: Record<string, string>;
    let sites: SiteSpec[];
    let webhooks: WebhookSpec[];
    /** The site list deployed last. */
    let deployed: SiteSpec[] = [];

    const deploy = async (list: SiteSpec[]) => {
      deployed = list;
      const file = await synthStack(flavor, path.join(t.home, "cdktf.out"), path.join(t.work, "terraform.tfstate"), { sites: list, webhooks });
      copyFileSync(file, path.join(t.work, "cdk.tf.json"));
    };
    const tf = (...args: string[]) => t.ok([...args, "-no-color"], { env });
    const plan = (...extra: string[]) => t.run(["plan", "-input=false", "-no-color", "-detailed-exitcode", ...extra], { env });
    const apiSites = async () => (await api(t, "GET", "/api/v1/sites?per_page=100")).json as ApiSite[];

    beforeAll(async () => {
      t = await Terraform.start();
      env = { SITEOPS_BASE_URL: t.url, SITEOPS_API_TOKEN: OWNER_TOKEN };
      ({ sites, webhooks } = await loadExample(flavor));
      webhooks = webhooks.map((w) => ({ ...w, url: "https://hooks.test.example/siteops" }));
      await deploy(sites);
      await tf("init", "-input=false");
    });
    afterAll(async () => {
      await t?.close();
    });

    // The generators' input, checked once (it does not depend on the flavour).
    if (flavor === "cdktf") {
      it("emits the same schema document as `terraform providers schema -json`", async () => {
        const r = await t.ok(["providers", "schema", "-json"], { env });
        expect(r.stdout).toBe(providerSchemasJsonText());
      });
    }

    it("creates the sites and webhook endpoints; secrets stay out of the apply output", async () => {
      const r = await tf("apply", "-auto-approve", "-input=false");
      expect(r.stdout).toContain("Apply complete! Resources: 5 added, 0 changed, 0 destroyed.");
      expect(r.stdout + r.stderr).not.toMatch(/whsec_|sot_/);

      const live = await apiSites();
      const outputs = JSON.parse((await tf("output", "-json")).stdout) as Record<string, { value: Record<string, string> | string; sensitive: boolean }>;
      const ids = outputs.site_ids!.value as Record<string, string>;
      for (const spec of sites) {
        const site = live.find((s) => s.url === spec.url);
        expect(site, spec.url).toBeDefined();
        expect(ids[spec.key]).toBe(site!.id);
        expect(site!.name).toBe(spec.name);
        if (spec.wpVersion) expect(site!.wp_version).toBe(spec.wpVersion);
      }
      expect(outputs.webhook_secrets!.sensitive).toBe(true);
      const secrets = outputs.webhook_secrets!.value as Record<string, string>;
      expect(Object.keys(secrets).sort()).toEqual(webhooks.map((w) => w.key).sort());
      for (const s of Object.values(secrets)) expect(s).toMatch(/^whsec_/);
      // Listed with the other outputs, the secrets stay hidden; `terraform output -json` (above) reveals them.
      const listed = (await tf("output")).stdout;
      expect(listed).toContain("webhook_secrets = <sensitive>");
      expect(listed).not.toContain("whsec_");
      expect(outputs.account_id!.value).toMatch(/^acct_/);

      const endpoints = (await api(t, "GET", "/api/v1/webhook_endpoints")).json as { id: string; enabled_events: string[] }[];
      const hookIds = outputs.webhook_endpoint_ids!.value as Record<string, string>;
      expect(endpoints.map((e) => e.id).sort()).toEqual(Object.values(hookIds).sort());
      const snapshots = endpoints.find((e) => e.id === hookIds.snapshots)!;
      expect([...snapshots.enabled_events].sort()).toEqual(["snapshot.completed", "snapshot.failed"]);
    });

    it("plans no changes right after apply", async () => {
      const r = await plan();
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain("No changes.");
    });

    it("updates one changed site in place, keeping its id", async () => {
      const before = (await apiSites()).find((s) => s.url === sites[1]!.url)!;
      const changed = sites.map((s, i) => (i === 1 ? { ...s, name: `${s.name} (EU)`, phpVersion: "8.3" } : s));
      await deploy(changed);

      // Saved, and applied as checked: Terraform does not plan it again.
      const p = await plan(`-out=${SAVED_PLAN}`);
      expect(p.code, p.stdout + p.stderr).toBe(2);
      expect(p.stdout).toContain(`siteops_site.${sites[1]!.key} will be updated in-place`);
      expect(p.stdout).toContain("Plan: 0 to add, 1 to change, 0 to destroy.");

      const r = await t.ok(["apply", "-auto-approve", "-input=false", "-no-color", SAVED_PLAN], { env });
      expect(r.stdout).toContain("Apply complete! Resources: 0 added, 1 changed, 0 destroyed.");
      const after = (await apiSites()).find((s) => s.url === sites[1]!.url)!;
      expect(after).toMatchObject({ id: before.id, name: `${sites[1]!.name} (EU)`, php_version: "8.3" });
      expect((await plan()).code).toBe(0);
    });

    it("destroys everything it created once deletion protection is off", async () => {
      const refused = await t.run(["destroy", "-auto-approve", "-input=false", "-no-color"], { env });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("deletion_protection is on");
      await deploy(deployed.map((s) => ({ ...s, deletionProtection: false })));
      const off = await tf("apply", "-auto-approve", "-input=false");
      expect(off.stdout).toContain(`Apply complete! Resources: 0 added, ${sites.length} changed, 0 destroyed.`);
      const r = await tf("destroy", "-auto-approve", "-input=false");
      expect(r.stdout).toContain("Destroy complete! Resources: 5 destroyed.");
      const urls = (await apiSites()).map((s) => s.url);
      for (const spec of sites) expect(urls).not.toContain(spec.url);
      expect((await api(t, "GET", "/api/v1/webhook_endpoints")).json).toEqual([]);
    });
  });
}
