// examples/cron/: the nightly script run as cron/systemd/Kubernetes run it (a `siteops` on the PATH, credentials
// in the environment) against the emulator (install.sh and the units it installs: cron-install.test.ts; the
// Kubernetes manifests, run under the constraints they declare: kubernetes-cronjob.test.ts and
// kubernetes-indexed-job.test.ts).
import { spawn } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, ROOT, useTestBed } from "./helpers.js";

const CRON = path.join(ROOT, "examples/cron");
const bed = useTestBed();

beforeAll(async () => {
  const bin = path.join(bed.box.dir, "bin");
  mkdirSync(bin);
  // What `npm install --global siteops` puts on the PATH.
  writeFileSync(path.join(bin, "siteops"), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(path.join(bin, "siteops"), 0o755);
  copyFileSync(path.join(CRON, "siteops-nightly.sh"), path.join(bin, "siteops-nightly"));
  Object.assign(bed.env, { PATH: `${bin}:${process.env.PATH}`, SITEOPS_POLL_INTERVAL_MS: "20", SITEOPS_REPORT_DIR: path.join(bed.box.dir, "reports") });
});

function nightly(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    // Asynchronously: the emulator answers from this process.
    const child = spawn("siteops-nightly", [], { env: bed.env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("close", (code: number | null) => resolve({ code, output }));
  });
}

/** A night goes by: the job's state (cli/jobs/run-state.ts) dates its runs a day earlier, out of the rerun window,
 * so the next nightly run snapshots again instead of adopting the last one's snapshots. */
function nightPasses(): void {
  const dir = path.join(bed.box.dir, ".local", "state", "siteops");
  for (const name of readdirSync(dir)) {
    const lines = readFileSync(path.join(dir, name), "utf8").split("\n").filter(Boolean);
    const earlier = lines.map((l) => {
      const line = JSON.parse(l) as { at: string };
      return JSON.stringify({ ...line, at: new Date(Date.parse(line.at) - 86_400_000).toISOString() });
    });
    writeFileSync(path.join(dir, name), earlier.map((l) => `${l}\n`).join(""));
  }
}

const report = (name: string) => JSON.parse(readFileSync(path.join(bed.box.dir, "reports", name), "utf8")) as Record<string, unknown> & { exit_code: number };

describe("examples/cron", () => {
  it("the nightly script snapshots every site and prunes, printing nothing when all is well", async () => {
    const r = await nightly();
    expect(r).toEqual({ code: 0, output: "" });
    expect(report("snapshots.json")).toMatchObject({ exit_code: 0, summary: { total: 2, completed: 2 } });
    expect(report("prune.json")).toMatchObject({ exit_code: 0, dry_run: false, policy: { keepDaily: 7, keepWeekly: 5, keepMonthly: 12 } });
  });

  it("a failing site: one line for cron to mail, exit 1, and the prune still runs", async () => {
    const blog = (await bed.emu.so.sites.list()).data.find((s) => s.name === "Blog")!;
    await bed.emu.control("POST", "faults", { rules: [{ method: "POST", path: `/api/v1/sites/${blog.id}/snapshots`, status: 422 }] });
    nightPasses();
    const r = await nightly();
    await bed.emu.control("DELETE", "faults");
    expect(r.code).toBe(1);
    expect(r.output.trim().split("\n")).toEqual([
      expect.stringMatching(new RegExp(`error: Blog \\(${blog.id}\\): Injected fault \\[HTTP 422, request req_\\w+\\]\\.$`)),
    ]);
    expect(report("snapshots.json")).toMatchObject({ exit_code: 1, summary: { completed: 1, failed: 1 } });
    expect(report("prune.json").exit_code).toBe(0);
  });

  it("refused credentials stop the job before the prune (exit 3)", async () => {
    const before = readFileSync(path.join(bed.box.dir, "reports", "prune.json"), "utf8");
    const saved = bed.env.SITEOPS_API_TOKEN;
    bed.env.SITEOPS_API_TOKEN = "sot_revoked00000000000000";
    const r = await nightly();
    bed.env.SITEOPS_API_TOKEN = saved;
    expect(r.code).toBe(3);
    expect(r.output).toMatch(
      /error: The API token from SITEOPS_API_TOKEN was refused \(You need to sign in or sign up before continuing\) \[HTTP 401, request req_\w+\]\. Set SITEOPS_API_TOKEN to a valid API token/,
    );
    expect(readFileSync(path.join(bed.box.dir, "reports", "prune.json"), "utf8")).toBe(before);
  });

  it("the crontab line runs the installed script nightly", () => {
    const line = readFileSync(path.join(CRON, "crontab"), "utf8")
      .split("\n")
      .find((l) => /^\d/.test(l))!;
    const [minute, hour, dom, month, dow, ...command] = line.split(/\s+/);
    expect([minute, hour, dom, month, dow]).toEqual(["15", "2", "*", "*", "*"]);
    expect(command.join(" ")).toBe("/usr/local/bin/siteops-nightly");
  });
});
