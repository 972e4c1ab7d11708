// The scheduled `siteops vulns report --all --notify URL` (issue 41 item 6), run as cron runs it against the
// emulator, with a notification receiver on loopback: the first run posts every open record, a second run with
// nothing new posts nothing, a site added later is told about alone, a delivery the receiver refuses is told
// again by the next run (once it is delivered, never again); the metrics file gains
// siteops_vulnerabilities_open{severity} and passes promtool; the job is the sites as resolved (by id or by name: one).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, runCli, transcripts, useTestBed } from "./helpers.js";

const bed = useTestBed();

// promtool (Debian's prometheus package) missing here skips its check; in CI (.ci/run installs it) it must be there.
const noPromtool = process.env.CI !== "true" && Boolean(spawnSync("promtool", ["--version"]).error);

interface Receiver {
  url: string;
  got: { body: string; contentType: string | undefined }[];
  statuses: number[];
  server: Server;
}
const receivers: Receiver[] = [];

/** An HTTP receiver on 127.0.0.1, port 0: records every request, answers with the next of `statuses` (then 200). */
async function receiver(): Promise<Receiver> {
  const r = { got: [], statuses: [], url: "" } as unknown as Receiver;
  r.server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      r.got.push({ body, contentType: req.headers["content-type"] });
      res.writeHead(r.statuses.shift() ?? 200).end("OK");
    });
  });
  await new Promise<void>((resolve) => r.server.listen(0, "127.0.0.1", resolve));
  r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}/hooks/vulns-secret-key-${receivers.length}`;
  receivers.push(r);
  return r;
}

afterAll(async () => {
  for (const r of receivers) await new Promise((resolve) => r.server.close(resolve));
  for (const text of transcripts) for (const r of receivers) expect(text).not.toContain(new URL(r.url).pathname);
});

interface News {
  type: string;
  job: string;
  open: Record<string, number>;
  new_count: number;
  new_records: { site_name: string; record_id: string; severity: string; fingerprint: string }[];
}
const news = (r: Receiver, i: number) => JSON.parse(r.got[i]!.body) as News;
const file = (name: string) => path.join(bed.box.dir, name);

describe("siteops vulns report --all --notify URL (scheduled)", () => {
  let hook: Receiver;
  const run = (...extra: string[]) =>
    runCli(["vulns", "report", "--all", "--fail-on", "critical", "--notify", hook.url, "--metrics-file", file("vulns.prom"), ...extra], { env: bed.env });

  it("the first run posts every open record once, and writes the open records by severity to the metrics file", async () => {
    hook = await receiver();
    const first = await run();
    expect(first.code, first.stderr).toBe(0);
    expect(hook.got).toHaveLength(1);
    expect(hook.got[0]!.contentType).toBe("application/json");
    const told = news(hook, 0);
    expect(told).toMatchObject({ type: "siteops.vulnerabilities.new", job: "vulns-report", open: { critical: 0, high: 3, medium: 5, low: 0, unknown: 0 } });
    expect(told.new_records).toHaveLength(8);
    expect(told.new_count).toBe(8);
    expect(new Set(told.new_records.map((r) => r.site_name))).toEqual(new Set(["Blog"]));
    expect(first.stderr).toContain("8 open records not seen by an earlier run of this job");

    const text = readFileSync(file("vulns.prom"), "utf8");
    expect(text).toContain('siteops_vulnerabilities_open{job_name="vulns-report",severity="high"} 3\n');
    expect(text).toContain('siteops_vulnerabilities_open{job_name="vulns-report",severity="critical"} 0\n');
    expect(text).toContain('siteops_vulnerabilities_new{job_name="vulns-report"} 8\n');
    expect(text).toContain('siteops_job_sites{job_name="vulns-report",outcome="read"} 2\n');
    if (!noPromtool) {
      const check = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8", cwd: path.join(ROOT, "examples/prometheus") });
      expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
      expect(check.stdout + check.stderr).toBe("");
    }
  });

  it("a second run with nothing new posts nothing", async () => {
    const second = await run();
    expect(second.code, second.stderr).toBe(0);
    expect(hook.got).toHaveLength(1);
    expect(second.stderr).toContain("0 open records not seen by an earlier run of this job");
    expect(readFileSync(file("vulns.prom"), "utf8")).toContain('siteops_vulnerabilities_new{job_name="vulns-report"} 0\n');
  });

  it("a site added since is told about alone", async () => {
    await bed.emu.so.sites.create({ name: "Legacy", url: "https://legacy.acme.test", wp_version: "6.2", php_version: "8.1" });
    const third = await run();
    // Legacy has a critical record: --fail-on fails the run, and the news is told all the same.
    expect(third.code, third.stderr).toBe(1);
    expect(hook.got).toHaveLength(2);
    const told = news(hook, 1);
    expect(told.new_records.length).toBeGreaterThan(0);
    expect(new Set(told.new_records.map((r) => r.site_name))).toEqual(new Set(["Legacy"]));
  });

  it("a delivery the receiver refuses is told again by the next run, then never again", async () => {
    await bed.emu.so.sites.create({ name: "Ancient", url: "https://ancient.acme.test", wp_version: "6.0", php_version: "8.1" });
    hook.statuses.push(400); // a 4xx is not retried: the run's one delivery fails
    const refused = await run();
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toMatch(/siteops: notification failed: .*HTTP 400/);
    expect(hook.got).toHaveLength(3);
    const again = await run();
    expect(again.code, again.stderr).toBe(1);
    expect(hook.got).toHaveLength(4);
    expect(news(hook, 3).new_records.map((r) => r.fingerprint)).toEqual(news(hook, 2).new_records.map((r) => r.fingerprint));
    expect(new Set(news(hook, 3).new_records.map((r) => r.site_name))).toEqual(new Set(["Ancient"]));
    expect((await run()).code).toBe(1);
    expect(hook.got).toHaveLength(4);
  });

  it("a site that cannot be read one night is not told about again the next", async () => {
    const blog = (await bed.emu.so.sites.list().toArray()).find((x) => x.name === "Blog")!;
    await bed.emu.control("POST", "faults", { rules: [{ method: "GET", path: `/api/v1/sites/${blog.id}/vulnerability_records`, status: 500 }] });
    try {
      const unread = await runCli(["vulns", "report", "--all", "--notify", hook.url, "--metrics-file", file("vulns.prom")], {
        env: { ...bed.env, SITEOPS_MAX_RETRIES: "0" },
      });
      expect(unread.code).toBe(1);
      expect(unread.stderr).toMatch(/^error: Blog \(site_\w+\): .*HTTP 500/m);
      expect(readFileSync(file("vulns.prom"), "utf8")).toContain('siteops_job_sites{job_name="vulns-report",outcome="failed"} 1\n');
    } finally {
      await bed.emu.control("DELETE", "faults");
    }
    expect(hook.got).toHaveLength(4);
    expect((await run()).code).toBe(1);
    expect(hook.got).toHaveLength(4);
  });

  it("--notify-format slack posts a message naming the new records; another selection is another job", async () => {
    const slack = await receiver();
    const r = await runCli(["vulns", "report", "--site", "Blog", "--notify", slack.url, "--notify-format", "slack"], { env: bed.env });
    expect(r.code, r.stderr).toBe(0);
    expect(slack.got).toHaveLength(1);
    const { text } = JSON.parse(slack.got[0]!.body) as { text: string };
    expect(text.split("\n")[0]).toBe(":rotating_light: *siteops vulns report* (job `vulns-report`): 8 new open vulnerability records on 1 site");
    expect(text).toMatch(/^• \*Blog\*: Elementor Website Builder 3\.16\.4: .* \(high; fixed in 3\.18\.2; CVE-2023-48777\)$/m);
  });

  it("a site named by id is the job the run that named it by name was: what that run told is not told again", async () => {
    // The run before named Blog by name and told its 8 records (to Slack); by id it is the same job.
    const told = await receiver();
    const blog = (await bed.emu.so.sites.list().toArray()).find((x) => x.name === "Blog")!;
    const byId = await runCli(["vulns", "report", "--site", blog.id, "--notify", told.url], { env: bed.env });
    expect(byId.code, byId.stderr).toBe(0);
    expect(byId.stderr).toContain("0 open records not seen by an earlier run of this job");
    expect(told.got).toHaveLength(0);
    // Another selection (Blog and Legacy) is another job: it tells its records.
    const both = await runCli(["vulns", "report", "--site", "Legacy", "--site", blog.id, "--notify", told.url], { env: bed.env });
    expect(both.code, both.stderr).toBe(0);
    expect(told.got).toHaveLength(1);
    expect(new Set(news(told, 0).new_records.map((r) => r.site_name))).toEqual(new Set(["Blog", "Legacy"]));
  });

  it("refuses --notify-on (it tells what is new) before anything runs (exit 2)", async () => {
    const r = await runCli(["vulns", "report", "--all", "--notify", hook.url, "--notify-on", "always"], { env: bed.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--notify-on/);
  });
});
