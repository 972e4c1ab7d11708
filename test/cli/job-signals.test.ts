// The scheduled jobs' signals (issue 28): --ping (healthchecks.io / Cronitor), --notify (the JSON report or a
// Slack message) and --metrics-file (Prometheus textfile, checked by promtool), run as cron runs them against
// the emulator, with receivers on loopback that record what they got. The URLs are secrets: no output, report
// or metrics file of these runs contains one.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pingUrl } from "../../cli/jobs/outbound/ping.js";
import { startTestEmulator } from "../core/helpers.js";
import { ROOT, runCli, startCli, transcripts, useTestBed } from "./helpers.js";

// No retries of the service's 500s: a failing site fails at once.
const bed = useTestBed({}, { SITEOPS_MAX_RETRIES: "0" });

// promtool (Debian's prometheus package) missing here skips the tests that run it; in CI (.ci/run installs it)
// it must be there, so they run.
const noPromtool = process.env.CI !== "true" && Boolean(spawnSync("promtool", ["--version"]).error);

interface Received {
  path: string;
  contentType: string | undefined;
  body: string;
}

/** An HTTP receiver on 127.0.0.1, port 0: records every request, answers each with the next of `statuses`
 * (200 once they run out). */
interface Receiver {
  url: string;
  got: Received[];
  statuses: number[];
  server: Server;
}

const receivers: Receiver[] = [];

async function receiver(statuses: number[] = []): Promise<Receiver> {
  const r = { got: [] as Received[], statuses, url: "" } as Receiver;
  r.server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      r.got.push({ path: req.url ?? "", contentType: req.headers["content-type"], body });
      res.writeHead(r.statuses.shift() ?? 200).end("OK");
    });
  });
  await new Promise<void>((resolve) => r.server.listen(0, "127.0.0.1", resolve));
  // The check's key in the path and a query, as healthchecks.io and Slack URLs carry one.
  r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}/ping/5f0c1e2a-secret-key-${receivers.length}`;
  receivers.push(r);
  return r;
}

/** A URL nothing listens on (a port just freed). */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/ping/dead-secret-key-0001`;
}

afterAll(async () => {
  for (const r of receivers) await new Promise((resolve) => r.server.close(resolve));
  // The URLs are secrets: no output of any run of this file has one (nor its key).
  for (const text of transcripts)
    for (const r of receivers) {
      expect(text).not.toContain(r.url);
      expect(text).not.toContain(new URL(r.url).pathname);
    }
});

const file = (name: string) => path.join(bed.box.dir, name);
const paths = (r: Receiver) => r.got.map((g) => g.path.replace(new URL(r.url).pathname, "URL"));

/** The metrics file parsed: `name{labels}` -> value. */
function metrics(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const m = /^(\S+) (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    out.set(m[1]!, Number(m[2]));
  }
  return out;
}

function promtool(args: string[], input?: string) {
  return spawnSync("promtool", args, { input, encoding: "utf8", cwd: path.join(ROOT, "examples/prometheus") });
}

let shop: { id: string; name: string };
beforeAll(async () => {
  const sites = await bed.emu.so.sites.list().toArray();
  const s = sites.find((x) => x.name === "Shop")!;
  shop = { id: s.id, name: s.name };
});

describe("snapshot create: success", () => {
  it("pings URL/start then URL, posts the JSON report with --notify-on always, writes metrics promtool accepts", async () => {
    const ping = await receiver();
    const notify = await receiver();
    const metricsFile = file("create.prom");
    const report = file("create.json");
    const r = await runCli(
      [
        "snapshot",
        "create",
        "--window",
        "0",
        "--all",
        "--ping",
        ping.url,
        "--notify",
        notify.url,
        "--notify-on",
        "always",
        "--metrics-file",
        metricsFile,
        "--report",
        report,
      ],
      { env: bed.env },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(paths(ping)).toEqual(["URL/start", "URL"]);
    expect(ping.got[1]!.contentType).toBe("text/plain; charset=utf-8");
    expect(ping.got[1]!.body).toMatch(
      /^siteops snapshot create \(job snapshot-create\): exit 0 \(all done\) in .+\n2 sites: 2 completed; 2 snapshots created\n$/,
    );

    // The notification is the report, as --report wrote it.
    expect(notify.got).toHaveLength(1);
    expect(notify.got[0]!.contentType).toBe("application/json");
    const fromFile = JSON.parse(readFileSync(report, "utf8")) as Record<string, unknown>;
    expect(JSON.parse(notify.got[0]!.body)).toEqual(fromFile);
    expect(fromFile).toMatchObject({ command: "siteops snapshot create", exit_code: 0, summary: { completed: 2 } });

    const text = readFileSync(metricsFile, "utf8");
    const m = metrics(text);
    const job = '{job_name="snapshot-create"}';
    expect(m.get(`siteops_job_success${job}`)).toBe(1);
    expect(m.get(`siteops_job_exit_code${job}`)).toBe(0);
    expect(m.get(`siteops_job_last_success_timestamp_seconds${job}`)).toBe(m.get(`siteops_job_end_timestamp_seconds${job}`));
    expect(m.get(`siteops_job_end_timestamp_seconds${job}`)).toBeCloseTo(Date.parse(fromFile.finished_at as string) / 1000, 3);
    expect(m.get(`siteops_job_start_timestamp_seconds${job}`)).toBeCloseTo(Date.parse(fromFile.started_at as string) / 1000, 3);
    expect(m.get(`siteops_job_duration_seconds${job}`)).toBeCloseTo((fromFile.duration_ms as number) / 1000, 3);
    expect(m.get('siteops_job_sites{job_name="snapshot-create",outcome="completed"}')).toBe(2);
    expect(m.get('siteops_job_sites{job_name="snapshot-create",outcome="failed"}')).toBe(0);
    expect(m.get(`siteops_job_snapshots_created${job}`)).toBe(2);
    expect(m.get(`siteops_job_uploaded_bytes${job}`)).toBe(0);
    // The textfile collector (another user) reads it: 0644 less the umask; no temporary file left beside it.
    expect(statSync(metricsFile).mode & 0o777).toBe(0o644 & ~process.umask());
    expect(readdirSync(bed.box.dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    // Neither the report nor the metrics name a URL.
    for (const written of [readFileSync(report, "utf8"), text]) for (const r of [ping, notify]) expect(written).not.toContain(new URL(r.url).pathname);
  });

  it.skipIf(noPromtool)("promtool accepts the metrics of a run, and the example alert rules (check and unit tests)", async () => {
    const metricsFile = file("create.prom");
    await runCli(["snapshot", "create", "--window", "0", "--site", "Blog", "--no-wait", "--metrics-file", metricsFile], { env: bed.env });
    const check = promtool(["check", "metrics"], readFileSync(metricsFile, "utf8"));
    expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
    expect(check.stdout + check.stderr).toBe("");
    const rules = promtool(["check", "rules", "siteops-job-alerts.yml"]);
    expect(rules.status, rules.stdout + rules.stderr).toBe(0);
    const unit = promtool(["test", "rules", "siteops-job-alerts.test.yml"]);
    expect(unit.status, unit.stdout + unit.stderr).toBe(0);
  });
});

describe("snapshot create: failure", () => {
  it("a failed site: URL/fail with the site and its error, the JSON report posted, the last success kept in the metrics", async () => {
    await bed.emu.control("POST", "faults", { rules: [{ method: "POST", path: `/api/v1/sites/${shop.id}/snapshots`, status: 500 }] });
    const metricsFile = file("create.prom");
    const before = metrics(readFileSync(metricsFile, "utf8")).get('siteops_job_last_success_timestamp_seconds{job_name="snapshot-create"}');
    expect(before).toBeGreaterThan(0);
    const ping = await receiver();
    const notify = await receiver();
    const r = await runCli(
      ["snapshot", "create", "--window", "0", "--all", "--quiet", "--ping", ping.url, "--notify", notify.url, "--metrics-file", metricsFile],
      {
        env: bed.env,
      },
    );
    await bed.emu.control("DELETE", "faults");
    expect(r.code, r.stderr).toBe(1);
    expect(paths(ping)).toEqual(["URL/start", "URL/fail"]);
    const lines = ping.got[1]!.body.split("\n");
    expect(lines[0]).toMatch(/^siteops snapshot create \(job snapshot-create\): exit 1 \(some failed\) in /);
    expect(lines[1]).toBe("2 sites: 1 completed, 1 failed; 1 snapshot created");
    expect(lines[2]).toMatch(new RegExp(`^Shop \\(${shop.id}\\): Internal server error \\[HTTP 500, request req_\\w+\\]`));
    // --notify-on failure (the default): posted, as JSON.
    expect(JSON.parse(notify.got[0]!.body)).toMatchObject({ exit_code: 1, summary: { completed: 1, failed: 1 } });

    const m = metrics(readFileSync(metricsFile, "utf8"));
    expect(m.get('siteops_job_last_success_timestamp_seconds{job_name="snapshot-create"}')).toBe(before);
    expect(m.get('siteops_job_success{job_name="snapshot-create"}')).toBe(0);
    expect(m.get('siteops_job_exit_code{job_name="snapshot-create"}')).toBe(1);
    expect(m.get('siteops_job_sites{job_name="snapshot-create",outcome="failed"}')).toBe(1);
  });

  it("--notify-format slack posts a message with the counts, the failed site and its error, and the duration", async () => {
    await bed.emu.control("POST", "faults", { rules: [{ method: "POST", path: `/api/v1/sites/${shop.id}/snapshots`, status: 500 }] });
    const notify = await receiver();
    const r = await runCli(
      ["snapshot", "create", "--window", "0", "--all", "--quiet", "--job-name", "nightly", "--notify", notify.url, "--notify-format", "slack"],
      {
        env: bed.env,
      },
    );
    await bed.emu.control("DELETE", "faults");
    expect(r.code).toBe(1);
    expect(notify.got[0]!.contentType).toBe("application/json");
    const { text, ...rest } = JSON.parse(notify.got[0]!.body) as { text: string };
    expect(rest).toEqual({});
    const lines = text.split("\n");
    expect(lines[0]).toMatch(/^:x: \*siteops snapshot create\* \(job `nightly`\) failed: exit 1 \(some failed\), in \d/);
    expect(lines[1]).toBe("2 sites: 1 completed, 1 failed; 1 snapshot created");
    expect(lines[2]).toMatch(new RegExp(`^• \\*Shop\\* \\(\`${shop.id}\`\\): Internal server error \\[HTTP 500, request req_\\w+\\]`));
    expect(lines).toHaveLength(3);
  });

  it("a clean run with --notify-on failure posts nothing", async () => {
    const notify = await receiver();
    const r = await runCli(["snapshot", "create", "--window", "0", "--site", "Blog", "--no-wait", "--notify", notify.url], { env: bed.env });
    expect(r.code).toBe(0);
    expect(notify.got).toEqual([]);
  });
});

describe("runs that do not finish", () => {
  it("--timeout running out (exit 4) pings URL/fail saying so", async () => {
    const slow = await startTestEmulator({ stepSeconds: 3600 });
    try {
      const ping = await receiver();
      const r = await runCli(["snapshot", "create", "--window", "0", "--site", "Blog", "--timeout", "1s", "--ping", ping.url], {
        env: { ...bed.env, SITEOPS_BASE_URL: slow.url },
      });
      expect(r.code).toBe(4);
      expect(paths(ping)).toEqual(["URL/start", "URL/fail"]);
      expect(ping.got[1]!.body).toMatch(
        /^siteops snapshot create \(job snapshot-create\): exit 4 \(timed out\) in .+\n1 site: 1 timed out; 1 snapshot created\nBlog \(site_\w+\): /,
      );
    } finally {
      await slow.close();
    }
  });

  it("SIGINT (exit 130) pings URL/fail; a second run held off by the lock (exit 75) pings nothing and shows no URL", async () => {
    const slow = await startTestEmulator({ stepSeconds: 3600 });
    try {
      const ping = await receiver();
      const env = { ...bed.env, SITEOPS_BASE_URL: slow.url, SITEOPS_PING_URL: ping.url };
      const args = ["snapshot", "create", "--window", "0", "--all", "--lock", file("signals.lock"), "--ping", ping.url];
      const first = startCli(args, { env });
      await first.waitFor(/Shop: snapshot snap_\w+ created/);
      const second = await runCli(args, { env });
      expect(second.code).toBe(75);
      expect(second.stderr).toMatch(/another run holds the lock .* --ping \*\*\*/);
      first.child.kill("SIGINT");
      const r = await first.done;
      expect(r.code).toBe(130);
      expect(paths(ping)).toEqual(["URL/start", "URL/fail"]);
      expect(ping.got[1]!.body).toMatch(/exit 130 \(interrupted\) in .+\n2 sites: 2 interrupted; 2 snapshots created\n/);
    } finally {
      await slow.close();
    }
  });

  it("credentials refused before any site (exit 3): URL/fail with the error, and the notification", async () => {
    const ping = await receiver();
    const notify = await receiver();
    const r = await runCli(["snapshot", "create", "--window", "0", "--all"], {
      env: { ...bed.env, SITEOPS_API_TOKEN: "sot_notAValidToken000000001", SITEOPS_PING_URL: ping.url, SITEOPS_NOTIFY_URL: notify.url },
    });
    expect(r.code).toBe(3);
    expect(paths(ping)).toEqual(["URL/start", "URL/fail"]);
    expect(ping.got[1]!.body).toMatch(/exit 3 \(credentials refused or missing\) in .+\n0 sites\nerror: /);
    expect(JSON.parse(notify.got[0]!.body)).toMatchObject({ exit_code: 3, error: { code: "AUTHENTICATION_FAILED" } });
  });
});

describe("delivery", () => {
  it("a receiver answering 500 then 200 gets the ping again; one that is down, or answers 404, changes no exit code", async () => {
    const flaky = await receiver([500]);
    const r = await runCli(["snapshot", "create", "--window", "0", "--site", "Blog", "--no-wait", "--ping", flaky.url], { env: bed.env });
    expect(r.code).toBe(0);
    expect(paths(flaky)).toEqual(["URL/start", "URL/start", "URL"]);
    expect(r.stderr).not.toMatch(/failed/);

    const dead = await deadUrl();
    const gone = await receiver([404]);
    const down = await runCli(
      ["snapshot", "create", "--window", "0", "--site", "Blog", "--no-wait", "--ping", dead, "--notify", gone.url, "--notify-on", "always"],
      {
        env: bed.env,
      },
    );
    expect(down.code).toBe(0);
    const host = new URL(dead).host;
    expect(down.stderr).toContain(`siteops: ping failed (start): could not connect (ECONNREFUSED) from ${host} after 3 attempts\n`);
    expect(down.stderr).toContain(`siteops: ping failed (success): could not connect (ECONNREFUSED) from ${host} after 3 attempts\n`);
    // A 404 is final: one attempt.
    expect(down.stderr).toContain(`siteops: notification failed: HTTP 404 from ${new URL(gone.url).host}\n`);
    expect(gone.got).toHaveLength(1);
    expect(down.stderr).not.toContain("dead-secret-key");
  });
});

describe("ping URLs", () => {
  it("healthchecks.io: /start and /fail added to the path, before the query; Cronitor: ?state=run|complete|fail", () => {
    const hc = new URL("https://hc-ping.com/5f0c1e2a/?create=1");
    expect(["start", "success", "fail"].map((k) => pingUrl(hc, k as "start").href)).toEqual([
      "https://hc-ping.com/5f0c1e2a/start?create=1",
      "https://hc-ping.com/5f0c1e2a/?create=1",
      "https://hc-ping.com/5f0c1e2a/fail?create=1",
    ]);
    const cronitor = new URL("https://cronitor.link/p/KEY/nightly-job");
    expect(["start", "success", "fail"].map((k) => pingUrl(cronitor, k as "start").href)).toEqual([
      "https://cronitor.link/p/KEY/nightly-job?state=run",
      "https://cronitor.link/p/KEY/nightly-job?state=complete",
      "https://cronitor.link/p/KEY/nightly-job?state=fail",
    ]);
  });
});

describe("snapshot prune", () => {
  it("--metrics-file counts the deleted snapshots; promtool accepts it", async () => {
    const metricsFile = file("prune.prom");
    const r = await runCli(["snapshot", "prune", "--site", "Blog", "--keep-last", "1", "--metrics-file", metricsFile, "--json"], { env: bed.env });
    expect(r.code, r.stderr).toBe(0);
    const records = JSON.parse(r.stdout) as { snapshots: { action: string }[] }[];
    const deleted = records[0]!.snapshots.filter((s) => s.action === "deleted").length;
    expect(deleted).toBeGreaterThan(0);
    const text = readFileSync(metricsFile, "utf8");
    const m = metrics(text);
    expect(m.get('siteops_job_snapshots_pruned{job_name="snapshot-prune"}')).toBe(deleted);
    expect(m.get('siteops_job_sites{job_name="snapshot-prune",outcome="pruned"}')).toBe(1);
    expect(m.has('siteops_job_snapshots_created{job_name="snapshot-prune"}')).toBe(false);
    if (!noPromtool) expect(promtool(["check", "metrics"], text).status).toBe(0);
  });
});

describe("bad input: exit 2 before anything runs, the URL never repeated", () => {
  it.each([
    [["--ping", "ftp://hc.example/secret-key-0001"], "error: --ping must be an http:// or https:// URL (got ftp://...)"],
    [["--notify", "not a url secret-key-0001"], "error: --notify is not a URL (expected http:// or https://...)"],
    [["--notify-on", "always"], "error: --notify-on needs --notify URL (or SITEOPS_NOTIFY_URL)"],
    [["--metrics-file", "metrics.txt"], "error: --metrics-file metrics.txt: must end in .prom (node_exporter's textfile collector reads only *.prom)"],
    [["--job-name", "a b"], "error: --job-name must be 1 to 100 letters, digits or _ . : / - (it is a Prometheus label value)"],
  ])("%j", async (flags, message) => {
    const r = await runCli(["snapshot", "create", "--window", "0", "--all", ...flags], { env: bed.env });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(message);
  });

  it("SITEOPS_PING_URL that is not a URL names the variable, not its value", async () => {
    const r = await runCli(["snapshot", "create", "--window", "0", "--all"], { env: { ...bed.env, SITEOPS_PING_URL: "hc-ping.com/secret-key-0001" } });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe("error: SITEOPS_PING_URL is not a URL (expected http:// or https://...)");
  });

  it("a symbolic link at --metrics-file is refused, and left alone", async () => {
    const target = file("elsewhere.txt");
    writeFileSync(target, "keep\n");
    const link = file("linked.prom");
    symlinkSync(target, link);
    const r = await runCli(["snapshot", "create", "--window", "0", "--all", "--metrics-file", link], { env: bed.env });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`error: --metrics-file ${link}: is a symbolic link (siteops replaces only a regular file)`);
    expect(readFileSync(target, "utf8")).toBe("keep\n");
  });
});
