// Issue 38 item 7: fault globs could stall the server within the schema's limits (100 rules of 499
// characters, `"/api/v1/" + "*a" x 245 + "x"`, and one unauthenticated 14 KB path took seconds, a concurrent
// /me waiting as long). The matcher's cost is held to its complexity bound by counting its word operations
// (path length x words, a word per 32 glob characters), never by a clock; the rules in place are bounded in
// number and in total characters; and the pathological rules still match exactly what they should.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { MAX_FAULT_GLOB_CHARS, MAX_FAULT_RULES } from "../../emulator/control/faults.js";
import { compileGlob, globMatches, type GlobMeter } from "../../emulator/control/glob.js";
import { TOKENS, api, startTestEmulator } from "../emulator/helpers.js";
import { send } from "./helpers.js";

const PATHOLOGICAL = `/api/v1/${"*a".repeat(245)}x`;
const LONG_PATH = `/api/v1/${"a".repeat(14_000)}`;

/** The reference: the glob as a regular expression (fine on short inputs). */
function reference(glob: string, path: string): boolean {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      while (glob[i + 1] === "*") i++;
      source += ".*";
    } else if (c === "*") source += "[^/]*";
    else if (c === "?") source += "[^/]";
    else source += c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "s").test(path);
}

describe("the glob matcher", () => {
  it("matches the pathological glob exactly, within path length x words word operations", () => {
    const glob = compileGlob(PATHOLOGICAL);
    const bound = (path: string): number => path.length * glob.words;
    const cases: [string, boolean][] = [
      [LONG_PATH, false],
      [`${LONG_PATH}x`, true],
      [`${LONG_PATH.slice(0, 7_000)}/${LONG_PATH.slice(7_001)}x`, false], // "*" does not cross "/"
      [`/api/v1/${"a".repeat(244)}x`, false], // one "a" short
      [`/api/v1/${"a".repeat(245)}x`, true],
    ];
    for (const [path, expected] of cases) {
      const meter: GlobMeter = { steps: 0 };
      expect(globMatches(glob, path, meter)).toBe(expected);
      expect(meter.steps).toBeGreaterThan(0);
      expect(meter.steps).toBeLessThanOrEqual(bound(path));
    }
    // A word holds 32 glob positions: the 499-character glob is 16 words, not 499 steps per character.
    expect(glob.words).toBe(Math.ceil((glob.size + 1) / 32));
    expect(glob.words).toBeLessThanOrEqual(16);
  });

  it("a path without the glob's literal prefix costs no step", () => {
    const meter: GlobMeter = { steps: 0 };
    expect(globMatches(compileGlob(PATHOLOGICAL), `/api/v2/${"a".repeat(14_000)}x`, meter)).toBe(false);
    expect(meter.steps).toBe(0);
  });

  it("agrees with the regular-expression reading on every glob and path over a small alphabet", () => {
    const alphabet = ["a", "b", "/", "*", "**", "?"];
    const pathAlphabet = ["a", "b", "/"];
    let seed = 38;
    const random = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 3_000; round++) {
      const glob = Array.from({ length: random(8) }, () => alphabet[random(alphabet.length)]).join("");
      const path = Array.from({ length: random(10) }, () => pathAlphabet[random(pathAlphabet.length)]).join("");
      expect(globMatches(compileGlob(glob), path), `${glob} on ${path}`).toBe(reference(glob, path));
    }
    // Words past the first: a glob of 70 positions on a path that needs all of them.
    const wide = `${"?".repeat(40)}*${"b".repeat(29)}`;
    expect(globMatches(compileGlob(wide), `${"a".repeat(45)}${"b".repeat(29)}`)).toBe(true);
    expect(globMatches(compileGlob(wide), `${"a".repeat(45)}${"b".repeat(28)}`)).toBe(false);
  });
});

describe("POST /__emulator/faults", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator();
  });
  afterAll(async () => emu?.close());

  const setFaults = (rules: { path: string; status: number }[]) => api(emu, "POST", "/__emulator/faults", { body: { rules } });

  it("refuses the report's 100 rules of 499 characters (422, nothing set)", async () => {
    await api(emu, "DELETE", "/__emulator/faults");
    const res = await setFaults(Array.from({ length: 100 }, () => ({ path: PATHOLOGICAL, status: 503 })));
    expect(res.status).toBe(422);
    expect(res.body.error).toContain(String(MAX_FAULT_GLOB_CHARS));
    expect((await api(emu, "GET", "/__emulator/faults")).body.rules).toEqual([]);
  });

  it("counts the rules already in place: adding past the limit in several requests is refused too", async () => {
    await api(emu, "DELETE", "/__emulator/faults");
    const rule = { path: "/api/v1/nothing-here", status: 503 };
    expect((await setFaults(Array.from({ length: MAX_FAULT_RULES }, () => rule))).status).toBe(200);
    expect((await setFaults([rule])).status).toBe(422);
    expect((await api(emu, "GET", "/__emulator/faults")).body.rules).toHaveLength(MAX_FAULT_RULES);
    await api(emu, "DELETE", "/__emulator/faults");
  });

  it("with the most pathological rules allowed, a 14 KB unauthenticated path and a concurrent /me are answered", async () => {
    await api(emu, "DELETE", "/__emulator/faults");
    const count = Math.floor(MAX_FAULT_GLOB_CHARS / PATHOLOGICAL.length);
    expect((await setFaults(Array.from({ length: count }, () => ({ path: PATHOLOGICAL, status: 503 })))).status).toBe(200);
    try {
      const [long, struck, me] = await Promise.all([
        send(emu.port, "GET", LONG_PATH),
        send(emu.port, "GET", `${LONG_PATH}x`),
        api(emu, "GET", "/me", { token: TOKENS.owner }),
      ]);
      expect(long.status).toBe(404); // no rule matches: on to the router
      expect(struck.status).toBe(503); // the rule matches
      expect(me.status).toBe(200);
    } finally {
      await api(emu, "DELETE", "/__emulator/faults");
    }
  });
});
