// `siteops vulns apply --policy FILE`: the built CLI against the emulator. Blog (WordPress 6.4) has three open high
// records; a policy accepts them (dry run first: nothing changes), a second run changes nothing, a person's
// dismissal is never reopened, and once the acceptances expire the records they dismissed are reopened; an
// unmatched or expired acceptance is a warning; a bad file is refused naming the file and the place (exit 2).
// `vulns report --all --fail-on high` exits 1 before and 0 after, the accepted records suppressed in its SARIF.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { json, runCli, useTestBed } from "./helpers.js";

const bed = useTestBed();
const cli = (...args: string[]) => runCli(args, { env: bed.env });

interface Rec {
  id: string;
  cve: string | null;
  severity: string;
  status: string;
  dismissed_reason: string | null;
  dismissed_comment: string | null;
  software: { slug: string };
}
interface Row {
  action: string;
  site: { name: string };
  record: { id: string; cve: string };
  acceptance: string | null;
}

const HIGH = ["CVE-2023-48777", "CVE-2023-6449", "CVE-2024-47890"];
/** An expiry in force: a year ahead (a policy refuses more than two). */
const UNTIL = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);

function policy(expires: string, extra = ""): string {
  return [
    "# yaml-language-server: $schema=../docs/schemas/vulnerability-policy.schema.json",
    "version: 1",
    "accept:",
    ...HIGH.map((cve) =>
      [
        `  - cve: ${cve}`,
        "    sites: [Blog]",
        "    reason: tolerable_risk",
        "    justification: behind the WAF rule 942100 until the upgrade window",
        `    expires: ${expires}`,
      ].join("\n"),
    ),
    "  - cve: CVE-2099-0001",
    "    reason: inaccurate",
    "    justification: scanner noise",
    `    expires: ${expires}`,
    extra,
  ].join("\n");
}

/** The seal of a policy's marker (`[siteops-policy#<seal>] `), to compare the rest of the comment. */
const sealOf = (comment: string | null) => /^\[siteops-policy#([0-9a-f]{16})\] /.exec(comment ?? "")?.[1] ?? "(no seal)";

let dir: string;
let file: string;
const records = async (): Promise<Rec[]> => json<Rec[]>(await cli("vulns", "list", "--site", "Blog", "--json"));

beforeAll(() => {
  dir = bed.box.dir;
  file = path.join(dir, "vulnerabilities.yml");
});

describe("siteops vulns apply --policy", () => {
  it("a dry run says what it would dismiss; an acceptance that matches nothing fails it (exit 1) unless --allow-unmatched", async () => {
    writeFileSync(file, policy(UNTIL));
    const run = await cli("vulns", "apply", "--policy", file, "--dry-run", "--json");
    expect(run.code, run.stderr).toBe(1);
    const rows = json<Row[]>(run);
    expect(rows.map((r) => [r.action, r.record.cve]).sort()).toEqual(HIGH.map((cve) => ["would_dismiss", cve]).sort());
    expect(run.stderr).toContain("error: accept[3] (CVE-2099-0001) matches no open or ignored record: remove it, or check what it names\n");
    expect(run.stderr).toContain(`error: 1 entry of ${file} matches nothing: fix the file, or give --allow-unmatched\n`);
    expect(run.stderr).toContain("would dismiss 3, would update 0, would reopen 0 records of 2 sites (0 unchanged)");
    const allowed = await cli("vulns", "apply", "--policy", file, "--dry-run", "--allow-unmatched");
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stderr).toContain("warning: accept[3] (CVE-2099-0001) matches no open or ignored record: remove it, or check what it names\n");
    expect((await records()).filter((r) => r.status === "ignored")).toEqual([]);
    // The high records are open: the report fails the run (test/cli/vulns-report*.test.ts has the rest of it).
    expect((await cli("vulns", "report", "--all", "--fail-on", "high")).code).toBe(1);
  });

  it("dismisses the accepted records with the reason and the marked justification; no high record stays open", async () => {
    const run = await cli("vulns", "apply", "--policy", file, "--allow-unmatched");
    expect(run.code, run.stderr).toBe(0);
    // Piped: tab-separated lines, one per change.
    expect(run.stdout).toMatch(/^dismissed\tBlog\tvuln_\w+\thigh\tCVE-2024-47890\twordpress 6.4\taccept\[2\]$/m);
    expect(run.stderr).toContain("dismissed 3, updated 0, reopened 0 records of 2 sites (0 unchanged)");
    const ignored = (await records()).filter((r) => r.status === "ignored");
    expect(ignored.map((r) => r.cve).sort()).toEqual([...HIGH].sort());
    for (const r of ignored) {
      expect(r.dismissed_reason).toBe("tolerable_risk");
      expect(r.dismissed_comment).toBe(
        `[siteops-policy#${sealOf(r.dismissed_comment)}] behind the WAF rule 942100 until the upgrade window (accepted until ${UNTIL})`,
      );
    }
    const open = json<Rec[]>(await cli("vulns", "list", "--all", "--status", "open", "--severity", "high,critical", "--json"));
    expect(open).toEqual([]);
    const report = await cli("vulns", "report", "--all", "--fail-on", "high");
    expect(report.code, report.stderr).toBe(0);
    // SARIF: the accepted records are suppressed with the policy's reason and justification.
    const sarif = json<{
      runs: { results: { properties: { siteId: string }; suppressions?: { status: string; justification: string }[]; message: { text: string } }[] }[];
    }>(await cli("vulns", "report", "--all", "--format", "sarif"));
    const suppressed = sarif.runs[0]!.results.filter((r) => r.suppressions);
    expect(suppressed).toHaveLength(3);
    for (const r of suppressed)
      expect(r.suppressions).toEqual([
        {
          kind: "external",
          status: "accepted",
          justification: expect.stringMatching(
            new RegExp(`^tolerable_risk: \\[siteops-policy#[0-9a-f]{16}\\] behind the WAF rule 942100 until the upgrade window \\(accepted until ${UNTIL}\\)$`),
          ),
        },
      ]);
  });

  it("a second run changes nothing", async () => {
    const run = await cli("vulns", "apply", "--policy", file, "--json", "--allow-unmatched");
    expect(run.code, run.stderr).toBe(0);
    expect(json(run)).toEqual([]);
    expect(run.stderr).toContain("dismissed 0, updated 0, reopened 0 records of 2 sites (3 unchanged)");
  });

  it("once expired, reopens what it dismissed, warns, and leaves a person's dismissal alone", async () => {
    const medium = (await records()).find((r) => r.status === "open" && r.software.slug === "wordpress-seo")!;
    const byHand = await cli("vulns", "update", medium.id, "--site", "Blog", "--status", "ignored", "--reason", "not_used", "--comment", "SEO plugin is off");
    expect(byHand.code, byHand.stderr).toBe(0);
    // The person's record is matched by an acceptance too: its expiry must not reopen it.
    writeFileSync(file, policy("2020-01-01", "  - software: wordpress-seo\n    reason: not_used\n    justification: off\n    expires: 2020-01-01\n"));
    const run = await cli("vulns", "apply", "--policy", file, "--json");
    expect(run.code, run.stderr).toBe(0);
    expect(
      json<Row[]>(run)
        .map((r) => [r.action, r.record.cve, r.acceptance])
        .sort(),
    ).toEqual(HIGH.map((cve, i) => ["reopened", cve, `accept[${i}]`]).sort());
    for (const [i, cve] of HIGH.entries())
      expect(run.stderr).toContain(`warning: accept[${i}] (${cve}) expired on 2020-01-01: 1 record it accepted reopened; renew or remove it\n`);
    expect(run.stderr).toContain("warning: accept[3] (CVE-2099-0001) expired on 2020-01-01: it accepts nothing any more; renew or remove it\n");
    expect(run.stderr).toContain("warning: accept[4] (wordpress-seo) expired on 2020-01-01: it accepts nothing any more; renew or remove it\n");
    const after = await records();
    expect(after.filter((r) => HIGH.includes(r.cve!)).map((r) => r.status)).toEqual(["open", "open", "open"]);
    expect(after.find((r) => r.id === medium.id)).toMatchObject({ status: "ignored", dismissed_comment: "SEO plugin is off" });
    expect((await cli("vulns", "report", "--all", "--fail-on", "high")).code).toBe(1);
  });

  it("reads JSON too", async () => {
    const jsonFile = path.join(dir, "policy.json");
    writeFileSync(jsonFile, JSON.stringify({ accept: [{ cve: HIGH[0], reason: "fix_started", justification: "upgrade booked", expires: UNTIL }] }));
    const run = await cli("vulns", "apply", "--policy", jsonFile, "--dry-run", "--json");
    expect(run.code, run.stderr).toBe(0);
    expect(json<Row[]>(run).map((r) => [r.action, r.record.cve])).toEqual([["would_dismiss", HIGH[0]]]);
  });

  it.each([
    [
      "accept:\n  - cve: CVE-2024-47890\n    reason: tolerable_risk\n    justification: x\n    expire: 2099-01-01\n",
      /accept\[0\]\.expire is not a key of an acceptance/,
    ],
    [
      "accept:\n  - cve: CVE-2024-47890\n    reason: wontfix\n    justification: x\n    expires: 2099-01-01\n",
      /accept\[0\]\.reason must be one of fix_started, inaccurate/,
    ],
    ["accept:\n  - cve: CVE-2024-47890\n    reason: tolerable_risk\n    reason: not_used\n", /not valid YAML at line 4: Map keys must be unique/],
    ["accept: [\n", /not valid YAML at line \d+/],
  ])("refuses a bad file before any request, naming the file and the place (exit 2): %#", async (text, message) => {
    const bad = path.join(dir, "bad.yml");
    writeFileSync(bad, text);
    const run = await cli("vulns", "apply", "--policy", bad);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toContain(`--policy ${bad}: `);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("refused permission for a change ends the run as refused (exit 3), said once, the changes after it not sent", async () => {
    // Issue 52: the collector threw a 401/403 (exit 3), a refused change was one failure per record (exit 1).
    const open = (await records()).filter((r) => r.status === "open" && r.cve);
    expect(open.length).toBeGreaterThanOrEqual(2);
    const refused = path.join(dir, "refused.yml");
    writeFileSync(
      refused,
      `accept:\n${open
        .slice(0, 2)
        .map((r) => `  - cve: ${r.cve}\n    sites: [Blog]\n    reason: tolerable_risk\n    justification: WAF\n    expires: ${UNTIL}\n`)
        .join("")}`,
    );
    await bed.emu.control("POST", "faults", { rules: [{ method: "PATCH", path: "/api/v1/sites/*/vulnerability_records/*", status: 403 }] });
    try {
      const run = await runCli(["vulns", "apply", "--policy", refused], { env: bed.env });
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr.match(/^error: .*403.*: 2 changes not made \(left as they are\)$/gm)).toHaveLength(1);
      expect(run.stderr).not.toMatch(/could not dismiss/);
    } finally {
      await bed.emu.control("DELETE", "faults");
    }
    const after = await records();
    for (const r of open.slice(0, 2)) expect(after.find((x) => x.id === r.id)!.status).toBe("open");
  });

  it("a site whose records cannot be read is said and left alone (exit 1); the other sites are still applied", async () => {
    const sites = await bed.emu.so.sites.list().toArray();
    const shop = sites.find((x) => x.name === "Shop")!;
    await bed.emu.control("POST", "faults", { rules: [{ method: "GET", path: `/api/v1/sites/${shop.id}/vulnerability_records`, status: 500 }] });
    try {
      const any = path.join(dir, "any-site.yml");
      // No sites: an acceptance that could match Shop's records is not called unmatched while Shop is unread.
      writeFileSync(
        any,
        `accept:\n  - cve: ${HIGH[0]}\n    reason: fix_started\n    justification: upgrade booked\n    expires: ${UNTIL}\n  - cve: CVE-2099-0002\n    reason: inaccurate\n    justification: noise\n    expires: ${UNTIL}\n`,
      );
      const run = await runCli(["vulns", "apply", "--policy", any, "--dry-run", "--json"], { env: { ...bed.env, SITEOPS_MAX_RETRIES: "0" } });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^error: Shop \(site_\w+\): its records could not be read, left as they are: .*HTTP 500/m);
      expect(json<Row[]>(run).map((r) => [r.action, r.site.name, r.record.cve])).toEqual([["would_dismiss", "Blog", HIGH[0]]]);
      expect(run.stderr).not.toContain("matches no open or ignored record");
    } finally {
      await bed.emu.control("DELETE", "faults");
    }
  });

  it("refuses a missing --policy or file (exit 2)", async () => {
    expect((await cli("vulns", "apply")).stderr).toMatch(/--policy FILE is required/);
    const missing = await cli("vulns", "apply", "--policy", path.join(dir, "nope.yml"));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.yml: no such file/);
  });
});
