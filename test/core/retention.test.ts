// The retention decisions (restic's forget rules) on their own: what is kept and why, running and failed
// snapshots, the newest completed one always kept, time zones, and invalid policies. (test/cli/prune.test.ts
// checks the same decisions against restic itself, through the CLI and the emulator.)
import { afterEach, describe, expect, it } from "vitest";
import { type RetentionPolicy } from "../../src/index.js";
import { applyRetention, RetentionPolicyError } from "../../src/fleet.js";

const snap = (id: string, created_at: string, status = "completed") => ({ id, created_at, status });
const kept = (decisions: { keep: boolean; snapshot: { id: string } }[]) => decisions.filter((d) => d.keep).map((d) => d.snapshot.id);

describe("applyRetention", () => {
  const tz = process.env.TZ;
  afterEach(() => {
    process.env.TZ = tz;
  });

  it("keeps the newest snapshot of each period, newest first, with restic's reasons", () => {
    const list = [snap("d", "2100-03-06T10:00:00Z"), snap("c", "2100-03-06T03:00:00Z"), snap("b", "2100-03-05T03:00:00Z"), snap("a", "2100-03-04T03:00:00Z")];
    const decisions = applyRetention(list, { keepLast: 1, keepDaily: 2 }, { timeZone: "utc" });
    expect(decisions.map((d) => [d.snapshot.id, d.keep, d.reasons])).toEqual([
      ["d", true, ["last snapshot", "daily snapshot"]],
      ["c", false, ["no rule keeps it"]],
      ["b", true, ["daily snapshot"]],
      ["a", false, ["no rule keeps it"]],
    ]);
  });

  it("sorts by creation time whatever the order given", () => {
    const list = [snap("a", "2100-03-04T03:00:00Z"), snap("c", "2100-03-06T03:00:00Z"), snap("b", "2100-03-05T03:00:00Z")];
    expect(kept(applyRetention(list, { keepLast: 2 }))).toEqual(["c", "b"]);
  });

  it("a rule with periods left also keeps the oldest snapshot (restic >= 0.16)", () => {
    const list = [snap("b", "2100-03-05T12:00:00Z"), snap("a", "2100-03-05T03:00:00Z")];
    const decisions = applyRetention(list, { keepDaily: 3 }, { timeZone: "utc" });
    expect(decisions.map((d) => d.reasons)).toEqual([["daily snapshot"], ["oldest daily snapshot"]]);
  });

  it("never deletes a running snapshot; a failed one counts for no rule", () => {
    const list = [
      snap("run", "2100-03-07T03:00:00Z", "in_progress"),
      snap("req", "2100-03-07T02:00:00Z", "requested"),
      snap("bad", "2100-03-06T23:00:00Z", "failed"),
      snap("ok", "2100-03-06T03:00:00Z"),
      snap("old", "2100-03-05T03:00:00Z"),
    ];
    const decisions = applyRetention(list, { keepLast: 1 });
    expect(decisions.map((d) => [d.snapshot.id, d.keep, d.reasons[0]])).toEqual([
      ["run", true, "still running"],
      ["req", true, "still running"],
      ["bad", false, "failed"],
      ["ok", true, "last snapshot"],
      ["old", false, "no rule keeps it"],
    ]);
  });

  it("keepWithin keeps what is less than the duration older than the newest completed snapshot", () => {
    const day = 86_400_000;
    const list = [snap("new", "2100-03-10T00:00:00Z"), snap("six", "2100-03-04T00:00:01Z"), snap("seven", "2100-03-03T00:00:00Z")];
    const decisions = applyRetention(list, { keepWithin: { ms: 7 * day, label: "7d" } });
    expect(decisions.map((d) => [d.snapshot.id, d.keep, d.reasons])).toEqual([
      ["new", true, ["within 7d"]],
      ["six", true, ["within 7d"]],
      ["seven", false, ["no rule keeps it"]],
    ]);
  });

  it("always keeps the newest completed snapshot, whatever the policy", () => {
    const policies: RetentionPolicy[] = [
      { keepLast: 1 },
      { keepHourly: 1 },
      { keepDaily: 1 },
      { keepWeekly: 1 },
      { keepMonthly: 1 },
      { keepYearly: 1 },
      { keepWithin: { ms: 1, label: "1ms" } },
      { keepDaily: -1 },
    ];
    for (let seed = 1; seed <= 20; seed++) {
      let x = seed;
      const random = () => (x = (x * 48271) % 2147483647) / 2147483647;
      const list = Array.from({ length: 12 }, (_, i) =>
        snap(`s${i}`, new Date(Date.UTC(2100, 0, 1) + Math.floor(random() * 400 * 86_400_000)).toISOString(), random() < 0.3 ? "failed" : "completed"),
      );
      const newest = list.filter((s) => s.status === "completed").sort((a, b) => b.created_at.localeCompare(a.created_at))[0];
      for (const policy of policies) {
        const decisions = applyRetention(list, policy);
        if (newest) expect(decisions.find((d) => d.snapshot.id === newest.id)!.keep, JSON.stringify(policy)).toBe(true);
      }
    }
  });

  it("counts days in the local time zone by default, or in UTC", () => {
    const list = [snap("c", "2100-03-06T00:30:00Z"), snap("b", "2100-03-05T23:30:00Z"), snap("a", "2100-03-04T12:00:00Z")];
    process.env.TZ = "America/New_York"; // c and b are both on 2100-03-05 there
    expect(kept(applyRetention(list, { keepDaily: 2 }))).toEqual(["c", "a"]);
    expect(kept(applyRetention(list, { keepDaily: 2 }, { timeZone: "utc" }))).toEqual(["c", "b"]);
  });

  it("weeks are ISO weeks: Monday to Sunday, week 1 holds the year's first Thursday", () => {
    // 2099-12-31 is a Thursday: 2099-12-28 (Mon) .. 2100-01-03 (Sun) are week 2099-W53.
    const list = [
      snap("mon", "2100-01-04T03:00:00Z"),
      snap("sun", "2100-01-03T03:00:00Z"),
      snap("mon53", "2099-12-28T03:00:00Z"),
      snap("sun52", "2099-12-27T03:00:00Z"),
    ];
    expect(kept(applyRetention(list, { keepWeekly: 3 }, { timeZone: "utc" }))).toEqual(["mon", "sun", "sun52"]);
  });

  it("refuses an empty policy and bad counts", () => {
    expect(() => applyRetention([], {})).toThrow(RetentionPolicyError);
    expect(() => applyRetention([], { keepLast: 0 })).toThrow(/keeps nothing/);
    expect(() => applyRetention([], { keepDaily: -2 })).toThrow(/keepDaily must be a whole number >= 0, or -1 for unlimited/);
    expect(() => applyRetention([], { keepDaily: 1.5 })).toThrow(RetentionPolicyError);
  });
});
