// Which runs of `siteops snapshot create` are one job (issue 40 items 3 and 6): a manual run with its own
// description is not the night's scheduled run; a site named by id or by name, in any order, and the service
// spelled `localhost` or `127.0.0.1` are one job (the second run adopts, a concurrent one is locked out).
import { describe, expect, it } from "vitest";
import { runCli, startCli, useTestBed } from "./helpers.js";

// Nothing completes until a test moves the emulator's clock on: every run here is --no-wait.
const bed = useTestBed({ stepSeconds: 3600 }, { SITEOPS_POLL_INTERVAL_MS: "20" }, { each: true });

/** The snapshots of each site: trigger and description. */
async function snapshots(): Promise<Record<string, { trigger: string; description: string }[]>> {
  const out: Record<string, { trigger: string; description: string }[]> = {};
  for (const site of await bed.emu.so.sites.list().toArray())
    out[site.name] = (await bed.emu.so.snapshots.list(site.id).toArray()).map((s) => ({ trigger: s.trigger, description: s.description ?? "" }));
  return out;
}

const adoptedOf = (stdout: string) => (JSON.parse(stdout) as { site: { name: string }; adopted: boolean }[]).map((x) => [x.site.name, x.adopted]);

describe("a job is what it snapshots, not the flags as typed", () => {
  it("a manual run in the day is not adopted by the night's scheduled run, which takes its own snapshots", async () => {
    const manual = await runCli(["snapshot", "create", "--all", "--description", "before the plugin update", "--no-wait", "--quiet"], { env: bed.env });
    expect(manual.code, manual.stderr).toBe(0);
    const night = await runCli(["snapshot", "create", "--all", "--trigger", "scheduled", "--no-wait", "--json=site,adopted"], { env: bed.env });
    expect(night.code, night.stderr).toBe(0);
    expect(adoptedOf(night.stdout).every(([, adopted]) => adopted === false)).toBe(true);
    for (const list of Object.values(await snapshots())) expect(list.map((s) => s.trigger).sort()).toEqual(["manual", "scheduled"]);
    // The night's rerun is still the night's job: it adopts its own snapshots, not the manual ones.
    const rerun = await runCli(["snapshot", "create", "--all", "--trigger", "scheduled", "--no-wait", "--json=site,adopted"], { env: bed.env });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(adoptedOf(rerun.stdout).every(([, adopted]) => adopted === true)).toBe(true);
    expect(Object.values(await snapshots()).every((list) => list.length === 2)).toBe(true);
  });

  it("a site named by id or by name, in any order, is one job: the second run adopts", async () => {
    const blog = (await bed.emu.so.sites.list().toArray()).find((s) => s.name === "Blog")!;
    const first = await runCli(["snapshot", "create", "--site", "Blog", "--site", "Shop", "--no-wait", "--quiet"], { env: bed.env });
    expect(first.code, first.stderr).toBe(0);
    const second = await runCli(["snapshot", "create", "--site", "Shop", "--site", blog.id, "--no-wait", "--json=site,adopted"], { env: bed.env });
    expect(second.code, second.stderr).toBe(0);
    expect(adoptedOf(second.stdout)).toEqual([
      ["Shop", true],
      ["Blog", true],
    ]);
    const counts = Object.fromEntries(Object.entries(await snapshots()).map(([name, list]) => [name, list.length]));
    expect(counts).toMatchObject({ Blog: 1, Shop: 1 });
  });

  it("the same sites by id while a run by name holds the lock: exit 75", async () => {
    const blog = (await bed.emu.so.sites.list().toArray()).find((s) => s.name === "Blog")!;
    await bed.emu.control("POST", "faults", { rules: [{ method: "POST", path: "/api/v1/sites/*/snapshots", phase: "after", delay_ms: 3000, count: 2 }] });
    const first = startCli(["snapshot", "create", "--site", "Blog", "--site", "Shop", "--no-wait"], { env: bed.env });
    await first.waitFor(/snapshots of 2 sites/);
    const second = await runCli(["snapshot", "create", "--site", blog.id, "--site", "Shop", "--no-wait", "--quiet"], { env: bed.env });
    expect(second.code, second.stderr).toBe(75);
    expect((await first.done).code).toBe(0);
  });

  it("the service as localhost, 127.0.0.1 or with a trailing slash is one job", async () => {
    const url = new URL(bed.emu.url);
    expect(url.hostname).toBe("127.0.0.1");
    const first = await runCli(["snapshot", "create", "--all", "--no-wait", "--quiet"], { env: bed.env });
    expect(first.code, first.stderr).toBe(0);
    for (const base of [`http://localhost:${url.port}`, `http://LOCALHOST:${url.port}/`]) {
      const again = await runCli(["snapshot", "create", "--all", "--no-wait", "--json=site,adopted"], { env: { ...bed.env, SITEOPS_BASE_URL: base } });
      expect(again.code, again.stderr).toBe(0);
      expect(adoptedOf(again.stdout).every(([, adopted]) => adopted === true)).toBe(true);
    }
    expect(Object.values(await snapshots()).every((list) => list.length === 1)).toBe(true);
  });
});
