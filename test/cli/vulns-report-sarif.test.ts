// `siteops vulns report --format sarif` through bin/siteops.js against the emulator, every file it writes checked
// by Microsoft's SARIF Multitool against the SARIF 2.1.0 schema and GitHub code scanning's ingestion rules (no
// error): a rule per advisory with its security-severity, a result per site and record, the same fingerprints in a
// rerun, dismissed records suppressed with their reason, a site that cannot be read named in the run (exit 1), and
// locations at the line that declares each site in a .tf file `siteops export terraform` wrote (both forms), a CDK
// Terrain app `siteops export cdktn` wrote, and files written by hand.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { markdownText } from "../../src/operations/markdown-text.js";
import { json, runCli, useTestBed } from "./helpers.js";
import { multitoolUnavailable, sarifErrors, validateSarif } from "./vulns-report-multitool.js";

const bed = useTestBed();
const cli = (...args: string[]) => runCli(args, { env: bed.env, cwd: bed.box.dir });
const unavailable = multitoolUnavailable();

interface Result {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: {
    physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn?: number; endColumn?: number } };
    logicalLocations: { fullyQualifiedName: string }[];
  }[];
  partialFingerprints: Record<string, string>;
  suppressions?: { kind: string; status: string; justification: string }[];
  properties: { siteId: string; recordId: string };
}
interface Rule {
  id: string;
  fullDescription: { text: string };
  help: { text: string; markdown: string };
  properties: { "security-severity"?: string; tags: string[] };
}
interface Log {
  $schema: string;
  version: string;
  runs: { tool: { driver: { rules: Rule[] } }; results: Result[]; properties: Record<string, unknown> }[];
}

const read = (file: string) => JSON.parse(readFileSync(path.join(bed.box.dir, file), "utf8")) as Log;

/** Writes the SARIF of `args` to `file` (relative to the sandbox) and expects the Multitool to find no error. */
async function sarif(file: string, ...args: string[]): Promise<Log> {
  const result = await cli("vulns", "report", "--all", "--format", "sarif", "--out", file, ...args);
  expect(result.stderr).not.toMatch(/^error/m);
  expect(result.code).toBe(0);
  expect(sarifErrors(path.join(bed.box.dir, file))).toEqual([]);
  return read(file);
}

let sites: { id: string; name: string; url: string }[] = [];

describe.skipIf(unavailable !== null)(`siteops vulns report --format sarif${unavailable ? ` (skipped: ${unavailable})` : ""}`, () => {
  beforeAll(async () => {
    await bed.emu.so.sites.create({ name: "Old", url: "https://old.acme.test/", wp_version: "6.1" });
    await bed.emu.so.sites.create({ name: "Legacy", url: "https://legacy.acme.test", wp_version: "6.2" });
    sites = json<{ id: string; name: string; url: string }[]>(await cli("sites", "list", "--json=id,name,url"));
    // One dismissed record: a suppressed result.
    const open = json<{ id: string }[]>(await cli("vulns", "list", "--site", "Old", "--status", "open", "--json=id"));
    const dismissed = await cli("vulns", "update", open[0]!.id, "--site", "Old", "--status", "ignored", "--reason", "not_used", "--comment", "plugin off");
    expect(dismissed.code).toBe(0);
  });

  it("passes the SARIF and GitHub rules; one rule per advisory, one result per site and record; a rerun has the same fingerprints", async () => {
    const first = await sarif("first.sarif");
    const second = await sarif("second.sarif");
    expect(first.$schema).toBe("https://json.schemastore.org/sarif-2.1.0.json");
    expect(first.version).toBe("2.1.0");
    const run = first.runs[0]!;

    const records = json<{ id: string; site_id: string; cve: string | null; status: string; cvss: { score: number } | null }[]>(
      await cli("vulns", "list", "--all", "--json"),
    );
    const reported = records.filter((r) => r.status !== "fixed");
    expect(run.results.map((r) => `${r.properties.siteId}/${r.properties.recordId}`).sort()).toEqual(reported.map((r) => `${r.site_id}/${r.id}`).sort());
    // One rule per advisory, each result pointing at its own, the rule's security-severity the CVSS score.
    expect(run.tool.driver.rules.map((r) => r.id).sort()).toEqual([...new Set(reported.map((r) => r.cve!))].sort());
    for (const result of run.results) {
      const rule = run.tool.driver.rules[result.ruleIndex]!;
      expect(rule.id).toBe(result.ruleId);
      const record = reported.find((r) => r.id === result.properties.recordId)!;
      expect(rule.properties["security-severity"]).toBe(record.cvss!.score.toFixed(1));
      expect(rule.properties.tags).toContain("security");
      // The description, escaped as the Markdown report escapes service text.
      expect(rule.help.markdown).toContain(markdownText(rule.fullDescription.text));
    }
    // Without --declarations: a stable stand-in per site, and its logical location.
    for (const result of run.results) {
      expect(result.locations[0]!.physicalLocation.artifactLocation.uri).toBe(`siteops/sites/${result.properties.siteId}`);
      expect(result.locations[0]!.logicalLocations[0]!.fullyQualifiedName).toBe(`sites/${result.properties.siteId}`);
    }
    // The rerun: the same results with the same fingerprints, none shared by two results.
    const prints = (log: Log) => log.runs[0]!.results.map((r) => `${r.properties.recordId} ${r.partialFingerprints["siteopsFinding/v1"]}`).sort();
    expect(prints(second)).toEqual(prints(first));
    expect(new Set(run.results.map((r) => r.partialFingerprints["siteopsFinding/v1"])).size).toBe(run.results.length);
    // The dismissed record is suppressed, its reason and comment the justification; the open ones are not.
    const suppressed = run.results.filter((r) => r.suppressions);
    expect(suppressed).toHaveLength(1);
    expect(suppressed[0]!.suppressions).toEqual([{ kind: "external", status: "accepted", justification: "not_used: plugin off" }]);
  });

  it("a site whose records cannot be read: one error line, exit 1, the others still reported, the run marked unsuccessful", async () => {
    const old = sites.find((s) => s.name === "Old")!;
    await bed.emu.control("POST", "faults", { rules: [{ method: "GET", path: `/api/v1/sites/${old.id}/vulnerability_records`, status: 404 }] });
    try {
      const result = await cli("vulns", "report", "--all", "--format", "sarif", "--out", "partial.sarif");
      expect(result.code).toBe(1);
      expect(result.stderr.split("\n").filter((l) => l.startsWith("error:"))).toEqual([
        expect.stringMatching(new RegExp(`^error: Old \\(${old.id}\\): .*404`)),
      ]);
      expect(sarifErrors(path.join(bed.box.dir, "partial.sarif"))).toEqual([]);
      const log = read("partial.sarif") as Log & {
        runs: { invocations: { executionSuccessful: boolean; toolExecutionNotifications: { message: { text: string } }[] }[] }[];
      };
      const run = log.runs[0]!;
      expect(run.invocations[0]!.executionSuccessful).toBe(false);
      expect(run.invocations[0]!.toolExecutionNotifications.map((n) => n.message.text)).toEqual([expect.stringContaining(`Old (${old.id})`)]);
      const reportedSites = new Set(run.results.map((r) => r.properties.siteId));
      expect(reportedSites.has(old.id)).toBe(false);
      expect(reportedSites.size).toBeGreaterThan(0);
    } finally {
      await bed.emu.control("DELETE", "faults");
    }
  });

  it("the check can fail: a result without locations is a GitHub ingestion error", async () => {
    const log = read("first.sarif");
    delete (log.runs[0]!.results[0] as Partial<Result>).locations;
    writeFileSync(path.join(bed.box.dir, "broken.sarif"), JSON.stringify(log));
    expect(validateSarif(path.join(bed.box.dir, "broken.sarif")).map((f) => `${f.level} ${f.ruleId}`)).toContain("error GH1015");
  });

  it("locates each result at the url line of the .tf file siteops export terraform wrote, map and blocks forms", async () => {
    for (const [dir, form] of [
      ["infra-map", "map"],
      ["infra-blocks", "blocks"],
    ] as const) {
      const exported = await cli("export", "terraform", "--form", form, "--out", `${dir}/main.tf`);
      expect(exported.code).toBe(0);
      const log = await sarif(`${dir}.sarif`, "--declarations", dir);
      const lines = readFileSync(path.join(bed.box.dir, dir, "main.tf"), "utf8").split("\n");
      for (const result of log.runs[0]!.results) {
        const site = sites.find((s) => s.id === result.properties.siteId)!;
        const { artifactLocation, region } = result.locations[0]!.physicalLocation;
        expect(artifactLocation.uri).toBe(`${dir}/main.tf`);
        const line = lines[region.startLine - 1]!;
        expect(line).toMatch(new RegExp(`^\\s*url\\s*=\\s*"${site.url.replace(/[./]/g, "\\$&")}"$`));
        expect(line.slice(region.startColumn! - 1, region.endColumn! - 1)).toBe(JSON.stringify(site.url));
        // In the site's own resource (blocks) or entry (map): the nearest id or resource line above names it.
        const above = lines.slice(0, region.startLine - 1).reverse();
        const owner = above.find((l) => /^\s*id\s*=|^resource "siteops_site"/.test(l))!;
        if (form === "map") expect(owner).toContain(site.id);
        else expect(owner).toMatch(/^resource "siteops_site" "/);
      }
    }
  });

  it("locates each result in a CDK Terrain app siteops export cdktn wrote, and in files written by hand", async () => {
    expect((await cli("export", "cdktn", "--out", "cdk/main.ts")).code).toBe(0);
    const log = await sarif("cdk.sarif", "--declarations", "cdk");
    const lines = readFileSync(path.join(bed.box.dir, "cdk", "main.ts"), "utf8").split("\n");
    for (const result of log.runs[0]!.results) {
      const site = sites.find((s) => s.id === result.properties.siteId)!;
      const { artifactLocation, region } = result.locations[0]!.physicalLocation;
      expect(artifactLocation.uri).toBe("cdk/main.ts");
      expect(lines[region.startLine - 1]).toContain(`id: ${JSON.stringify(site.id)}`);
      expect(lines[region.startLine - 1]!.slice(region.startColumn! - 1, region.endColumn! - 1)).toBe(JSON.stringify(site.url));
    }

    // By hand: an HCL resource whose URL is spelled otherwise (host case, a trailing slash), a data source naming a
    // site by id only, and a CDK list in TypeScript with single quotes; node_modules is not read.
    const [blog, old, legacy] = ["Blog", "Old", "Legacy"].map((n) => sites.find((s) => s.name === n)!);
    mkdirSync(path.join(bed.box.dir, "hand", "stacks"), { recursive: true });
    mkdirSync(path.join(bed.box.dir, "hand", "node_modules", "x"), { recursive: true });
    writeFileSync(path.join(bed.box.dir, "hand", "node_modules", "x", "a.ts"), `export const u = "${old!.url}";\n`);
    const hcl = [
      'resource "siteops_site" "blog" {',
      '  name = "Blog"',
      `  url  = "${blog!.url.replace(/\/$/, "").replace("blog", "BLOG")}/"`,
      "}",
      "",
      'data "siteops_site" "legacy" {',
      `  id = "${legacy!.id}"`,
      "}",
      "",
    ];
    writeFileSync(path.join(bed.box.dir, "hand", "sites.tf"), hcl.join("\n"));
    const ts = ["export const sites = [", `  { key: "old", name: 'Old', url: '${old!.url}' },`, "];", ""];
    writeFileSync(path.join(bed.box.dir, "hand", "stacks", "sites.ts"), ts.join("\n"));
    const hand = await sarif("hand.sarif", "--declarations", "hand");
    const at = (site: { id: string }) => {
      const found = hand.runs[0]!.results.filter((r) => r.properties.siteId === site.id).map((r) => r.locations[0]!.physicalLocation);
      expect(found.length).toBeGreaterThan(0);
      expect(new Set(found.map((f) => JSON.stringify(f))).size).toBe(1);
      return found[0];
    };
    expect(at(blog!)).toEqual({ artifactLocation: { uri: "hand/sites.tf" }, region: { startLine: 3, startColumn: 10, endColumn: hcl[2]!.length + 1 } });
    expect(at(legacy!)).toMatchObject({ artifactLocation: { uri: "hand/sites.tf" }, region: { startLine: 7 } });
    const column = ts[1]!.indexOf(`'${old!.url}'`) + 1;
    expect(at(old!)).toEqual({
      artifactLocation: { uri: "hand/stacks/sites.ts" },
      region: { startLine: 2, startColumn: column, endColumn: column + old!.url.length + 2 },
    });
  });
});
