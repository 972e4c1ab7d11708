// Issue 48 item 4: the vulnerability SARIF carries no Markdown, control or bidi character of the service's own.
// GitHub code scanning renders `rule.help.markdown`: a record's description and software name must not become a
// link (`[Click to fix](https://evil.example/phish)`) or an image (a tracking pixel), `fixed_in` must not close
// its code span, and `message.text`, `logicalLocations[].name` and the other text fields hold no U+202E and no
// raw line break. The same escaping as the Markdown report (markdown-text.ts, one rule for both), and the file
// still passes the SARIF Multitool's SARIF and GitHub rules.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildVulnerabilityReport, vulnerabilityReportMarkdown, vulnerabilitySarif } from "../../src/fleet.js";
import type { Site, VulnerabilityRecord } from "../../src/index.js";
import { multitoolUnavailable, sarifErrors } from "../cli/vulns-report-multitool.js";
import { removeDir, tempDir } from "../support/temp.js";

const PHISH = "[Click to fix](https://evil.example/phish)";
const PIXEL = "![pixel](https://evil.example/p.png)";
const RLO = "\u202e";

const site = { id: "site_evil", name: `Shop${RLO}gpj.exe\n::warning::forged`, url: "https://shop.example.com" } as Site;
const record = {
  id: "vuln_1",
  site_id: site.id,
  title: `SQL injection ${PHISH}`,
  description: `Update now: ${PHISH} ${PIXEL} <img src=x onerror=alert(1)> @octocat\n\n# heading`,
  software: { type: "core", slug: "wordpress", name: `WordPress ${PIXEL}`, installed_version: "6.4" },
  fixed_in: "6.4.3` [x](https://evil.example/code) `",
  cve: "CVE-2024-47890",
  cvss: { score: 8.8, vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", rating: "high" },
  severity: "high",
  status: "open",
  dismissed_reason: null,
  dismissed_comment: null,
  detected_at: "2026-11-01T00:00:00Z",
  fixed_at: null,
  updated_at: "2026-11-01T00:00:00Z",
} as VulnerabilityRecord;
const dismissed = {
  ...record,
  id: "vuln_2",
  cve: "CVE-2024-47891",
  status: "ignored",
  dismissed_reason: "not_used",
  dismissed_comment: `off${RLO}\n${PHISH}`,
} as VulnerabilityRecord;

interface Log {
  runs: {
    tool: { driver: { rules: { shortDescription: { text: string }; fullDescription: { text: string }; help: { text: string; markdown: string } }[] } };
    results: { message: { text: string }; locations: { logicalLocations: { name: string }[] }[]; suppressions?: { justification: string }[] }[];
  }[];
}

const report = buildVulnerabilityReport([{ site, records: [record, dismissed], error: null }]);
const text = vulnerabilitySarif(report, { toolVersion: "1.0.0" }).text;
const log = JSON.parse(text) as Log;
const run = log.runs[0]!;
const dir = tempDir("sarif-escaping");
afterAll(() => removeDir(dir));
const unavailable = multitoolUnavailable();

describe("the vulnerability SARIF: service text made inert", () => {
  it("help.markdown: no link, image, HTML or mention of the service's, and fixed_in stays in its code span", () => {
    for (const rule of run.tool.driver.rules) {
      const md = rule.help.markdown;
      // Outside code spans (inside one, a link is text).
      const prose = md.replace(/`[^`]*`/g, "");
      expect(prose).not.toContain("](https://evil.example");
      expect(prose).not.toContain("![");
      expect(prose).not.toContain("<img");
      expect(md).not.toContain("@octocat");
      expect(md).not.toMatch(/^#/m);
      expect(md).toContain("\\[Click to fix\\](https\\://evil.example/phish)");
      // The command's code span holds the whole version: no backtick of the service's closes it.
      const span = /`siteops upgrade open --site SITE --wp ([^`]*)`/.exec(md);
      expect(span?.[1]).toBe("6.4.3' [x](https://evil.example/code) '");
      // The same escaping as the Markdown report: the title reads the same in both.
      const title = "SQL injection \\[Click to fix\\](https\\://evil.example/phish)";
      expect(vulnerabilityReportMarkdown(report)).toContain(title);
    }
  });

  it("text fields: one line each, no bidi override or control character, message links escaped", () => {
    const texts = [
      ...run.tool.driver.rules.flatMap((r) => [r.shortDescription.text, r.fullDescription.text, r.help.text, r.help.markdown]),
      ...run.results.flatMap((r) => [
        r.message.text,
        ...r.locations.flatMap((l) => l.logicalLocations.map((x) => x.name)),
        ...(r.suppressions ?? []).map((s) => s.justification),
      ]),
    ];
    for (const t of texts) {
      expect(t).not.toContain(RLO);
      expect(t).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/);
    }
    for (const r of run.results) {
      expect(r.message.text).not.toContain("\n");
      expect(r.message.text).toContain("\\u202e");
      expect(r.message.text).not.toMatch(/(^|[^\\])\[[^\]]*(^|[^\\])\]\(/);
      for (const l of r.locations.flatMap((x) => x.logicalLocations)) expect(l.name).toBe("Shop\\u202egpj.exe ::warning::forged");
    }
    expect(run.results.find((r) => r.suppressions)!.suppressions![0]!.justification).toBe(`not_used: off\\u202e ${PHISH}`);
  });

  it.skipIf(unavailable !== null)(`still passes the SARIF Multitool's SARIF and GitHub rules${unavailable ? ` (skipped: ${unavailable})` : ""}`, () => {
    const file = path.join(dir, "hostile.sarif");
    writeFileSync(file, text);
    expect(sarifErrors(file)).toEqual([]);
  });
});
