// `siteops vulns report` against the emulator's `minimal` profile (pages of 5 without pagination headers, short
// ids, fields no client knows on every object, URLs stored normalised): every record is still read, nothing
// unknown leaks into the JSON or the SARIF, the SARIF still passes the Multitool, and a declaration spelled as
// the user wrote it (not as the service stores it) still locates the site.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { json, runCli, useTestBed } from "./helpers.js";
import { multitoolUnavailable, sarifErrors } from "./vulns-report-multitool.js";

const bed = useTestBed({ profile: "minimal" });
const cli = (...args: string[]) => runCli(args, { env: bed.env, cwd: bed.box.dir });
const unavailable = multitoolUnavailable();

describe.skipIf(unavailable !== null)(`siteops vulns report against the minimal profile${unavailable ? ` (skipped: ${unavailable})` : ""}`, () => {
  it("reads every page, keeps to the fields it knows, and locates a site declared with another spelling of its URL", async () => {
    const old = await bed.emu.so.sites.create({ name: "Old", url: "https://OLD.acme.test", wp_version: "5.9" });
    expect(old.url).not.toBe("https://OLD.acme.test");

    const rows = json<Record<string, unknown>[]>(await cli("vulns", "report", "--site", "Old", "--json"));
    // Read independently of the core's pagination: every page of 5 until a short one.
    const seen: { id: string; status: string }[] = [];
    for (let page = 1; ; page++) {
      const response = await fetch(`${bed.emu.url}/api/v1/sites/${old.id}/vulnerability_records?page=${page}`, {
        headers: { Authorization: `token ${bed.env.SITEOPS_API_TOKEN}` },
      });
      const items = (await response.json()) as { id: string; status: string }[];
      seen.push(...items);
      if (items.length < 5) break;
    }
    expect(seen.length).toBeGreaterThan(5);
    expect(rows.map((r) => r.record_id).sort()).toEqual(
      seen
        .filter((r) => r.status === "open")
        .map((r) => r.id)
        .sort(),
    );
    expect(rows.every((r) => !("tenant_region" in r) && !("links" in r))).toBe(true);

    mkdirSync(path.join(bed.box.dir, "infra"));
    writeFileSync(
      path.join(bed.box.dir, "infra", "old.tf"),
      ['resource "siteops_site" "old" {', '  name = "Old"', '  url  = "https://OLD.acme.test"', "}", ""].join("\n"),
    );
    const result = await cli("vulns", "report", "--site", "Old", "--format", "sarif", "--declarations", "infra", "--out", "old.sarif");
    expect(result.code).toBe(0);
    expect(sarifErrors(path.join(bed.box.dir, "old.sarif"))).toEqual([]);
    const text = readFileSync(path.join(bed.box.dir, "old.sarif"), "utf8");
    expect(text).not.toContain("tenant_region");
    const results = (JSON.parse(text) as { runs: { results: { locations: { physicalLocation: unknown }[] }[] }[] }).runs[0]!.results;
    expect(results).toHaveLength(rows.length);
    for (const r of results)
      expect(r.locations[0]!.physicalLocation).toEqual({ artifactLocation: { uri: "infra/old.tf" }, region: { startLine: 3, startColumn: 10, endColumn: 33 } });
  });
});
