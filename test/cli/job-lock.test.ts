// cli/jobs/lock.ts: who holds a job's lock (issue 40 item 7). A lock naming a live pid that is not the run that
// took it (pid 1 seven days on, a reused pid, a process started after the lock) is taken over with one line; a
// lock of a live siteops run, or of this very process, still gives exit 75; a dead holder is taken over quietly.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { acquireLock } from "../../cli/jobs/lock.js";
import { CliError } from "../../cli/exit-codes.js";
import { removeDir, tempDir } from "../support/temp.js";

const dir = tempDir("job-lock");
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  removeDir(dir);
});

const sevenDaysAgo = new Date(Date.now() - 7 * 24 * 3600 * 1000).toISOString();
let n = 0;

function lockFile(holder: Record<string, unknown>): string {
  const file = path.join(dir, `job-${n++}.lock`);
  writeFileSync(file, `${JSON.stringify({ host: hostname(), started_at: sevenDaysAgo, command: "siteops snapshot create --all", ...holder })}\n`);
  return file;
}

/** A live process that is not a siteops run (`argv0` names what its command line shows). */
async function liveProcess(argv0 = "sleep"): Promise<number> {
  const child = spawn("sleep", ["600"], { argv0, stdio: "ignore" });
  children.push(child);
  await new Promise((resolve) => child.once("spawn", resolve));
  // The command line is the new one once exec has happened.
  for (let i = 0; i < 1000 && !readFileSync(`/proc/${child.pid}/cmdline`, "utf8").startsWith(argv0); i++) await new Promise((r) => setTimeout(r, 5));
  return child.pid as number;
}

function take(file: string): { notes: string[]; outcome: "taken" | number } {
  const notes: string[] = [];
  try {
    acquireLock(file, "siteops snapshot create --all", (line) => notes.push(line)).release();
    return { notes, outcome: "taken" };
  } catch (err) {
    if (err instanceof CliError) return { notes, outcome: err.exitCode };
    throw err;
  }
}

describe.runIf(process.platform === "linux")("a job's lock and its holder", () => {
  it("pid 1, seven days on, in a lock without a process identity: taken over with one line", () => {
    const { notes, outcome } = take(lockFile({ pid: 1 }));
    expect(outcome).toBe("taken");
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/names pid 1 \(since .*\), which is now another process, not a siteops run: taking it over$/);
  });

  it("a live pid whose start time is not the recorded one (a reused pid): taken over with one line", async () => {
    const pid = await liveProcess();
    const bootId = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    const { notes, outcome } = take(lockFile({ pid, boot_id: bootId, process_start: "1" }));
    expect(outcome).toBe("taken");
    expect(notes).toEqual([expect.stringContaining(`names pid ${pid} `)]);
  });

  it("the recorded process after a reboot (another boot id): taken over", async () => {
    const pid = await liveProcess();
    const start = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[19];
    const { notes, outcome } = take(lockFile({ pid, boot_id: "00000000-0000-0000-0000-000000000000", process_start: start }));
    expect(outcome).toBe("taken");
    expect(notes).toHaveLength(1);
  });

  it("the recorded process itself, alive: exit 75, no note", async () => {
    const pid = await liveProcess();
    const bootId = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    const start = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[19];
    expect(take(lockFile({ pid, boot_id: bootId, process_start: start }))).toEqual({ notes: [], outcome: 75 });
  });

  it("a lock this process holds: a second acquire exits 75", () => {
    const file = path.join(dir, "own.lock");
    const lock = acquireLock(file, "siteops snapshot create --all", () => {});
    const record = JSON.parse(readFileSync(file, "utf8"));
    expect(record).toMatchObject({ pid: process.pid, boot_id: expect.any(String), process_start: expect.stringMatching(/^\d+$/) });
    expect(take(file)).toEqual({ notes: [], outcome: 75 });
    lock.release();
  });

  it("a lock without an identity naming a live process whose command line names siteops: exit 75", async () => {
    const pid = await liveProcess("siteops-nightly");
    expect(take(lockFile({ pid }))).toEqual({ notes: [], outcome: 75 });
  });

  it("a dead holder: taken over without a note", async () => {
    const child = spawn("true", [], { stdio: "ignore" });
    const pid = child.pid as number;
    await new Promise((resolve) => child.once("exit", resolve));
    expect(take(lockFile({ pid }))).toEqual({ notes: [], outcome: "taken" });
  });
});
