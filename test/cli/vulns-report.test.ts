// `siteops vulns report` through bin/siteops.js against the emulator: the fleet's open records worst first (the
// JSON one row per record, grouped by software; the table one line per advisory), --fail-on's exit code while a high record is open and after every one is dismissed (through
// `vulns update`), the dismissed ones shown apart, --min-severity, --out, Markdown, and the flags refused at once.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { json, runCli, useTestBed } from "./helpers.js";

const bed = useTestBed();
const cli = (...args: string[]) => runCli(args, { env: bed.env, cwd: bed.box.dir });

const RANK = ["low", "medium", "high", "critical"];

interface Row {
  site_id: string;
  site_name: string;
  record_id: string;
  status: string;
  suppressed: boolean;
  severity: string;
  cvss_score: number | null;
  cve: string | null;
  advisory: string;
  software_type: string;
  software_slug: string;
  installed_version: string;
  fixed_in: string | null;
  dismissed_reason: string | null;
  dismissed_comment: string | null;
  fingerprint: string;
}

describe("siteops vulns report", () => {
  it("lists every open record worst first with the version that fixes it: JSON a row per record grouped by software, the table a line per advisory", async () => {
    await bed.emu.so.sites.create({ name: "Old", url: "https://old.acme.test", wp_version: "6.1" });
    const result = await cli("vulns", "report", "--all", "--json");
    expect(result.code).toBe(0);
    const rows = json<Row[]>(result);
    // The same records `vulns list` shows open, no more, no fewer.
    const listed = json<{ id: string }[]>(await cli("vulns", "list", "--all", "--status", "open", "--json"));
    expect(rows.map((r) => r.record_id).sort()).toEqual(listed.map((r) => r.id).sort());
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.every((r) => r.status === "open" && !r.suppressed && r.fixed_in)).toBe(true);
    // Grouped: each software's rows are together; groups ordered by their worst row; worst first inside a group.
    const groups: string[] = [];
    for (const r of rows) if (groups.at(-1) !== `${r.software_type}/${r.software_slug}`) groups.push(`${r.software_type}/${r.software_slug}`);
    expect(new Set(groups).size).toBe(groups.length);
    const worstOf = groups.map((g) => Math.max(...rows.filter((r) => `${r.software_type}/${r.software_slug}` === g).map((r) => RANK.indexOf(r.severity))));
    expect(worstOf).toEqual([...worstOf].sort((a, b) => b - a));
    for (const g of groups) {
      const ranks = rows.filter((r) => `${r.software_type}/${r.software_slug}` === g).map((r) => RANK.indexOf(r.severity));
      expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    }
    expect(result.stderr).toMatch(/^\d+ open vulnerability records on \d+ of 3 sites \(/m);

    // Tab-separated when piped, one line per advisory (its sites folded), the worst first: severity, CVSS,
    // advisory, software, fixed in, sites, status, title.
    const tsv = await cli("vulns", "report", "--all");
    const lines = tsv.stdout
      .trimEnd()
      .split("\n")
      .map((l) => l.split("\t"));
    const advisories = new Map<string, Row[]>();
    for (const r of rows) advisories.set(r.cve ?? r.advisory, [...(advisories.get(r.cve ?? r.advisory) ?? []), r]);
    expect(lines.map((l) => l[2]).sort()).toEqual([...advisories.keys()].sort());
    for (const [severity, , advisory, software, , sites, status] of lines) {
      const of = advisories.get(advisory!)!;
      expect(severity).toBe(of[0]!.severity);
      expect(software).toBe(of[0]!.software_slug);
      expect(sites).toMatch(new RegExp(`^${of.length}: `));
      expect(status).toBe("open");
    }
    const ranks = lines.map((l) => RANK.indexOf(l[0]!));
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    expect(lines[0]![0]).toBe(rows[0]!.severity);
  });

  it("--fail-on high exits 1 while a high or critical record is open, and 0 once each is dismissed", async () => {
    const failing = await cli("vulns", "report", "--all", "--fail-on", "high", "--json=record_id,site_name,severity");
    expect(failing.code).toBe(1);
    const high = json<{ record_id: string; site_name: string; severity: string }[]>(failing).filter((r) => RANK.indexOf(r.severity) >= 2);
    expect(high.length).toBeGreaterThan(0);
    // The core's line, as the action fails its step with it: the count, the option, and the worst record named.
    expect(failing.stderr).toContain(
      `error: ${high.length} open vulnerability record${high.length === 1 ? "" : "s"} at or above high (--fail-on high); the worst: `,
    );
    // --min-severity critical leaves the rest out; --fail-on critical still fails when a critical one is open.
    const critical = await cli("vulns", "report", "--all", "--min-severity", "critical", "--fail-on", "critical", "--json=severity");
    expect(new Set(json<{ severity: string }[]>(critical).map((r) => r.severity))).toEqual(
      new Set(high.some((r) => r.severity === "critical") ? ["critical"] : []),
    );

    for (const r of high) {
      const dismissed = await cli(
        "vulns",
        "update",
        r.record_id,
        "--site",
        r.site_name,
        "--status",
        "ignored",
        "--reason",
        "tolerable_risk",
        "--comment",
        "behind the WAF",
      );
      expect(dismissed.code).toBe(0);
    }
    const passing = await cli("vulns", "report", "--all", "--fail-on", "high", "--json");
    expect(passing.code).toBe(0);
    const rows = json<Row[]>(passing);
    expect(rows.filter((r) => !r.suppressed).every((r) => RANK.indexOf(r.severity) < 2)).toBe(true);
    // The dismissed ones are still in the report, after the open ones, as suppressed with the reason and comment.
    const suppressed = rows.filter((r) => r.suppressed);
    expect(suppressed.map((r) => r.record_id).sort()).toEqual(high.map((r) => r.record_id).sort());
    expect(rows.slice(-suppressed.length).every((r) => r.suppressed)).toBe(true);
    expect(suppressed.every((r) => r.status === "ignored" && r.dismissed_reason === "tolerable_risk" && r.dismissed_comment === "behind the WAF")).toBe(true);

    const markdown = await cli("vulns", "report", "--all", "--format", "markdown", "--fail-on", "high");
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toMatch(/^## Vulnerability report\n\n\d+ open vulnerability records? on \d+ of 3 sites/);
    expect(markdown.stdout).toContain("Passes: no open record at or above high.");
    // One line per advisory: the dismissed ones folded by advisory and software, as the open ones are.
    const folded = new Set(suppressed.map((r) => `${r.advisory}/${r.software_type}/${r.software_slug}`)).size;
    expect(markdown.stdout).toContain(`### Dismissed (${folded} advisor${folded === 1 ? "y" : "ies"})`);
    expect(markdown.stdout).toContain("| tolerable\\_risk | behind the WAF |");
  });

  it("--out writes the report to a file of the owner's only, and stdout stays empty", async () => {
    const file = path.join(bed.box.dir, "report.json");
    const result = await cli("vulns", "report", "--site", "Old", "--format", "json", "--out", file);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/on 1 of 1 site .*; written to .*report\.json\n$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((JSON.parse(readFileSync(file, "utf8")) as Row[]).every((r) => r.site_name === "Old")).toBe(true);
  });

  it("refuses contradicting or unknown flags at once, naming them (exit 2)", async () => {
    const cases: [string[], RegExp][] = [
      [["--all", "--fail-on", "medium", "--min-severity", "high"], /--fail-on medium is below --min-severity high/],
      [["--all", "--declarations", "."], /--declarations goes with --format sarif/],
      [["--all", "--format", "xml"], /--format/],
      [["--all", "--fail-on", "severe"], /--fail-on/],
      [
        ["--all", "--format", "sarif", "--declarations", "no-such-dir"],
        /--declarations "no-such-dir" is not a directory \(relative paths start at the current directory\)/,
      ],
      [["--all", "--format", "sarif", "--declarations", "/"], /--declarations "\/" is outside the current directory/],
      [["--all", "--json", "--format", "markdown"], /--json prints JSON/],
      [[], /which sites\?/],
    ];
    for (const [args, message] of cases) {
      const result = await cli("vulns", "report", ...args);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr).toMatch(message);
    }
  });
});
