// The rules every scheduled job keeps (issue 47 item 5), run as cron runs them against the emulator with receivers
// on loopback: an empty selection is a failure of its own (exit 6, the /fail ping, siteops_job_success 0, a
// notification saying so, for every job) unless --allow-empty; a job flag's environment variable turns the job on
// as the flag does (SITEOPS_NOTIFY_URL alone makes `vulns report` a job that notifies); `vulns apply` takes the
// job's lock; notifications are delivered at least once and every repeat carries the same `webhook-id`; the
// snapshot job's ping says what it created and what it adopted.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type RunningCli, runCli, startCli, transcripts, useTestBed } from "./helpers.js";

const bed = useTestBed({}, { SITEOPS_MAX_RETRIES: "0" }, { each: true });

interface Received {
  path: string;
  id: string | undefined;
  body: string;
}

/** An HTTP receiver on 127.0.0.1, port 0, recording what it gets; `answer` decides each answer (default 200). */
interface Receiver {
  url: string;
  got: Received[];
  answer: (got: Received, req: IncomingMessage, res: ServerResponse) => void;
  server: Server;
}
const receivers: Receiver[] = [];

async function receiver(): Promise<Receiver> {
  const ok: Receiver["answer"] = (_got, _req, res) => res.writeHead(200).end("OK");
  const r = { got: [] as Received[], url: "", answer: ok } as unknown as Receiver;
  r.server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      const got = { path: req.url ?? "", id: req.headers["webhook-id"] as string | undefined, body };
      r.got.push(got);
      r.answer(got, req, res);
    });
  });
  await new Promise<void>((resolve) => r.server.listen(0, "127.0.0.1", resolve));
  r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}/hook/rules-secret-key-${receivers.length}`;
  receivers.push(r);
  return r;
}

afterAll(async () => {
  for (const r of receivers) await new Promise((resolve) => r.server.close(resolve));
  for (const text of transcripts) for (const r of receivers) expect(text).not.toContain(new URL(r.url).pathname);
});

const file = (name: string) => path.join(bed.box.dir, name);
const paths = (r: Receiver) => r.got.map((g) => g.path.replace(new URL(r.url).pathname, "URL"));

/** Deletes every site of the account: a token of an account with no sites, as a job run with the wrong token sees. */
async function emptyAccount(): Promise<void> {
  for (const site of await bed.emu.so.sites.list().toArray()) await bed.emu.so.sites.delete(site.id);
}

describe("an empty selection is a failure of its own unless --allow-empty", () => {
  it("snapshot create --all --trigger scheduled on an account with no sites: exit 6, /fail, success 0, a notification saying so", async () => {
    await emptyAccount();
    const ping = await receiver();
    const notify = await receiver();
    const metrics = file("nightly.prom");
    const nightly = ["snapshot", "create", "--all", "--trigger", "scheduled", "--metrics-file", metrics, "--report", file("nightly.json")];
    const r = await runCli([...nightly, "--ping", ping.url, "--notify", notify.url], { env: bed.env });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(
      /^error: no site selected: the account has no sites \(a token of another account\?\)\. Give --allow-empty if that is expected\.$/m,
    );
    expect(paths(ping)).toEqual(["URL/start", "URL/fail"]);
    expect(ping.got[1]!.body).toMatch(/exit 6 \(no site selected\) in .+\n0 sites\nerror: no site selected: the account has no sites/);
    const text = readFileSync(metrics, "utf8");
    expect(text).toContain('siteops_job_success{job_name="snapshot-create"} 0\n');
    expect(text).toContain('siteops_job_exit_code{job_name="snapshot-create"} 6\n');
    // --notify-on failure (the default) posts the report, whose error says why.
    expect(notify.got).toHaveLength(1);
    expect(JSON.parse(notify.got[0]!.body)).toMatchObject({
      exit_code: 6,
      error: { code: "EMPTY_SELECTION", message: expect.stringMatching(/^no site selected/) },
    });
    expect(JSON.parse(readFileSync(file("nightly.json"), "utf8"))).toMatchObject({ exit_code: 6, error: { code: "EMPTY_SELECTION" } });

    const allowed = await runCli([...nightly, "--allow-empty", "--ping", ping.url], { env: bed.env });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stderr).toContain("no site selected: the account has no sites (a token of another account?); nothing to do (an empty selection is allowed)");
    expect(paths(ping).slice(2)).toEqual(["URL/start", "URL"]);
    expect(readFileSync(metrics, "utf8")).toContain('siteops_job_success{job_name="snapshot-create"} 1\n');
  });

  it("every job: snapshot prune, vulns report (notified, though it tells only news), upgrade rollout, vulns fix, vulns apply", async () => {
    await emptyAccount();
    const notify = await receiver();
    const policy = file("policy.yml");
    writeFileSync(policy, "version: 1\naccept: []\n");
    const runs: [string[], RegExp][] = [
      [["snapshot", "prune", "--all", "--keep-last", "3"], /^error: no site selected/m],
      [["vulns", "report", "--all", "--notify", notify.url], /^error: no site selected/m],
      [["vulns", "report", "--all", "--fail-on", "high"], /^error: no site selected/m],
      [["upgrade", "rollout", "--all", "--to-wp", "6.8"], /^error: no site selected/m],
      [["vulns", "fix", "--core", "--all"], /^error: no site selected/m],
      [["vulns", "apply", "--policy", policy], /^error: no site selected/m],
    ];
    for (const [args, said] of runs) {
      const r = await runCli(args, { env: bed.env });
      expect(r.code, `${args.join(" ")}\n${r.stderr}`).toBe(6);
      expect(r.stderr).toMatch(said);
      const allowed = await runCli([...args, "--allow-empty"], { env: bed.env });
      expect(allowed.code, `${args.join(" ")} --allow-empty\n${allowed.stderr}`).toBe(0);
    }
    // The vulns report job tells only what is new, and nothing new is silent: an empty selection is told all the same.
    expect(notify.got).toHaveLength(1);
    expect(JSON.parse(notify.got[0]!.body)).toMatchObject({ command: "siteops vulns report", exit_code: 6, error: { code: "EMPTY_SELECTION" } });
  });

  it("a status no site is in is an empty selection; a shard without sites of a non-empty one is not", async () => {
    const r = await runCli(["snapshot", "create", "--all", "--status", "maintenance", "--window", "0"], { env: bed.env });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/^error: no site selected: none of the account's 2 sites is maintenance\. Give --allow-empty/m);
    // Two sites over 64 shards: most shards hold none, and the matrix's other jobs hold them.
    const ids = (await bed.emu.so.sites.list().toArray()).map((s) => s.id);
    const { inShard } = await import("../../src/fleet.js");
    const index = Array.from({ length: 64 }, (_, i) => i + 1).find((i) => ids.every((id) => !inShard(id, { index: i, count: 64 })))!;
    const shard = await runCli(["snapshot", "create", "--all", "--shard", `${index}/64`, "--window", "0"], { env: bed.env });
    expect(shard.code, shard.stderr).toBe(0);
    expect(shard.stderr).toContain(`none of the 2 selected sites is in shard ${index}/64; nothing to do here`);
  });
});

describe("a job flag's environment variable turns the job on as the flag does", () => {
  it("SITEOPS_NOTIFY_URL alone makes vulns report notify; SITEOPS_PING_URL alone makes it ping", async () => {
    const notify = await receiver();
    const r = await runCli(["vulns", "report", "--all"], { env: { ...bed.env, SITEOPS_NOTIFY_URL: notify.url } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("open records not seen by an earlier run of this job");
    expect(notify.got).toHaveLength(1);
    expect(JSON.parse(notify.got[0]!.body)).toMatchObject({ type: "siteops.vulnerabilities.new", job: "vulns-report" });

    const ping = await receiver();
    const pinged = await runCli(["vulns", "report", "--all"], { env: { ...bed.env, SITEOPS_PING_URL: ping.url } });
    expect(pinged.code, pinged.stderr).toBe(0);
    expect(paths(ping)).toEqual(["URL/start", "URL"]);
    // Set but empty is not set: the plain report, no job.
    const plain = await runCli(["vulns", "report", "--all"], { env: { ...bed.env, SITEOPS_PING_URL: "", SITEOPS_NOTIFY_URL: " " } });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).not.toContain("not seen by an earlier run");
  });
});

describe("vulns apply takes the job's lock", () => {
  it("a second apply while the first runs exits 75 and changes nothing; the first counts what it did", async () => {
    const policy = file("policy.yml");
    writeFileSync(
      policy,
      [
        "version: 1",
        "accept:",
        "  - software: wordpress",
        "    reason: tolerable_risk",
        "    justification: behind the WAF",
        `    expires: ${new Date(Date.now() + 180 * 86_400_000).toISOString().slice(0, 10)}`,
        "",
      ].join("\n"),
    );
    // The first apply's reads are slow: it holds the lock while the second starts (a loaded machine may take seconds).
    await bed.emu.control("POST", "faults", { rules: [{ method: "GET", path: "/api/v1/sites/*/vulnerability_records", delay_ms: 8000, count: 2 }] });
    const first: RunningCli = startCli(["vulns", "apply", "--policy", policy], { env: bed.env });
    const lockDir = path.join(bed.env.XDG_RUNTIME_DIR!, "siteops");
    for (let i = 0; i < 200 && !safeList(lockDir).some((f) => f.startsWith("vulns-apply-")); i++) await new Promise((r) => setTimeout(r, 25));
    const second = await runCli(["vulns", "apply", "--policy", policy], { env: bed.env });
    expect(second.code, second.stderr).toBe(75);
    expect(second.stderr).toMatch(/another run holds the lock .*vulns-apply-\w+\.lock/);
    const done = await first.done;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toMatch(/^dismissed [1-9]\d*, updated 0, reopened 0 records of 2 sites/m);
    const again = await runCli(["vulns", "apply", "--policy", policy], { env: bed.env });
    expect(again.stderr).toMatch(/^dismissed 0, updated 0, reopened 0 records of 2 sites \(\d+ unchanged\)/m);
  });
});

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

describe("notifications are delivered at least once, and a repeat carries the same webhook-id", () => {
  it("an answer lost (the connection dropped after the receiver read it) is sent again with the same id", async () => {
    const notify = await receiver();
    let drops = 1;
    notify.answer = (_got, req, res) => (drops-- > 0 ? req.socket.destroy() : res.writeHead(200).end("OK"));
    const r = await runCli(["vulns", "report", "--all", "--notify", notify.url], { env: bed.env });
    expect(r.code, r.stderr).toBe(0);
    expect(notify.got).toHaveLength(2);
    expect(notify.got[0]!.id).toMatch(/^msg_[0-9a-f]{26}$/);
    expect(notify.got[1]!.id).toBe(notify.got[0]!.id);
    expect(notify.got[1]!.body).toBe(notify.got[0]!.body);
    // The run report's notification (snapshot create) has an id too, the same on each attempt.
    const runs = await receiver();
    let dropped = 1;
    runs.answer = (_got, req, res) => (dropped-- > 0 ? req.socket.destroy() : res.writeHead(200).end("OK"));
    const snap = await runCli(["snapshot", "create", "--all", "--window", "0", "--notify", runs.url, "--notify-on", "always"], { env: bed.env });
    expect(snap.code, snap.stderr).toBe(0);
    expect(runs.got.map((g) => g.id)).toEqual([runs.got[0]!.id, runs.got[0]!.id]);
    expect(runs.got[0]!.id).toMatch(/^msg_[0-9a-f]{26}$/);
  });

  it("a run killed between the receiver's 200 and noting the news as told tells it again, with the same id", async () => {
    const notify = await receiver();
    const args = ["vulns", "report", "--all", "--notify", notify.url];
    const first = startCli(args, { env: bed.env });
    // The receiver has the news; the run dies before it can note it as told.
    notify.answer = (_got, _req, res) => {
      first.child.kill("SIGKILL");
      res.writeHead(200).end("OK");
    };
    await first.done;
    expect(notify.got).toHaveLength(1);
    notify.answer = (_got, _req, res) => res.writeHead(200).end("OK");
    const second = await runCli(args, { env: bed.env });
    expect(second.code, second.stderr).toBe(0);
    expect(notify.got).toHaveLength(2);
    expect(notify.got[0]!.id).toMatch(/^msg_[0-9a-f]{26}$/);
    expect(notify.got[1]!.id).toBe(notify.got[0]!.id);
    expect(JSON.parse(notify.got[1]!.body).new_records).toEqual(JSON.parse(notify.got[0]!.body).new_records);
    // Told now: the next run has nothing new and posts nothing.
    expect((await runCli(args, { env: bed.env })).code).toBe(0);
    expect(notify.got).toHaveLength(2);
  });
});

describe("the snapshot job's ping says what it created and what it adopted", () => {
  it("a rerun that adopts every snapshot pings '0 snapshots created, 2 adopted from an earlier run'", async () => {
    const ping = await receiver();
    const nightly = ["snapshot", "create", "--all", "--trigger", "scheduled", "--ping", ping.url];
    expect((await runCli(nightly, { env: bed.env })).code).toBe(0);
    expect(ping.got[1]!.body.split("\n")[1]).toBe("2 sites: 2 completed; 2 snapshots created");
    const rerun = await runCli(nightly, { env: bed.env });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(ping.got[3]!.body.split("\n")[1]).toBe("2 sites: 2 completed; 0 snapshots created, 2 adopted from an earlier run");
  });
});
