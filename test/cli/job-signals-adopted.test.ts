// Issue 39 item 5: a rerun of the scheduled job that adopts every snapshot of an earlier run reports 0 created
// and N adopted, apart, wherever it reports: the --report JSON (summary.created, summary.adopted), the closing
// line, the metrics file (siteops_job_snapshots_created, siteops_job_snapshots_adopted; checked by promtool
// where it is installed, always in CI) and the Slack notification.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runCli, useTestBed } from "./helpers.js";

const bed = useTestBed();
const noPromtool = process.env.CI !== "true" && Boolean(spawnSync("promtool", ["--version"]).error);

/** What a webhook receiver on loopback got. */
const posted: string[] = [];
const server = createServer((req, res) => {
  let body = "";
  req.on("data", (d: Buffer) => (body += d.toString()));
  req.on("end", () => {
    posted.push(body);
    res.writeHead(200).end("OK");
  });
});
let hook = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  hook = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook/secret-key-0001`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** The samples of a metrics file, by name and labels. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

it("a rerun that adopts every snapshot reports 0 created, N adopted: report, closing line, metrics, notification", async () => {
  const nightly = ["snapshot", "create", "--all", "--trigger", "scheduled", "--job-name", "nightly"];
  const first = await runCli([...nightly, "--quiet"], { env: bed.env });
  expect(first.code, first.stderr).toBe(0);
  const sites = (await bed.emu.so.sites.list()).data.length;

  const report = path.join(bed.box.dir, "rerun.json");
  const metrics = path.join(bed.box.dir, "nightly.prom");
  const rerun = await runCli(
    [...nightly, "--report", report, "--metrics-file", metrics, "--notify", hook, "--notify-format", "slack", "--notify-on", "always"],
    {
      env: bed.env,
    },
  );
  expect(rerun.code, rerun.stderr).toBe(0);
  expect(rerun.stderr).toMatch(new RegExp(`done: ${sites} of ${sites} snapshots completed \\(0 created, ${sites} adopted from an earlier run\\), in `));
  const doc = JSON.parse(readFileSync(report, "utf8")) as { summary: Record<string, number> };
  expect(doc.summary).toMatchObject({ total: sites, completed: sites, created: 0, adopted: sites });

  const text = readFileSync(metrics, "utf8");
  const m = samples(text);
  expect(m.get('siteops_job_snapshots_created{job_name="nightly"}')).toBe(0);
  expect(m.get('siteops_job_snapshots_adopted{job_name="nightly"}')).toBe(sites);
  if (!noPromtool) {
    const check = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
    expect(check.status, check.stdout + check.stderr).toBe(0);
    expect(check.stdout + check.stderr).toBe("");
  }

  expect(posted).toHaveLength(1);
  const { text: message } = JSON.parse(posted[0]!) as { text: string };
  expect(message.split("\n")[1]).toBe(`${sites} sites: ${sites} completed; 0 snapshots created, ${sites} adopted from an earlier run`);
});
