// An example app (examples/cdktf, examples/cdktn) synthesizes, run as a user runs it, to the resources, data
// source and outputs it promises. test/cdktf/example.test.ts and test/cdktn/example.test.ts run it per flavour.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STACK_NAME, readTfJson, runExampleApp, type Flavor, type TfJson } from "./helpers.js";
import { removeDir, tempDir } from "../support/temp.js";

const BASE_URL = "http://127.0.0.1:4747";
const TOKEN = "sot_exampleTokenNeverInJson0001";

export function describeExample(flavor: Flavor): void {
  describe(`examples/${flavor}`, () => {
    let dir: string;
    let tf: TfJson;
    let stderr: string;

    beforeAll(async () => {
      dir = tempDir(`${flavor}-example`);
      const run = await runExampleApp(flavor, dir, {
        SITEOPS_WEBHOOK_URL: "https://hooks.test.example/in",
        SITEOPS_BASE_URL: BASE_URL,
        SITEOPS_API_TOKEN: TOKEN,
      });
      stderr = run.stderr;
      expect(run.code, run.stderr).toBe(0);
      tf = readTfJson(path.join(dir, "cdktf.out", "stacks", STACK_NAME, "cdk.tf.json"));
    });
    afterAll(() => removeDir(dir));

    it("declares one siteops_site per entry of the typed list, with snake_case arguments", () => {
      const sites = tf.resource.siteops_site!;
      expect(Object.keys(sites).sort()).toEqual(["docs", "marketing", "shop"]);
      const { "//": _meta, ...shop } = sites.shop!;
      expect(shop).toEqual({ name: "Shop", url: "https://shop.northwind.example", wp_version: "6.4", php_version: "8.1" });
      // Versions left out of the list are left to the service's defaults, not sent as empty strings.
      expect(sites.docs).not.toHaveProperty("wp_version");
      expect(sites.docs).not.toHaveProperty("php_version");
    });

    it("subscribes webhook endpoints to snapshot and pipeline events, at the URL from the environment", () => {
      const hooks = tf.resource.siteops_webhook_endpoint!;
      expect(Object.keys(hooks).sort()).toEqual(["webhook_snapshots", "webhook_upgrades"]);
      expect(hooks.webhook_snapshots).toMatchObject({ url: "https://hooks.test.example/in", enabled_events: ["snapshot.completed", "snapshot.failed"] });
      const events = hooks.webhook_upgrades!.enabled_events as string[];
      expect(events.length).toBeGreaterThan(0);
      expect(events.every((e) => e.startsWith("upgrade_pipeline."))).toBe(true);
    });

    it("configures the provider from the environment only: no URL or secret in cdk.tf.json", () => {
      expect(tf.provider.siteops).toEqual([{}]);
      expect(tf.terraform.required_providers.siteops!.source).toBe("registry.terraform.io/siteops/siteops");
      const text = JSON.stringify(tf);
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(BASE_URL);
    });

    it("outputs the ids and the webhook secrets, the secrets marked sensitive", () => {
      expect(Object.keys(tf.output).sort()).toEqual(["account_id", "site_ids", "webhook_endpoint_ids", "webhook_secrets"]);
      expect(tf.output.site_ids!.value).toEqual({
        docs: "${siteops_site.docs.id}",
        marketing: "${siteops_site.marketing.id}",
        shop: "${siteops_site.shop.id}",
      });
      expect(tf.output.webhook_secrets).toMatchObject({ sensitive: true, value: { snapshots: "${siteops_webhook_endpoint.webhook_snapshots.secret}" } });
      expect(tf.output.site_ids!.sensitive).toBeUndefined();
      expect(tf.output.account_id!.value).toBe("${data.siteops_me.me.current_account_id}");
      expect(tf.data?.siteops_me).toHaveProperty("me");
    });

    it("keeps the local state next to the app, outside cdktf.out, by a relative path (no absolute path in cdk.tf.json)", () => {
      const state = tf.terraform.backend.local.path;
      expect(path.isAbsolute(state)).toBe(false);
      expect(path.resolve(dir, "cdktf.out", "stacks", STACK_NAME, state)).toBe(path.join(dir, `terraform.${STACK_NAME}.tfstate`));
      expect(JSON.stringify(tf)).not.toContain(dir);
      expect(stderr).not.toMatch(/error/i);
    });
  });
}
