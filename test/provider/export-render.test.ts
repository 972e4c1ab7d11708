// What `siteops export terraform|cdktn` writes for one fixed fleet, byte for byte, held against the files in
// fixtures/export/ (odd names, twins, an endpoint with and one without a description, a disabled one). A change
// that alters the output fails here; when it is meant, `npx vitest run -u test/provider/export-render.test.ts`
// rewrites them, and the diff is the change a user will see.
import { describe, expect, it } from "vitest";
import type { Site, WebhookEndpoint } from "../../src/index.js";
import { renderCdktn } from "../../provider/export/cdktn.js";
import { fleetEntries, type Fleet } from "../../provider/export/fleet.js";
import { renderTerraform } from "../../provider/export/terraform.js";
import { siteFields } from "../../wire/generated/fields.js";
import { recordOf } from "../support/wire-records.js";

const site = (id: string, name: string, url: string, wp_version = "6.4", php_version = "8.2"): Site =>
  recordOf<Site>(siteFields, {
    id,
    name,
    url,
    wp_version,
    php_version,
    status: "healthy",
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:00:00Z",
  });

const endpoint = (id: string, url: string, description: string | null, enabled_events: string[], status: "enabled" | "disabled"): WebhookEndpoint => ({
  id,
  url,
  description,
  enabled_events,
  status,
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-01T00:00:00Z",
});

const FLEET: Fleet = {
  sites: [
    site("site_01A", "Blog", "https://blog.example.com", "6.5", "8.1"),
    site("site_01B", "Shop ${oops} %{x}", "https://shop.example.com"),
    site("site_01C", "Twin", "https://twin-1.example.com"),
    site("site_01D", "Twin", "https://twin-2.example.com"),
    site("site_01E", '42 "quoted" ünïcode', "https://odd.example.com/path"),
    site("site_01F", "日本語のサイト", "https://nihongo.example.com"),
  ],
  webhookEndpoints: [
    endpoint("we_01A", "https://hooks.example.com/siteops", null, ["site.deleted", "site.created"], "enabled"),
    endpoint("we_01B", "https://hooks.example.com/other", "Paused", ["*"], "disabled"),
    endpoint("we_01C", "https://hooks.example.com/empty", "", ["*"], "enabled"),
  ],
};

const entries = fleetEntries(FLEET);
const golden = (name: string) => `fixtures/export/${name}`;

describe("siteops export output for a fixed fleet", () => {
  it("terraform, map form (the default)", async () => {
    await expect(renderTerraform(entries)).toMatchFileSnapshot(golden("map.tf"));
  });

  it("terraform, blocks form with the provider block and a scope", async () => {
    await expect(renderTerraform(entries, { form: "blocks", withProvider: true, scope: "shard 1 of 2" })).toMatchFileSnapshot(golden("blocks.tf"));
  });

  it("terraform, map form of endpoints alone (no sites: no sites section)", async () => {
    await expect(renderTerraform({ sites: [], webhookEndpoints: entries.webhookEndpoints })).toMatchFileSnapshot(golden("endpoints-only.tf"));
  });

  it("cdktn app", async () => {
    await expect(renderCdktn(entries, { stack: "adopted", scope: "shard 1 of 2" })).toMatchFileSnapshot(golden("cdktn-app.txt"));
  });
});
