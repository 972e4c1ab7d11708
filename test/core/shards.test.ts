// Fleet shards: "I/N" specs, a site's shard from its id (stable and balanced), and the GitHub Actions matrix
// with GitHub's limit of 256 jobs.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { inShard, MAX_MATRIX_JOBS, parseShard, shardMatrix, shardOf, ShardSpecError } from "../../src/fleet.js";

/** Ids shaped like the service's (site_ + 20 alphanumerics), deterministic. */
function siteIds(n: number): string[] {
  return Array.from(
    { length: n },
    (_, i) =>
      `site_${createHash("sha256")
        .update(String(i))
        .digest("base64")
        .replace(/[^A-Za-z0-9]/g, "")
        .slice(0, 20)}`,
  );
}

describe("shards", () => {
  it("parses I/N and refuses anything else with a precise message", () => {
    expect(parseShard("3/16")).toEqual({ index: 3, count: 16 });
    expect(parseShard(" 1 / 1 ")).toEqual({ index: 1, count: 1 });
    const bad: [string, RegExp][] = [
      ["3", /must be INDEX\/COUNT, e\.g\. 3\/16/],
      ["a/b", /must be INDEX\/COUNT/],
      ["0/16", /the index must be from 1 to 16/],
      ["17/16", /the index must be from 1 to 16/],
      ["1/0", /must be a whole number from 1 to 256/],
      ["1/300", /is 300, above GitHub Actions' limit of 256 jobs per matrix/],
    ];
    for (const [spec, message] of bad) {
      const err = (() => {
        try {
          parseShard(spec);
        } catch (e) {
          return e;
        }
      })();
      expect(err, spec).toBeInstanceOf(ShardSpecError);
      expect((err as ShardSpecError).code).toBe("INVALID_SHARD");
      expect((err as Error).message).toMatch(message);
    }
  });

  it("puts a site in the same shard every time, whatever else is in the fleet", () => {
    // Fixed values: the CLI and the GitHub Action must split a fleet the same way, in every release.
    expect(shardOf("site_0123456789abcdefABCD", 16)).toBe(shardOf("site_0123456789abcdefABCD", 16));
    expect([shardOf("site_aaaaaaaaaaaaaaaaaaaa", 16), shardOf("site_aaaaaaaaaaaaaaaaaaab", 16), shardOf("site_Zz9Zz9Zz9Zz9Zz9Zz9Zz", 4)]).toEqual([2, 16, 1]);
    const ids = siteIds(500);
    const before = new Map(ids.map((id) => [id, shardOf(id, 16)]));
    const grown = [...ids, ...siteIds(1000).slice(500)];
    for (const id of ids) expect(shardOf(id, 16)).toBe(before.get(id));
    expect(grown.every((id) => shardOf(id, 16) >= 1 && shardOf(id, 16) <= 16)).toBe(true);
  });

  it("balances 10,000 sites as a uniform random split would (every shard within 4 standard deviations), each site in exactly one", () => {
    const ids = siteIds(10_000);
    for (const count of [16, 64]) {
      const sizes = new Array<number>(count).fill(0);
      for (const id of ids) sizes[shardOf(id, count) - 1]!++;
      const mean = ids.length / count;
      const sd = Math.sqrt(mean * (1 - 1 / count));
      for (const size of sizes) expect(Math.abs(size - mean), `count ${count}: ${sizes.join(" ")}`).toBeLessThan(4 * sd);
      for (const id of ids.slice(0, 50)) {
        const owners = Array.from({ length: count }, (_, i) => inShard(id, { index: i + 1, count })).filter(Boolean);
        expect(owners).toHaveLength(1);
      }
    }
  });

  it("makes the matrix of N shards, up to GitHub's limit", () => {
    expect(shardMatrix(3)).toEqual({ include: [{ shard: "1/3" }, { shard: "2/3" }, { shard: "3/3" }] });
    expect(shardMatrix(MAX_MATRIX_JOBS).include).toHaveLength(256);
    expect(() => shardMatrix(257)).toThrow(/limit of 256 jobs per matrix/);
  });
});
