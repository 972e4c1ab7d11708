// `shard: "I/N"` with `site: all`, run through the bundled action: N shard runs snapshot every site of the
// account exactly once, each shard the sites src/shards.ts assigns it; bad specs are one input error.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { type Site } from "../../src/index.js";
import { inShard } from "../../src/fleet.js";
import { fleetEmulator } from "./fleet-emulator.js";
import { runAction } from "./run-action.js";

const TOKEN = "sot_actionShardTestToken000001";
const SITES = 40;
const SHARDS = 4;

let emu: RunningEmulator;
let fleet: Site[];

beforeAll(async () => {
  ({ emu, fleet } = await fleetEmulator(TOKEN, SITES));
});

afterAll(async () => emu?.close());

const run = (inputs: Record<string, string>) =>
  runAction({ "api-token": TOKEN, "base-url": emu.url, command: "snapshot", ...inputs }, { SITEOPS_POLL_INTERVAL_MS: "20" });

describe("shard", () => {
  it(`splits site: all over ${SHARDS} runs: every site once, in the shard its id gives`, async () => {
    const runs = await Promise.all(Array.from({ length: SHARDS }, (_, i) => run({ site: "all", shard: `${i + 1}/${SHARDS}`, concurrency: "8" })));
    const seen = new Map<string, number>();
    runs.forEach((r, i) => {
      expect(r.errors).toEqual([]);
      expect(r.code).toBe(0);
      const ids = JSON.parse(r.outputs["snapshot-ids"]!) as Record<string, string>;
      const expected = fleet.filter((s) => inShard(s.id, { index: i + 1, count: SHARDS })).map((s) => s.id);
      expect(Object.keys(ids).sort()).toEqual(expected.sort());
      for (const id of Object.keys(ids)) seen.set(id, (seen.get(id) ?? 0) + 1);
      const result = JSON.parse(r.outputs.result!) as { shard: string; snapshots: unknown[] };
      expect(result.shard).toBe(`${i + 1}/${SHARDS}`);
      expect(result.snapshots).toHaveLength(expected.length);
      expect(r.stdout).toContain(`Snapshots of ${expected.length} sites (shard ${i + 1}/${SHARDS} of ${SITES})`);
      expect(r.summary).toContain(`<h3>Site Operations: snapshots (shard ${i + 1}/${SHARDS})</h3>`);
    });
    expect(seen.size).toBe(SITES);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
  });

  it("names the input for a spec that is not I/N, out of range, or above 256 jobs", async () => {
    const cases: [string, RegExp][] = [
      ["3", /'shard' must be INDEX\/COUNT, e\.g\. 3\/16 \(got "3"\)/],
      ["0/4", /'shard' "0\/4": the index must be from 1 to 4/],
      ["5/4", /'shard' "5\/4": the index must be from 1 to 4/],
      ["1/300", /'shard' "1\/300": the count is 300, above GitHub Actions' limit of 256 jobs per matrix/],
    ];
    for (const [spec, message] of cases) {
      const r = await run({ site: "all", shard: spec });
      expect(r.code).toBe(1);
      expect(r.errors).toHaveLength(1);
      expect(r.errors[0]).toMatch(message);
      expect(r.stderr).not.toMatch(/at \w+ \(/); // no stack trace
    }
  });

  it("needs site: all", async () => {
    const r = await run({ site: "Site 1", shard: "1/2" });
    expect(r.code).toBe(1);
    expect(r.errors[0]).toContain("'shard' needs 'site: all'");
  });
});
