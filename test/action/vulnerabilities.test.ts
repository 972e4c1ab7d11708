// `command: vulnerabilities` through the bundled action against the emulator: the open records of the selected
// sites as outputs (counts by severity, the records, the SARIF's path), the SARIF file code scanning takes, the
// job summary worst first with the advisories linked, 'fail-on' failing the step until the records at or above it
// are dismissed, the shards covering the fleet, and bad inputs refused at once naming the input.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { VulnerabilityRecord } from "../../src/index.js";
import { TOKEN, useActionEmulator } from "./fixture.js";
import { runAction } from "./run-action.js";

const fx = useActionEmulator();
const RANK = ["unknown", "low", "medium", "high", "critical"];

interface Row {
  site_id: string;
  record_id: string;
  severity: string;
  suppressed: boolean;
  cve: string | null;
}
interface Result {
  command: string;
  status: string;
  counts: Record<string, number>;
  failing: number;
  sites: number;
  sarif_file: string;
  records: Row[];
  failures: unknown[];
}

const run = (inputs: Record<string, string>) =>
  runAction({ "api-token": TOKEN, "base-url": fx.emu.url, command: "vulnerabilities", "sarif-file": path.join(fx.dir, "v.sarif"), ...inputs });

/** Every record of every site of the account, as the service lists them. */
async function allRecords(): Promise<{ siteId: string; record: VulnerabilityRecord }[]> {
  const all: { siteId: string; record: VulnerabilityRecord }[] = [];
  for await (const site of fx.client.sites.list({ per_page: 100 })) {
    for await (const record of fx.client.vulnerabilityRecords.list(site.id, { per_page: 100 })) all.push({ siteId: site.id, record });
  }
  return all;
}

describe("command: vulnerabilities", () => {
  it("reports the open records worst first as outputs, a SARIF file and the job summary; fail-on high fails until they are dismissed", async () => {
    const records = await allRecords();
    const open = records.filter((r) => r.record.status === "open");
    const high = open.filter((r) => ["high", "critical"].includes(String(r.record.severity)));
    expect(high.length).toBeGreaterThan(0);

    const failing = await run({ site: "all", "fail-on": "high" });
    expect(failing.code).toBe(1);
    const result = JSON.parse(failing.outputs.result!) as Result;
    expect(result.status).toBe("failed");
    expect(failing.outputs.status).toBe("failed");
    // The records the service lists open, no more and no fewer; open before dismissed, worst first.
    expect(
      result.records
        .filter((r) => !r.suppressed)
        .map((r) => r.record_id)
        .sort(),
    ).toEqual(open.map((r) => r.record.id).sort());
    const ranks = result.records.filter((r) => !r.suppressed).map((r) => RANK.indexOf(r.severity));
    expect(ranks[0]).toBe(Math.max(...ranks));
    const counts = JSON.parse(failing.outputs.counts!) as Record<string, number>;
    expect(counts).toEqual(result.counts);
    expect(counts.high! + counts.critical!).toBe(high.length);
    expect(result.failing).toBe(high.length);
    expect(failing.errors.at(-1)).toMatch(new RegExp(`^${high.length} open vulnerability records? at or above high \\('fail-on'\\); the worst: `));

    // The SARIF: where the output says, one result per record, the schema code scanning asks for.
    expect(failing.outputs["sarif-file"]).toBe(path.join(fx.dir, "v.sarif"));
    const sarif = JSON.parse(readFileSync(failing.outputs["sarif-file"]!, "utf8")) as { $schema: string; runs: { results: unknown[] }[] };
    expect(sarif.$schema).toMatch(/sarif-2\.1\.0/);
    expect(sarif.runs[0]!.results).toHaveLength(result.records.length);

    // The summary: the report's tables, worst first, each CVE linked to its record.
    expect(failing.summary).toContain("## Site Operations vulnerability report");
    const cve = result.records.find((r) => r.cve)?.cve;
    if (cve) expect(failing.summary).toContain(`[${cve.toUpperCase()}](https://www.cve.org/CVERecord?id=${cve.toUpperCase()})`);
    expect(failing.summary).toContain(`**Fails:** ${high.length} open record`);

    // Dismissed, they no longer fail the step and are listed apart (suppressed in the SARIF).
    for (const { siteId, record } of high) {
      await fx.client.vulnerabilityRecords.update(siteId, record.id, { status: "ignored", dismissed_reason: "tolerable_risk", dismissed_comment: "accepted" });
    }
    const passing = await run({ site: "all", "fail-on": "high" });
    expect([passing.code, passing.errors, passing.outputs.status]).toEqual([0, [], "passed"]);
    const after = JSON.parse(passing.outputs.result!) as Result;
    expect(after.failing).toBe(0);
    expect(after.records.filter((r) => r.suppressed).map((r) => r.record_id)).toEqual(expect.arrayContaining(high.map((r) => r.record.id)));
    expect(passing.summary).toContain("Passes: no open record at or above high.");
    for (const { siteId, record } of high) await fx.client.vulnerabilityRecords.update(siteId, record.id, { status: "open" });
  });

  it("min-severity leaves out the lower records; without fail-on the step passes", async () => {
    const r = await run({ site: "all", "min-severity": "critical" });
    expect([r.code, r.outputs.status]).toEqual([0, "passed"]);
    const result = JSON.parse(r.outputs.result!) as Result;
    expect(result.records.every((row) => row.severity === "critical")).toBe(true);
    expect(JSON.parse(r.outputs.counts!)).toMatchObject({ high: 0, medium: 0, low: 0 });
  });

  it("two shards of all report every site's records once, as one run does", async () => {
    const whole = JSON.parse((await run({ site: "all" })).outputs.result!) as Result;
    const parts = await Promise.all(["1/2", "2/2"].map((shard) => run({ site: "all", shard, "sarif-file": path.join(fx.dir, `v-${shard[0]}.sarif`) })));
    const ids = parts.flatMap((p) => (JSON.parse(p.outputs.result!) as Result).records.map((r) => r.record_id));
    expect(ids.sort()).toEqual(whole.records.map((r) => r.record_id).sort());
    expect(parts.map((p) => (JSON.parse(p.outputs.result!) as Result).sites).reduce((a, b) => a + b)).toBe(whole.sites);
  });

  it("policy-file: the accepted risks are dismissed before the report, so fail-on passes; reopened when they expire", async () => {
    const high = (await allRecords()).filter((r) => r.record.status === "open" && ["high", "critical"].includes(String(r.record.severity)));
    const cves = [...new Set(high.map((r) => r.record.cve).filter((c): c is string => typeof c === "string"))];
    expect(cves.length).toBeGreaterThan(0);
    const policy = (expires: string) =>
      [
        "accept:",
        ...cves.map(
          (cve) => `  - cve: ${cve}\n    reason: tolerable_risk\n    justification: behind the WAF until the upgrade window\n    expires: ${expires}`,
        ),
      ].join("\n");
    const file = path.join(fx.dir, "accepted.yml");
    writeFileSync(file, policy(new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10)));
    const r = await run({ site: "all", "fail-on": "high", "policy-file": file });
    expect([r.code, r.errors, r.outputs.status]).toEqual([0, [], "passed"]);
    expect(r.stdout).toContain(`Policy ${file}: dismissed ${high.length}, updated 0, reopened 0 records of 8 sites (0 unchanged)`);
    for (const { siteId, record } of high) {
      const now = await fx.client.vulnerabilityRecords.get(siteId, record.id);
      expect([now.status, now.dismissed_reason]).toEqual(["ignored", "tolerable_risk"]);
    }
    // Expired, the same file reopens what it dismissed, and fail-on fails again.
    writeFileSync(file, policy("2020-01-01"));
    const expired = await run({ site: "all", "fail-on": "high", "policy-file": file });
    expect(expired.code).toBe(1);
    expect(expired.warnings.some((w) => /'policy-file': accept\[0\] .* expired on 2020-01-01/.test(w))).toBe(true);
    expect((JSON.parse(expired.outputs.result!) as Result).failing).toBe(high.length);
    // A policy that cannot be read is refused before any request, naming the input and the place.
    writeFileSync(file, "accept:\n  - cve: CVE-2024-47890\n    reason: wontfix\n    justification: x\n    expires: 2099-01-01\n");
    const bad = await run({ site: "all", "policy-file": file });
    expect(bad.errors[0]).toMatch(/'policy-file' ".*accepted\.yml": accept\[0\]\.reason must be one of fix_started, inaccurate/);
  });

  it("refuses bad inputs at once, naming each, before any request", async () => {
    const r = await run({ site: "all", "fail-on": "severe", "min-severity": "bad", declarations: "no-such-dir" });
    expect(r.code).toBe(1);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toContain(`'fail-on' must be one of low, medium, high, critical (got "severe")`);
    expect(r.errors[0]).toContain(`'min-severity' must be one of low, medium, high, critical (got "bad")`);
    expect(r.errors[0]).toContain(`'declarations' "no-such-dir" is not a directory`);
    const below = await run({ site: "all", "fail-on": "low", "min-severity": "high" });
    expect(below.errors[0]).toContain("'fail-on' low is below 'min-severity' high");
    const missing = await run({ "sarif-file": path.join(fx.dir, "none.sarif") });
    expect(missing.errors[0]).toContain("'site' is required");
    expect(existsSync(path.join(fx.dir, "none.sarif"))).toBe(false);
    // An input of another command is named as ignored.
    const ignored = await run({ site: "all", "wp-version": "6.7" });
    expect(ignored.warnings).toContain("Input 'wp-version' is ignored by the vulnerabilities command (it is read by upgrade, rollout).");
  });
});
