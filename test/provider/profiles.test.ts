// The provider's journeys against both emulator profiles (issue 36): the default one, and "minimal", a server that
// follows the spec but decides otherwise (pages of 5 without pagination headers, 6-character ids, URLs stored
// normalised, extra fields, wrapped bodies). With real terraform: apply, an empty plan, a rename, import by URL
// and by id, the data sources (all sites, not 5), `siteops export terraform` (the built CLI) then an empty plan,
// and a destroy refused until deletion_protection is off.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/helpers.js";
import { PROFILES } from "../support/emulator.js";
import { OWNER_TOKEN, SAVED_PLAN, Terraform, api, defaultSeed } from "./harness.js";

/** Seeded sites: with the journey's own, more than two pages of 5. */
const SEEDED = Array.from({ length: 7 }, (_, i) => ({ name: `Seeded ${i + 1}`, url: `https://seeded-${i + 1}.example.org` }));
const ONE_URL = "https://TF-One.Example.org"; // the minimal profile stores https://tf-one.example.org/

/** Terraform's output on one line: it wraps diagnostics at 78 columns. */
const flat = (r: { stdout: string; stderr: string }) => (r.stdout + r.stderr).replace(/\s+/g, " ");

describe.each(PROFILES)("the provider against the %s profile", (profile) => {
  let tf: Terraform;
  const env = () => ({ SITEOPS_BASE_URL: tf.url, SITEOPS_API_TOKEN: OWNER_TOKEN });
  const ids: Record<string, string> = {};
  /** Every site of the account, page by page as the server sends them (in minimal: 5 a page, no headers). */
  const remoteSites = async () => {
    const all: { id: string; name: string; url: string }[] = [];
    for (let page = 1; ; page++) {
      const list = (await api(tf, "GET", `/api/v1/sites?per_page=100&page=${page}`)).json as typeof all;
      if (list.length === 0) return all;
      all.push(...list);
    }
  };

  /** The managed configuration; `protect: false` turns deletion protection off on every site. */
  const config = (o: { oneName?: string; imported?: boolean; protect?: boolean; data?: boolean } = {}) => {
    const off = o.protect === false ? "\n  deletion_protection = false\n" : "";
    const site = (key: string, name: string, url: string, extra = "") =>
      `resource "siteops_site" "${key}" {\n  name = ${JSON.stringify(name)}\n  url  = ${JSON.stringify(url)}\n${extra}${off}}\n`;
    return [
      tf.providerBlock(),
      site("one", o.oneName ?? "One", ONE_URL, '  wp_version  = "6.5"\n  php_version = "8.2"\n'),
      site("two", "Two", "https://two.example.org/blog"),
      `resource "siteops_webhook_endpoint" "hook" {\n  url            = "https://Hooks.Example.org"\n  enabled_events = ["site.created"]\n}\n`,
      o.imported ? site("by_url", "By URL", "https://Import-URL.Example.org") + site("by_id", "By id", "https://import-id.example.org") : "",
      o.data
        ? `data "siteops_sites" "all" {}
data "siteops_site" "one" { url = "https://tf-ONE.example.org:443/" }
output "site_count" { value = length(data.siteops_sites.all.sites) }
output "one_id" { value = data.siteops_site.one.id }
output "one_url" { value = data.siteops_site.one.url }
`
        : "",
    ].join("\n");
  };

  beforeAll(async () => {
    tf = await Terraform.start({ profile, seed: defaultSeed(SEEDED) });
    tf.write(config());
    await tf.init();
  });
  afterAll(async () => {
    await tf?.close();
  });

  it("applies a URL the service normalises, keeping its spelling, and plans nothing after", async () => {
    const r = await tf.apply();
    expect(r.stdout).toContain("Apply complete! Resources: 3 added, 0 changed, 0 destroyed.");
    const one = (await tf.resource("siteops_site.one"))!;
    expect(one).toMatchObject({ url: ONE_URL, wp_version: "6.5", php_version: "8.2", deletion_protection: true });
    ids.one = one.id as string;
    const remote = (await api(tf, "GET", `/api/v1/sites/${ids.one}`)).json as { url: string };
    expect(remote.url).toBe(profile === "minimal" ? "https://tf-one.example.org/" : ONE_URL);
    expect(await tf.resource("siteops_webhook_endpoint.hook")).toMatchObject({ url: "https://Hooks.Example.org" });
    const p = await tf.plan();
    expect(p.code, p.stdout + p.stderr).toBe(0);
  });

  it("applies a real change (a rename) in place", async () => {
    tf.write(config({ oneName: "One renamed" }));
    const p = await tf.planSaved();
    expect(p.code).toBe(2);
    expect(p.stdout).toMatch(/~ name\s+= "One" -> "One renamed"/);
    expect(p.stdout).toContain("Plan: 0 to add, 1 to change, 0 to destroy.");
    await tf.applySaved();
    expect(((await api(tf, "GET", `/api/v1/sites/${ids.one}`)).json as { name: string }).name).toBe("One renamed");
    expect((await tf.plan()).code).toBe(0);
  });

  it("imports by URL (spelled otherwise than the service stores it) and by id; the plan after is empty", async () => {
    const create = async (name: string, url: string) => ((await api(tf, "POST", "/api/v1/sites", { name, url })).json as { id: string }).id;
    ids.byUrl = await create("By URL", "https://Import-URL.Example.org");
    ids.byId = await create("By id", "https://import-id.example.org");
    tf.write(`${config({ oneName: "One renamed", imported: true })}
import {
  to = siteops_site.by_id
  id = ${JSON.stringify(ids.byId)}
}
`);
    const r = await tf.ok(["import", "-no-color", "siteops_site.by_url", "https://import-url.EXAMPLE.org/"]);
    expect(r.stdout).toContain("Import successful!");
    const p = await tf.planSaved();
    expect(p.stdout, p.stdout + p.stderr).toContain("Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.");
    await tf.applySaved();
    // After an import the state holds the service's spelling; the configuration's means the same: no change.
    const byUrl = (await tf.resource("siteops_site.by_url"))!;
    expect(byUrl).toMatchObject({ id: ids.byUrl, deletion_protection: true });
    expect(byUrl.url).toBe(profile === "minimal" ? "https://import-url.example.org/" : "https://Import-URL.Example.org");
    expect(await tf.resource("siteops_site.by_id")).toMatchObject({ id: ids.byId, deletion_protection: true });
    const again = await tf.plan();
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it("reads every site (not one page) and finds a site by a URL spelled otherwise", async () => {
    tf.write(config({ oneName: "One renamed", imported: true, data: true }));
    const r = await tf.apply();
    const count = (await remoteSites()).length;
    expect(count).toBeGreaterThan(10);
    expect(r.stdout).toContain(`site_count = ${count}`);
    expect(r.stdout).toContain(`one_id = "${ids.one}"`);
    expect(r.stdout).toContain('one_url = "https://tf-ONE.example.org:443/"');
    expect((await tf.plan()).code).toBe(0);
  });

  it("siteops export terraform, then terraform plans the imports only and, after apply, nothing", async () => {
    const out = await runCli(["export", "terraform", "--out", `${tf.work}/adopt/`, "--with-provider"], {
      env: { PATH: process.env.PATH, HOME: tf.home, ...env() },
    });
    expect(out.code, out.stderr).toBe(0);
    // An adopted fleet is protected too.
    expect(readFileSync(path.join(tf.work, "adopt", "siteops-import.tf"), "utf8")).toMatch(/deletion_protection\s+= true/);
    await tf.ok(["-chdir=adopt", "init", "-input=false", "-no-color"], { env: env() });
    const objects = (await remoteSites()).length + 1; // and the webhook endpoint
    const p = await tf.run(["-chdir=adopt", "plan", "-input=false", "-no-color", `-out=${SAVED_PLAN}`], { env: env() });
    expect(p.stdout, p.stdout + p.stderr).toContain(`Plan: ${objects} to import, 0 to add, 0 to change, 0 to destroy.`);
    await tf.ok(["-chdir=adopt", "apply", "-auto-approve", "-input=false", "-no-color", SAVED_PLAN], { env: env() });
    const again = await tf.run(["-chdir=adopt", "plan", "-input=false", "-no-color", "-detailed-exitcode"], { env: env() });
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it("refuses terraform destroy while deletion_protection is on, and destroys once it is off", async () => {
    const refused = await tf.run(["destroy", "-auto-approve", "-no-color"]);
    expect(refused.code).toBe(1);
    expect(flat(refused)).toContain(`Cannot delete site "One renamed" (${ids.one}): deletion_protection is on`);
    expect((await api(tf, "GET", `/api/v1/sites/${ids.one}`)).status).toBe(200);

    tf.write(config({ oneName: "One renamed", imported: true, protect: false }));
    const off = await tf.apply();
    expect(off.stdout).toContain("Apply complete! Resources: 0 added, 4 changed, 0 destroyed.");
    const d = await tf.ok(["destroy", "-auto-approve", "-no-color"]);
    expect(d.stdout).toContain("Destroy complete! Resources: 5 destroyed.");
    const left = (await remoteSites()).map((s) => s.id);
    for (const id of Object.values(ids)) expect(left).not.toContain(id);
  });
});
