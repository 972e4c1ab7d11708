// The job state `siteops snapshot create` reads back when it cannot be trusted (issue 40 items 4 and 5): lines
// dated in the future and lines of another job are skipped with a warning, never adopted; a last line cut short
// is skipped with a warning; random bytes or a NUL block refuse the run (exit 2) until the file is removed or
// --window 0 runs without it; never silent duplicates.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, useTestBed } from "./helpers.js";

// Nothing completes until a test moves the emulator's clock on: every run here is --no-wait.
const bed = useTestBed({ stepSeconds: 3600 }, { SITEOPS_POLL_INTERVAL_MS: "20" }, { each: true });

const NIGHTLY = ["snapshot", "create", "--all", "--trigger", "scheduled", "--no-wait"];

async function counts(): Promise<number[]> {
  const out: number[] = [];
  for (const site of await bed.emu.so.sites.list().toArray()) out.push((await bed.emu.so.snapshots.list(site.id).toArray()).length);
  return out;
}

/** Runs the job once and returns its state file and lines. */
async function firstRun(): Promise<{ file: string; text: string; lines: Record<string, unknown>[] }> {
  const first = await runCli([...NIGHTLY, "--quiet"], { env: bed.env });
  expect(first.code, first.stderr).toBe(0);
  const dir = path.join(bed.box.dir, ".local", "state", "siteops");
  const file = path.join(dir, readdirSync(dir)[0]!);
  const text = readFileSync(file, "utf8");
  return {
    file,
    text,
    lines: text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

const jsonl = (lines: Record<string, unknown>[]) => lines.map((l) => `${JSON.stringify(l)}\n`).join("");

describe("a job state that cannot be trusted is never adopted in silence", () => {
  it("lines dated after now (the clock was 3 days ahead) are skipped with a warning, and dropped", async () => {
    const { file, lines } = await firstRun();
    const sites = (await counts()).length;
    const ahead = new Date(Date.now() + 3 * 86400_000).toISOString();
    writeFileSync(file, jsonl(lines.map((l) => ({ ...l, at: ahead }))));
    const run = await runCli([...NIGHTLY, "--json=adopted"], { env: bed.env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`warning: job state file ${file}: skipped ${lines.length} lines dated after now (up to ${ahead}`);
    expect((JSON.parse(run.stdout) as { adopted: boolean }[]).every((x) => !x.adopted)).toBe(true);
    expect(await counts()).toEqual(Array(sites).fill(2));
    // The future lines are gone: the next run adopts the second run's snapshots, not the skipped ones, silently.
    const next = await runCli([...NIGHTLY, "--json=adopted"], { env: bed.env });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).not.toMatch(/warning/);
    expect((JSON.parse(next.stdout) as { adopted: boolean }[]).every((x) => x.adopted)).toBe(true);
    expect(readFileSync(file, "utf8")).not.toContain(ahead);
  });

  it("a line pasted from another job is skipped with a warning, never adopted", async () => {
    const { file, lines } = await firstRun();
    // Every line of one site (its request, then its snapshot) as if pasted from another job's file.
    const pasted = lines[0]!.site;
    writeFileSync(file, jsonl(lines.map((l) => (l.site === pasted ? { ...l, job: "snapshot-create-0123456789abcdef" } : l))));
    const run = await runCli([...NIGHTLY, "--json=site,adopted"], { env: bed.env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`warning: job state file ${file}: skipped 2 lines of another job`);
    const adopted = (JSON.parse(run.stdout) as { site: { id: string }; adopted: boolean }[]).filter((x) => !x.adopted).map((x) => x.site.id);
    expect(adopted).toEqual([pasted]);
  });

  it("a last line cut short (a crash while it was written) is skipped with a warning", async () => {
    const { file, lines } = await firstRun();
    // One site's only line, cut short at the end of the file.
    const cut = lines.at(-1)!.site;
    writeFileSync(file, jsonl(lines.filter((l) => l.site !== cut)) + JSON.stringify(lines.at(-1)).slice(0, 60));
    const run = await runCli([...NIGHTLY, "--json=site,adopted"], { env: bed.env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`warning: job state file ${file}: skipped its last line, cut short`);
    const fresh = (JSON.parse(run.stdout) as { site: { id: string }; adopted: boolean }[]).filter((x) => !x.adopted).map((x) => x.site.id);
    expect(fresh).toEqual([cut]);
  });

  const corruptions: [string, (text: string) => string | Buffer][] = [
    // Deterministic "random" bytes with newlines among them.
    ["3,000 random bytes", () => Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 2654435761) % 251))],
    ["a file cut in the middle of a line, the rest after it", (text) => text.slice(0, 30) + text.slice(text.indexOf("\n") + 1)],
    ["a NUL-filled block", (text) => text.slice(0, 10) + "\0".repeat(4096) + text.slice(10)],
    ["a NUL-filled block at the end (a power cut)", (text) => text + "\0".repeat(4096)],
  ];
  for (const [name, corrupt] of corruptions)
    it(`${name}: the run refuses (exit 2) and snapshots nothing; --window 0 runs without the state`, async () => {
      const { file, text } = await firstRun();
      const before = await counts();
      writeFileSync(file, corrupt(text));
      const run = await runCli(NIGHTLY, { env: bed.env });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(
        new RegExp(`job state file ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is corrupt: \\d+ unreadable lines? \\(first: line \\d+\\)`),
      );
      expect(run.stderr).toContain("remove the file (the next run snapshots every site again) or pass --window 0 for this run");
      expect(await counts()).toEqual(before);
      const without = await runCli([...NIGHTLY, "--window", "0", "--quiet"], { env: bed.env });
      expect(without.code, without.stderr).toBe(0);
      expect(await counts()).toEqual(before.map((n) => n + 1));
    });
});
