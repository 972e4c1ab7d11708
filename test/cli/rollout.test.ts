// `siteops upgrade rollout` against the emulator: a three-wave rollout that passes its gates, the plan of
// --dry-run, and refusals of bad flags before any request.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, useTestBed } from "./helpers.js";

const bed = useTestBed();

interface Report {
  exit_code: number;
  outcome: string;
  summary: Record<string, number>;
  waves: { wave: number; verdict: string; sites: number; failed: number }[];
  results: { site: { id: string; name: string }; wave: number; outcome: string; adopted: boolean; pipeline: { id: string; status: string } | null }[];
}

beforeAll(async () => {
  for (let i = 1; i <= 8; i++) await bed.emu.so.sites.create({ name: `Fleet ${i}`, url: `https://fleet${i}.acme.test`, wp_version: "6.7", php_version: "8.2" });
});

describe("siteops upgrade rollout", () => {
  it("runs a three-wave rollout: every site upgraded and judged on its pipeline and a health check after it", async () => {
    const file = path.join(bed.box.dir, "rollout.json");
    const r = await runCli(["upgrade", "rollout", "--all", "--to-wp", "6.8", "--waves", "1,50%,100%", "--gate", "pipeline,health", "--report", file], {
      env: bed.env,
    });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(file, "utf8")) as Report;
    expect(doc.outcome).toBe("done");
    expect(doc.waves.map((w) => [w.wave, w.verdict, w.sites])).toEqual([
      [1, "passed", 1],
      [2, "passed", 4],
      [3, "passed", 5],
    ]);
    // Shop is at WordPress 6.9 already (the seed): no pipeline, no failure.
    const shop = doc.results.find((x) => x.site.name === "Shop")!;
    expect([shop.outcome, shop.pipeline]).toEqual(["already_upgraded", null]);
    const others = doc.results.filter((x) => x !== shop);
    expect(others.every((x) => x.outcome === "passed" && x.pipeline?.status === "succeeded" && !x.adopted)).toBe(true);
    expect(r.stderr).toMatch(/wave 1\/3: 1 site, 1 passed, 0 failed \(at most 0 allowed\): passed/);
    expect(r.stderr).toMatch(/done: 9 of 10 sites upgraded and passed their gates, 1 already at the target, in /);
    for (const site of await bed.emu.so.sites.list().toArray()) expect(site.wp_version).toBe(site.name === "Shop" ? "6.9" : "6.8");
  });
});
