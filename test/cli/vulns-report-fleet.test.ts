// `siteops vulns report` at 300 sites (issue 49 item 6): what a person reads is one line per advisory, the worst
// first, with the number of its sites and the sites folded (Markdown: `<details>`), not one row per site per advisory
// (the same WooCommerce advisory 300 times); `--json` keeps one row per record, the one record every surface gives;
// `--fail-on High` takes its severity in any case (issue 49 item 4).
import { describe, expect, it } from "vitest";
import { mapPool } from "../../src/fleet.js";
import { json, runCli, useTestBed } from "./helpers.js";

const bed = useTestBed();
const cli = (...args: string[]) => runCli(args, { env: bed.env, cwd: bed.box.dir, timeoutMs: 120_000 });
const SITES = 300;

interface Row {
  site_id: string;
  record_id: string;
  advisory: string;
  software_type: string;
  software_slug: string;
  severity: string;
  suppressed: boolean;
}

describe("vulns report over 300 sites on the same old WordPress", () => {
  it("one line per advisory with its 300 sites folded, worst first, in the table and in Markdown; JSON one row per record", async () => {
    // The seeded account's two sites go: the fleet is the 300 alike.
    for (const site of await bed.emu.so.sites.list().toArray()) await bed.emu.so.sites.delete(site.id);
    await mapPool(
      Array.from({ length: SITES }, (_, i) => i + 1),
      8,
      (i) =>
        bed.emu.so.sites.create({
          name: `Client ${String(i).padStart(3, "0")}`,
          url: `https://client-${i}.example.com`,
          wp_version: "6.3",
          php_version: "8.1",
        }),
    );
    const rows = json<Row[]>(await cli("vulns", "report", "--all", "--json"));
    const advisories = new Set(rows.map((r) => `${r.advisory}/${r.software_type}/${r.software_slug}`));
    expect(rows.length).toBe(advisories.size * SITES);
    expect(advisories.size).toBeGreaterThan(3);
    expect(rows.some((r) => r.software_slug === "woocommerce")).toBe(true);

    const table = await cli("vulns", "report", "--all", "--fail-on", "High");
    expect(table.code).toBe(1);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(advisories.size);
    for (const line of lines) expect(line.split("\t")[5]).toMatch(/^300: Client 001, Client 002, Client 003, \+297$/);
    const rank = ["low", "medium", "high", "critical"];
    const ranks = lines.map((l) => rank.indexOf(l.split("\t")[0]!));
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    expect(table.stderr).toMatch(new RegExp(`^${rows.length} open vulnerability records on 300 of 300 sites \\(`, "m"));

    const markdown = (await cli("vulns", "report", "--all", "--format", "markdown")).stdout;
    const tableRows = markdown.split("\n").filter((l) => /^\| (critical|high|medium|low|unknown)/.test(l));
    expect(tableRows).toHaveLength(advisories.size);
    for (const row of tableRows)
      expect(row).toMatch(/\| <details><summary>300 sites<\/summary>Client 001 [\d.]+, Client 002 [\d.]+, .*, and 200 more<\/details> \|$/);
    expect(markdown).toContain(`### Open (${advisories.size} advisories)`);
    expect(markdown).toContain("WooCommerce (plugin)");
    expect(markdown.length).toBeLessThan(60_000);
  });
});
