// `siteops snapshot create --all` as the scheduled job: 50 sites with faults injected (retried requests, one site
// that keeps failing), the exit code and failure line, --quiet, --report, the lock against overlapping runs,
// and SIGTERM in the middle of a run.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator } from "../core/helpers.js";
import { runCli, startCli, useTestBed } from "./helpers.js";

const SITES = 50;
// Two retries instead of the default 8 (within 60 s): the site that keeps failing fails in a second, not a minute.
const bed = useTestBed({}, { SITEOPS_POLL_INTERVAL_MS: "20", SITEOPS_MAX_RETRIES: "2" });
let failing: { id: string; name: string };

beforeAll(async () => {
  const existing = await bed.emu.so.sites.list({ per_page: 100 }).toArray();
  for (let i = existing.length; i < SITES; i++) await bed.emu.so.sites.create({ name: `Site ${i + 1}`, url: `https://site-${i + 1}.acme.test` });
  const site = (await bed.emu.so.sites.list({ per_page: 100 }).toArray())[7]!;
  failing = { id: site.id, name: site.name };
});

async function completedSnapshots(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const site of await bed.emu.so.sites.list({ per_page: 100 }).toArray()) {
    const snaps = await bed.emu.so.snapshots.list(site.id, { per_page: 100 }).toArray();
    counts.set(site.id, snaps.filter((s) => s.status === "completed").length);
  }
  return counts;
}

describe("snapshot create --all", () => {
  it("snapshots 50 sites through retried faults; one site that keeps failing exits 1, the others complete", async () => {
    await bed.emu.control("DELETE", "faults");
    await bed.emu.control("POST", "faults", {
      rules: [
        { method: "POST", path: `/api/v1/sites/${failing.id}/snapshots`, status: 500 },
        // The first 8 creates (one per site in flight) answer 503, the first 4 polls lose their connection:
        // each is retried by the core (after 0.5 s, when those faults are used up) and goes through.
        { method: "POST", path: "/api/v1/sites/*/snapshots", status: 503, count: 8, retry_after: 0 },
        { method: "GET", path: "/api/v1/sites/*/snapshots/*", reset_connection: true, count: 4 },
      ],
    });
    const before = await completedSnapshots();
    const report = path.join(bed.box.dir, "nightly.json");
    const r = await runCli(["snapshot", "create", "--all", "--concurrency", "8", "--trigger", "scheduled", "--report", report], {
      env: bed.env,
      timeoutMs: 120_000,
    });
    const faults = (await bed.emu.control("GET", "faults")) as { rules: { hits: number }[] };
    await bed.emu.control("DELETE", "faults");

    expect(r.code, r.stderr).toBe(1);
    // One line naming the site, the service's message and the request id.
    const errors = r.stderr.split("\n").filter((l) => / error: /.test(l));
    expect(errors, r.stderr).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`^\\S+Z error: ${failing.name} \\(${failing.id}\\): Internal server error \\[HTTP 500, request req_\\w+\\]\\.$`));
    expect(r.stderr).toMatch(/done: 49 of 50 snapshots completed, 1 failed, in /);
    expect(faults.rules.map((rule) => rule.hits)).toEqual([3, 8, 4]); // the failing site: 1 + 2 retries; the retried faults
    expect(r.stderr).not.toMatch(/\n\s+at /);

    const after = await completedSnapshots();
    for (const [id, n] of after) expect(n - (before.get(id) ?? 0), id).toBe(id === failing.id ? 0 : 1);

    // Not a terminal: one tab-separated line per site on stdout.
    const rows = r.stdout
      .trim()
      .split("\n")
      .map((l) => l.split("\t"));
    expect(rows).toHaveLength(SITES);
    expect(rows.find((row) => row[0] === failing.id)).toEqual([
      failing.id,
      failing.name,
      "",
      "failed",
      "",
      expect.stringMatching(/^\d+$/),
      expect.stringContaining("Internal server error"),
    ]);

    const doc = JSON.parse(readFileSync(report, "utf8")) as {
      command: string;
      exit_code: number;
      summary: Record<string, number>;
      results: {
        site: { id: string };
        outcome: string;
        snapshot: { id: string; size_bytes: number; status: string } | null;
        error: { message: string; http_status?: number; request_id?: string } | null;
        duration_ms: number;
      }[];
    };
    expect(doc).toMatchObject({ command: "siteops snapshot create", exit_code: 1, summary: { total: 50, completed: 49, failed: 1 } });
    const bad = doc.results.find((x) => x.site.id === failing.id)!;
    expect(bad).toMatchObject({ outcome: "failed", snapshot: null, error: { http_status: 500, request_id: expect.stringMatching(/^req_/) } });
    const good = doc.results.find((x) => x.site.id !== failing.id)!;
    expect(good).toMatchObject({ outcome: "completed", snapshot: { status: "completed", size_bytes: expect.any(Number) }, error: null });
    expect(good.duration_ms).toBeGreaterThan(0);
  });

  it("--quiet prints only the failures", async () => {
    await bed.emu.control("POST", "faults", { rules: [{ method: "POST", path: `/api/v1/sites/${failing.id}/snapshots`, status: 422 }] });
    const r = await runCli(["snapshot", "create", "--all", "--quiet", "--concurrency", "8"], { env: bed.env });
    await bed.emu.control("DELETE", "faults");
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    const lines = r.stderr.trim().split("\n");
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`error: ${failing.name} \\(${failing.id}\\): .*\\[HTTP 422, request req_\\w+\\]`));
  });

  it("a clean run exits 0 and --status picks sites by health", async () => {
    await bed.emu.control("POST", "health_checks", { site_id: failing.id, status: "failed" });
    const r = await runCli(["snapshot", "create", "--all", "--status", "healthy", "--json=site,outcome"], { env: bed.env });
    expect(r.code).toBe(0);
    const records = JSON.parse(r.stdout) as { site: { id: string }; outcome: string }[];
    expect(records.map((x) => x.site.id)).not.toContain(failing.id);
    expect(records.every((x) => x.outcome === "completed")).toBe(true);
  });
});

describe("timeout", () => {
  it("a snapshot that does not complete in --timeout exits 4, and the summary line says timed out, not failed", async () => {
    const slow = await startTestEmulator({ stepSeconds: 3600 });
    try {
      const r = await runCli(["snapshot", "create", "--site", "Blog", "--timeout", "1s"], { env: { ...bed.env, SITEOPS_BASE_URL: slow.url } });
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/done: 0 of 1 snapshot completed, 1 timed out, in /);
      expect(r.stderr).not.toMatch(/\d failed/);
    } finally {
      await slow.close();
    }
  });
});

describe("locks and interruption", () => {
  it("a second run of the same job exits 75 while the first holds the lock; SIGTERM stops the first with 130", async () => {
    const slow = await startTestEmulator({ stepSeconds: 3600 });
    try {
      const slowEnv = { ...bed.env, SITEOPS_BASE_URL: slow.url };
      const lock = path.join(bed.box.dir, "nightly.lock");
      const report = path.join(bed.box.dir, "interrupted.json");
      const args = ["snapshot", "create", "--all", "--lock", lock, "--report", report];
      const first = startCli(args, { env: slowEnv });
      await first.waitFor(/Shop: snapshot snap_\w+ created/);
      expect(JSON.parse(readFileSync(lock, "utf8"))).toMatchObject({ pid: first.child.pid, host: hostname() });

      const second = await runCli(args, { env: slowEnv });
      expect(second.code).toBe(75);
      expect(second.stderr.trim()).toMatch(new RegExp(`^error: another run holds the lock ${lock} \\(pid ${first.child.pid} on .+\\): not starting`));

      first.child.kill("SIGTERM");
      const result = await first.done;
      expect(result.code).toBe(130);
      expect(result.stderr).toMatch(/error: interrupted: 0 finished, 2 requested and still running in the service \(snap_\w+, snap_\w+\), 0 not started/);
      expect(existsSync(lock)).toBe(false);
      const doc = JSON.parse(readFileSync(report, "utf8")) as { exit_code: number; results: { outcome: string; snapshot: { id: string } | null }[] };
      expect(doc.exit_code).toBe(130);
      expect(doc.results.map((x) => x.outcome)).toEqual(["interrupted", "interrupted"]);
      // What was requested carries on in the service.
      const site = (await slow.so.sites.list()).data[0]!;
      const snaps = await slow.so.snapshots.list(site.id).toArray();
      expect(snaps.map((s) => s.id)).toContain(doc.results[0]!.snapshot!.id);
    } finally {
      await slow.close();
    }
  });

  it("the default lock is per job (same command line, same service); a lock left by a dead process is taken over", async () => {
    const slow = await startTestEmulator({ stepSeconds: 3600 });
    try {
      const slowEnv = { ...bed.env, SITEOPS_BASE_URL: slow.url };
      const first = startCli(["snapshot", "create", "--site", "Blog"], { env: slowEnv });
      await first.waitFor(/Blog: snapshot snap_\w+ created/);
      const same = await runCli(["snapshot", "create", "--site", "Blog"], { env: slowEnv });
      expect(same.code).toBe(75);
      expect(same.stderr).toMatch(/another run holds the lock .*[/\\]run[/\\]siteops[/\\]snapshot-create-[0-9a-f]{16}\.lock \(pid \d+/);
      const other = await runCli(["snapshot", "create", "--site", "Shop", "--no-wait"], { env: slowEnv });
      expect(other.code).toBe(0);
      first.child.kill("SIGINT");
      expect((await first.done).code).toBe(130);

      const stale = path.join(bed.box.dir, "stale.lock");
      writeFileSync(stale, JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), started_at: "2026-01-01T00:00:00Z", command: "old" }));
      const taken = await runCli(["snapshot", "create", "--site", "Shop", "--no-wait", "--lock", stale], { env: slowEnv });
      expect(taken.code).toBe(0);
      expect(existsSync(stale)).toBe(false);
    } finally {
      await slow.close();
    }
  });
});
