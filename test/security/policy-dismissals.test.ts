// Issue 48 items 5 and 6: what a vulnerability policy touches. A `sites:` value shaped like an id matches that id
// only (a member who renames "Marketing" to Shop's id does not bring it under Shop's acceptance) and a name several
// sites share is refused, before any change. A policy reopens only the dismissals it made itself, told by a seal
// over the record, the reason and the comment: the `[siteops-policy]` marker typed by a person (through the API,
// as the console would; `siteops vulns update --comment` refuses it), a seal guessed or copied onto another
// record, or a policy's dismissal a person changed are a person's, never reopened. The core against the emulator,
// and the built CLI.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator, SeedFile } from "../../emulator/index.js";
import { applyVulnerabilityPolicy, parseVulnerabilityPolicy, type VulnerabilityPolicy } from "../../src/fleet.js";
import { SiteOps, type Site, type VulnerabilityRecord } from "../../src/index.js";
import { runCli, sandbox, type Sandbox } from "../cli/helpers.js";
import { startSeededEmulator } from "../support/emulator.js";
import { writeFileSync } from "node:fs";
import path from "node:path";

const TOKEN = "sot_policyDismissalsOwner0001";
const SEED: SeedFile = {
  accounts: [
    {
      name: "Acme",
      users: [{ email: "owner@acme.test", password: "owner-password-1", name: "Owner", role: "owner" }],
      api_tokens: [{ token: TOKEN, user_email: "owner@acme.test" }],
      sites: ["Blog", "Shop", "Marketing"].map((name) => ({ name, url: `https://${name.toLowerCase()}.acme.test`, wp_version: "6.4", php_version: "8.1" })),
    },
  ],
};
const UNTIL = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);

let emu: RunningEmulator;
let client: SiteOps;
let box: Sandbox;
let sites: Record<string, Site>;
let cve: string;

beforeAll(async () => {
  emu = await startSeededEmulator(SEED);
  client = new SiteOps({ baseUrl: emu.url, apiToken: TOKEN, maxRetries: 0 });
  box = sandbox({ SITEOPS_BASE_URL: emu.url, SITEOPS_API_TOKEN: TOKEN });
  sites = {};
  for await (const site of client.sites.list()) sites[site.name] = site;
  // A CVE every site has open (they run the same version).
  const blog = await client.vulnerabilityRecords.list(sites.Blog!.id).toArray();
  cve = blog.find((r) => r.cve && r.status === "open")!.cve!;
});
afterAll(async () => {
  box?.cleanup();
  await client?.close();
  await emu?.close();
});

const listSites = async () => client.sites.list().toArray();
const policy = (accept: object[]): VulnerabilityPolicy => parseVulnerabilityPolicy({ accept });
const acceptance = (more: object = {}) => ({ cve, reason: "tolerable_risk", justification: "behind the WAF", expires: UNTIL, ...more });
async function recordOf(site: Site, id?: string): Promise<VulnerabilityRecord> {
  const all = await client.vulnerabilityRecords.list(site.id).toArray();
  return all.find((r) => (id ? r.id === id : r.cve === cve))!;
}

describe("a policy's sites: ids match ids, a shared name is refused", () => {
  it("an id matches that site only, even when another site is named after it", async () => {
    const marketing = sites.Marketing!;
    await client.sites.update(marketing.id, { name: sites.Shop!.id });
    try {
      const plan = await applyVulnerabilityPolicy(client, policy([acceptance({ sites: [sites.Shop!.id] })]), await listSites(), { dryRun: true });
      expect(plan.changes.map((c) => [c.action, c.site.id])).toEqual([["dismiss", sites.Shop!.id]]);
    } finally {
      await client.sites.update(marketing.id, { name: "Marketing" });
    }
  });

  it("a name two sites share is refused before any change, naming the place (core and CLI, exit 2)", async () => {
    const marketing = sites.Marketing!;
    await client.sites.update(marketing.id, { name: "Shop" });
    try {
      await expect(applyVulnerabilityPolicy(client, policy([acceptance({ sites: ["Blog", "Shop"] })]), await listSites())).rejects.toThrow(
        /^accept\[0\]\.sites\[1\]: names 2 sites \(site_\w+, site_\w+\), which share this name: give the site's id$/,
      );
      const file = path.join(box.dir, "shared-name.yml");
      writeFileSync(file, `accept:\n  - cve: ${cve}\n    sites: [Shop]\n    reason: not_used\n    justification: x\n    expires: ${UNTIL}\n`);
      const run = await runCli(["vulns", "apply", "--policy", file], { env: box.env });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`^error: --policy ${file}: accept\\[0\\]\\.sites\\[0\\]: names 2 sites`));
      for (const site of [sites.Shop!, marketing]) expect((await recordOf(site)).status).toBe("open");
    } finally {
      await client.sites.update(marketing.id, { name: "Marketing" });
    }
  });
});

describe("the [siteops-policy] marker: only the policy's own dismissals are reopened", () => {
  it("siteops vulns update refuses a comment with the marker (exit 2), and changes nothing", async () => {
    const record = await recordOf(sites.Blog!);
    for (const comment of ["[siteops-policy] accepted by the WAF", " [siteops-policy:web#0123456789abcdef] x"]) {
      const run = await runCli(["vulns", "update", record.id, "--site", "Blog", "--status", "ignored", "--reason", "not_used", "--comment", comment], {
        env: box.env,
      });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain("--comment: [siteops-policy...] marks the dismissals siteops vulns apply makes");
    }
    expect((await recordOf(sites.Blog!)).status).toBe("open");
  });

  it("a person's dismissal with the marker typed, a seal guessed or copied, or a policy's dismissal a person changed, is never reopened", async () => {
    for (const site of Object.values(sites)) {
      const r = await recordOf(site);
      if (r.status !== "open") await client.vulnerabilityRecords.update(site.id, r.id, { status: "open" });
    }
    // The policy dismisses the CVE on Blog and Shop.
    const first = await applyVulnerabilityPolicy(client, policy([acceptance({ sites: ["Blog", "Shop"] })]), await listSites());
    expect(first.results.map((r) => [r.action, r.site.name, r.error]).sort()).toEqual([
      ["dismiss", "Blog", undefined],
      ["dismiss", "Shop", undefined],
    ]);
    const sealed = (await recordOf(sites.Blog!)).dismissed_comment!;
    expect(sealed).toMatch(/^\[siteops-policy[^\]]*\] behind the WAF \(accepted until /);
    // A person, through the API (as the console would): the marker typed and a seal copied from Blog's dismissal
    // on Marketing's record; another open record of Blog dismissed with the plain marker.
    const marketing = await recordOf(sites.Marketing!);
    await client.vulnerabilityRecords.update(sites.Marketing!.id, marketing.id, {
      status: "ignored",
      dismissed_reason: "tolerable_risk",
      dismissed_comment: sealed,
    });
    const other = (await client.vulnerabilityRecords.list(sites.Blog!.id).toArray()).find((r) => r.status === "open")!;
    await client.vulnerabilityRecords.update(sites.Blog!.id, other.id, {
      status: "ignored",
      dismissed_reason: "not_used",
      dismissed_comment: "[siteops-policy] the plugin is off",
    });
    // A person changes the reason of the policy's dismissal on Shop: it is theirs now.
    const shop = await recordOf(sites.Shop!);
    await client.vulnerabilityRecords.update(sites.Shop!.id, shop.id, { status: "ignored", dismissed_reason: "fix_started" });

    // The acceptance is removed from the file: only the policy's own, untouched dismissal (Blog's) is reopened.
    const second = await applyVulnerabilityPolicy(client, policy([]), await listSites());
    expect(second.results.map((r) => [r.action, r.site.name, r.record.id])).toEqual([["reopen", "Blog", (await recordOf(sites.Blog!)).id]]);
    expect((await recordOf(sites.Blog!)).status).toBe("open");
    expect((await recordOf(sites.Blog!, other.id)).status).toBe("ignored");
    expect((await recordOf(sites.Marketing!)).status).toBe("ignored");
    expect((await recordOf(sites.Shop!)).status).toBe("ignored");
  });
});
