// `siteops vulns fix --core`: the built CLI against the emulator. Blog (WordPress 6.4) has open core records fixed
// in 6.5 to 6.8: one pipeline to 6.8, awaiting approval; Shop (6.9) has none: no pipeline; a second run opens no
// second pipeline beside the active one; --no-require-approval runs through, and the site's core records are then
// fixed. Plugins and themes are listed with the version that fixes them. (A target not above the site's version,
// which the emulator cannot produce, is planCoreFix's in test/core/vulnerability-policy.test.ts.)
import { describe, expect, it } from "vitest";
import { json, runCli, useTestBed } from "./helpers.js";

const bed = useTestBed();
const cli = (...args: string[]) => runCli(args, { env: bed.env });

interface Row {
  site: { id: string; name: string; wp_version: string };
  outcome: string;
  decision: string;
  target_wp_version: string | null;
  pipeline: { id: string; status: string } | null;
  fixes: { cve: string; fixed_in: string }[];
  extensions: { software: string; installed_version: string; fixed_in: string }[];
}

const byName = (rows: Row[]) => Object.fromEntries(rows.map((r) => [r.site.name, r]));
const pipelinesOf = async (siteId: string) => {
  const all = [];
  for await (const p of bed.emu.so.upgradePipelines.list(siteId)) all.push(p);
  return all;
};

describe("siteops vulns fix --core", () => {
  it("a dry run plans one pipeline to the lowest version fixing every open core record, and opens none", async () => {
    const run = await cli("vulns", "fix", "--core", "--all", "--dry-run", "--json");
    expect(run.code, run.stderr).toBe(0);
    const rows = byName(json<Row[]>(run));
    expect(rows.Blog).toMatchObject({ outcome: "planned", decision: "upgrade", target_wp_version: "6.8", pipeline: null });
    expect(rows.Blog!.fixes.map((f) => f.fixed_in).sort()).toEqual(["6.5", "6.6", "6.7", "6.8"]);
    expect(rows.Blog!.extensions.map((e) => `${e.software} ${e.installed_version} -> ${e.fixed_in}`).sort()).toEqual([
      "contact-form-7 5.7.7 -> 5.8.4",
      "elementor 3.16.4 -> 3.18.2",
      "twentytwentyfour 1.0 -> 1.1",
      "wordpress-seo 22.3 -> 22.6",
    ]);
    expect(rows.Shop).toMatchObject({ outcome: "none", decision: "no_core_records", target_wp_version: null });
    expect(run.stderr).toContain("would open 1 pipeline for 2 sites");
    expect(await pipelinesOf(rows.Blog!.site.id)).toEqual([]);
  });

  it("refused permission ends the run as refused (exit 3), as a refused read does, and opens nothing", async () => {
    // Issue 52: the report's collector threw a 401/403, the fix counted it a site failure (exit 1).
    await bed.emu.control("POST", "faults", { rules: [{ method: "POST", path: "/api/v1/sites/*/upgrade_pipelines", status: 403 }] });
    try {
      const run = await cli("vulns", "fix", "--core", "--all");
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).toMatch(/^error: Blog: .*403/m);
    } finally {
      await bed.emu.control("DELETE", "faults");
    }
    const blog = (await bed.emu.so.sites.list().toArray()).find((s) => s.name === "Blog")!;
    expect(await pipelinesOf(blog.id)).toEqual([]);
  });

  it("opens one pipeline per affected site, awaiting approval; none where nothing is open; plugins listed for WordPress", async () => {
    const run = await cli("vulns", "fix", "--core", "--all");
    expect(run.code, run.stderr).toBe(0);
    // Piped: tab-separated lines; the plugins and themes under their own heading.
    expect(run.stdout).toMatch(/^Blog\t6\.4 -> 6\.8\t4 fixed\topened upg_\w+ \(\w+\)$/m);
    expect(run.stdout).toMatch(/^Shop\t6\.9\t0 fixed\tno open core record$/m);
    expect(run.stdout).toContain("Plugins and themes (update them in WordPress: the service has no endpoint for it):");
    expect(run.stdout).toMatch(/^Blog\telementor 3\.16\.4\t3\.18\.2\thigh\tCVE-2023-48777$/m);
    expect(run.stderr).toContain("opened 1 pipeline for 2 sites; they await approval: siteops upgrade approve --site SITE");
    const blog = (await bed.emu.so.sites.list().then((p) => p.data)).find((s) => s.name === "Blog")!;
    const pipelines = await pipelinesOf(blog.id);
    expect(pipelines).toHaveLength(1);
    expect(pipelines[0]).toMatchObject({ to_wp_version: "6.8", requires_approval: true });
  });

  it("never opens a second pipeline beside an active one", async () => {
    const run = await cli("vulns", "fix", "--core", "--site", "Blog", "--json");
    expect(run.code, run.stderr).toBe(0);
    const [row] = json<Row[]>(run);
    const pipelines = await pipelinesOf(row!.site.id);
    expect(pipelines).toHaveLength(1);
    expect(row).toMatchObject({ outcome: "active", target_wp_version: "6.8", pipeline: { id: pipelines[0]!.id } });
    expect(run.stderr).toContain("opened 0 pipelines for 1 site; 1 already had one active");
  });

  it("--no-require-approval runs through; the core records it targets are then fixed", async () => {
    const old = await bed.emu.so.sites.create({ name: "Old", url: "https://old.acme.test", wp_version: "6.2", php_version: "8.1" });
    const run = await cli("vulns", "fix", "--core", "--site", "Old", "--no-require-approval", "--json");
    expect(run.code, run.stderr).toBe(0);
    const [row] = json<Row[]>(run);
    expect(row).toMatchObject({ outcome: "opened", target_wp_version: "6.8" });
    const pipeline = await bed.emu.so.upgradePipelines.get(old.id, row!.pipeline!.id);
    expect(pipeline).toMatchObject({ to_wp_version: "6.8", requires_approval: false });
    await bed.emu.advanceClock(3600);
    expect(await bed.emu.so.upgradePipelines.get(old.id, pipeline.id)).toMatchObject({ status: "succeeded" });
    const records = [];
    for await (const r of bed.emu.so.vulnerabilityRecords.list(old.id)) records.push(r);
    const fixedCves = new Set(row!.fixes.map((f) => f.cve));
    expect(records.filter((r) => fixedCves.has(r.cve!)).map((r) => r.status)).toEqual([...fixedCves].map(() => "fixed"));
  });

  it("refuses without --core, and without a selection (exit 2)", async () => {
    const bare = await cli("vulns", "fix", "--all");
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain(
      "give --core: WordPress core records are fixed through upgrade pipelines; the service has no endpoint to update plugins or themes",
    );
    const none = await cli("vulns", "fix", "--core");
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/which sites\?/);
  });
});
