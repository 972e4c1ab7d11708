// `siteops snapshot create --all` run again after it was stopped (SIGINT, kill -9 between the create requests and
// their answers, --timeout): the rerun adopts the earlier run's snapshots (waits for them, or skips sites whose
// snapshot completed) and every site ends the night with exactly one snapshot; --window 0 snapshots again; the
// lock is the job's (account and sites), not the command line's (--report).
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OWNER_TOKEN, startTestEmulator, type TestEmulator } from "../core/helpers.js";
import { runCli, sandbox, startCli, type Sandbox } from "./helpers.js";

let emu: TestEmulator;
let box: Sandbox;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  // A step of a snapshot takes an hour of the emulator's clock: nothing completes until a test moves it on.
  emu = await startTestEmulator({ stepSeconds: 3600 });
  await emu.so.sites.create({ name: "Docs", url: "https://docs.acme.test" });
  box = sandbox();
  env = { ...box.env, SITEOPS_BASE_URL: emu.url, SITEOPS_API_TOKEN: OWNER_TOKEN, SITEOPS_POLL_INTERVAL_MS: "20" };
});

afterEach(async () => {
  box.cleanup();
  await emu.close();
});

const NIGHTLY = ["snapshot", "create", "--all", "--trigger", "scheduled"];

/** Snapshots per site name, and their ids. */
async function snapshots(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const site of await emu.so.sites.list().toArray()) out[site.name] = (await emu.so.snapshots.list(site.id).toArray()).map((s) => s.id);
  return out;
}

function lengths(bySite: Record<string, string[]>): Record<string, number> {
  return Object.fromEntries(Object.entries(bySite).map(([name, ids]) => [name, ids.length]));
}

interface Report {
  exit_code: number;
  summary: Record<string, number>;
  results: { site: { name: string }; outcome: string; adopted: boolean; snapshot: { id: string; status: string } | null }[];
}
const report = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Report;

/** Runs the nightly command again and moves the emulator's clock on once it has adopted every site's snapshot. */
async function rerunAdopting(extra: string[]): Promise<Report> {
  const file = path.join(box.dir, `rerun-${Date.now()}.json`);
  const rerun = startCli([...NIGHTLY, "--report", file, ...extra], { env });
  await rerun.waitFor(/(adopted \((requested|in_progress|completed)\)[\s\S]*){3}/);
  await emu.advanceClock(4 * 3600);
  const r = await rerun.done;
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toMatch(/done: 3 of 3 snapshots completed \(0 created, 3 adopted from an earlier run\), in /);
  const doc = report(file);
  expect(doc.summary).toMatchObject({ total: 3, completed: 3, created: 0, adopted: 3 });
  expect(doc.results.every((x) => x.outcome === "completed" && x.adopted && x.snapshot?.status === "completed")).toBe(true);
  return doc;
}

describe("a rerun finishes the job instead of doubling it", () => {
  it("after SIGINT: waits for the snapshots the first run requested; a run differing only in --report is locked out", async () => {
    const first = startCli([...NIGHTLY, "--report", path.join(box.dir, "first.json")], { env });
    await first.waitFor(/(snapshot snap_\w+ created[\s\S]*){3}/);
    const overlapping = await runCli([...NIGHTLY, "--report", path.join(box.dir, "other.json"), "--quiet"], { env });
    expect(overlapping.code, overlapping.stderr).toBe(75);
    expect(overlapping.stderr).toMatch(/another run holds the lock .*snapshot-create-[0-9a-f]{16}\.lock \(pid \d+/);
    first.child.kill("SIGINT");
    expect((await first.done).code).toBe(130);
    const requested = await snapshots();
    expect(lengths(requested)).toEqual({ Blog: 1, Shop: 1, Docs: 1 });

    const doc = await rerunAdopting([]);
    expect(Object.fromEntries(doc.results.map((x) => [x.site.name, [x.snapshot!.id]]))).toEqual(requested);
    expect(await snapshots()).toEqual(requested);

    // Within the window the job is done: another rerun only reports the completed snapshots.
    const again = await runCli([...NIGHTLY, "--json=site,outcome,adopted"], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual(Object.keys(requested).map(() => expect.objectContaining({ outcome: "completed", adopted: true })));
    expect(await snapshots()).toEqual(requested);

    // --window 0: the job does not look back and snapshots every site again.
    const fresh = await runCli([...NIGHTLY, "--window", "0", "--no-wait", "--json=outcome,adopted"], { env });
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(JSON.parse(fresh.stdout)).toEqual([0, 1, 2].map(() => ({ outcome: "requested", adopted: false })));
    expect(lengths(await snapshots())).toEqual({ Blog: 2, Shop: 2, Docs: 2 });
  });

  it("after kill -9 between the create requests and their answers: the requests are sent again with their keys", async () => {
    // The service creates each snapshot, then its answer is held back: the run dies before it hears of any.
    await emu.control("POST", "faults", { rules: [{ method: "POST", path: "/api/v1/sites/*/snapshots", phase: "after", delay_ms: 3000, count: 3 }] });
    const first = startCli(NIGHTLY, { env });
    for (;;) {
      if (Object.values(await snapshots()).every((ids) => ids.length === 1)) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    first.child.kill("SIGKILL");
    expect((await first.done).signal).toBe("SIGKILL");
    expect(first.stderr()).not.toMatch(/created/);
    const requested = await snapshots();

    // The state left behind: owner-only, one line per request, none knowing its snapshot yet.
    const dir = path.join(box.dir, ".local", "state", "siteops");
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const [file] = readdirSync(dir);
    expect(file).toMatch(/^snapshot-create-[0-9a-f]{16}\.jsonl$/);
    expect(statSync(path.join(dir, file!)).mode & 0o777).toBe(0o600);
    const lines = readFileSync(path.join(dir, file!), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { snapshot: string | null; key: string });
    expect(lines).toHaveLength(3);
    expect(lines.every((l) => l.snapshot === null && /^siteops-[0-9a-f-]{36}$/.test(l.key))).toBe(true);

    const doc = await rerunAdopting([]);
    expect(Object.fromEntries(doc.results.map((x) => [x.site.name, [x.snapshot!.id]]))).toEqual(requested);
    expect(await snapshots()).toEqual(requested);
  });

  it("after a timeout: the rerun adopts the snapshots still running, then completed", async () => {
    const timedOut = await runCli([...NIGHTLY, "--timeout", "1s", "--quiet"], { env });
    expect(timedOut.code, timedOut.stderr).toBe(4);
    const requested = await snapshots();
    expect(lengths(requested)).toEqual({ Blog: 1, Shop: 1, Docs: 1 });

    await rerunAdopting(["--timeout", "5m"]);
    expect(await snapshots()).toEqual(requested);
  });

  it("a failed or deleted snapshot of the earlier run is replaced; the same sites in another order are the same job", async () => {
    const first = await runCli(["snapshot", "create", "--site", "Blog", "--site", "Shop", "--no-wait"], { env });
    expect(first.code, first.stderr).toBe(0);
    const blog = (await emu.so.sites.list().toArray()).find((s) => s.name === "Blog")!;
    const [earlier] = await emu.so.snapshots.list(blog.id).toArray();
    await emu.so.snapshots.delete(blog.id, earlier!.id);

    const rerun = await runCli(["snapshot", "create", "--site", "Shop", "--site", "Blog", "--no-wait", "--json=site,outcome,adopted"], { env });
    expect(rerun.code, rerun.stderr).toBe(0);
    const records = JSON.parse(rerun.stdout) as { site: { name: string }; outcome: string; adopted: boolean }[];
    expect(Object.fromEntries(records.map((x) => [x.site.name, x.adopted]))).toEqual({ Shop: true, Blog: false });
    expect(lengths(await snapshots())).toEqual({ Blog: 1, Shop: 1, Docs: 0 });
  });
});
