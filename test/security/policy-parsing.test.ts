// Issue 48 item 7: a vulnerability policy is read strictly. A date-time that is no calendar day (`2026-02-31T...`,
// which Date rolls to 3 March) is refused as the date form is; `expires` at most two years ahead; a key twice in
// one object of a `.json` policy refused as YAML refuses it; an unknown YAML tag a clean error, with nothing printed
// by the parser itself. And what held in the audit and must keep holding: alias bombs, deep nesting, `__proto__`
// and `constructor` keys, duplicate YAML keys, `!!binary`, odd timestamps. The reading the CLI and the action share
// (common/policy-text.ts) and the core's parseVulnerabilityPolicy, as both call them.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileSyntaxError, parseDataText } from "../../common/policy-text.js";
import { parseVulnerabilityPolicy } from "../../src/fleet.js";

const NOW = new Date("2026-11-29T12:00:00Z");
const entry = (expires: string) => `accept:\n  - cve: CVE-2024-47890\n    reason: tolerable_risk\n    justification: WAF\n    expires: ${expires}\n`;
const read = async (file: string, text: string) => parseVulnerabilityPolicy(await parseDataText(file, text), { now: NOW });

let warnings: string[];
const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
beforeEach(() => {
  warnings = [];
  process.on("warning", onWarning);
});
afterEach(() => {
  process.off("warning", onWarning);
  // The parser prints nothing of its own (a YAMLWarning quotes the source): every problem is the error.
  expect(warnings).toEqual([]);
});

describe("expires", () => {
  it.each(["2026-02-31T00:00:00Z", "2027-02-29T12:00:00+01:00", "2026-12-31T24:00:00Z", "2026-12-31T23:60:00Z", "2026-12-31T12:00:00+25:00"])(
    "a date-time that is no calendar day or time is refused: %s",
    async (expires) => {
      await expect(read("p.yml", entry(expires))).rejects.toThrow(/^accept\[0\]\.expires: is not a calendar date and time$/);
    },
  );

  it("a real day and time, leap day included, is read as that instant", async () => {
    const p = await read("p.yml", entry("2028-02-29T23:59:59Z"));
    expect(p.accept[0]!.expiresAt).toBe(Date.parse("2028-02-29T23:59:59Z"));
  });

  it("at most two years ahead: 9999-12-31 and the day after the limit are refused; the limit and the past are read", async () => {
    for (const expires of ["9999-12-31", "2028-11-30", "2028-11-30T00:00:01Z"])
      await expect(read("p.yml", entry(expires))).rejects.toThrow(
        /^accept\[0\]\.expires: is more than two years ahead \(the latest is 2028-11-29\): an acceptance is reviewed again at least every two years/,
      );
    for (const expires of ["2028-11-29", "2028-11-30T00:00:00Z", "2028-11-29T23:00:00-01:00", "2020-01-01"])
      await expect(read("p.yml", entry(expires))).resolves.toBeDefined();
  });
});

describe("JSON and YAML text", () => {
  it("a key twice in one object of a .json policy is refused, naming the line, as YAML refuses it", async () => {
    const json =
      '{\n  "accept": [\n    {"cve": "CVE-2024-47890", "reason": "not_used",\n     "reason": "tolerable_risk", "justification": "x", "expires": "2027-01-01"}\n  ]\n}';
    await expect(read("p.json", json)).rejects.toThrow(new FileSyntaxError("not valid JSON at line 4: Map keys must be unique (a key twice in one object)"));
    await expect(read("p.json", '{"accept": [], "\\u0061ccept": []}')).rejects.toThrow(/^not valid JSON at line 1: Map keys must be unique/);
    // The same key in two objects, or as a string value, is no duplicate.
    const ok =
      '{"accept": [{"cve": "CVE-2024-47890", "reason": "not_used", "justification": "reason", "expires": "2027-01-01"},\n {"cve": "CVE-2024-47891", "reason": "not_used", "justification": "x \\" reason", "expires": "2027-01-01"}]}';
    expect((await read("p.json", ok)).accept).toHaveLength(2);
    await expect(read("p.yml", "accept: []\naccept: []\n")).rejects.toThrow(/^not valid YAML at line 2: Map keys must be unique/);
  });

  it("an unknown YAML tag is a clean error naming the line", async () => {
    await expect(read("p.yml", "accept:\n  - !secret-loader x\n")).rejects.toThrow(new FileSyntaxError("not valid YAML at line 2: an unknown tag"));
    await expect(read("p.yml", "%YAML 9.9\n---\naccept: []\n")).rejects.toThrow(/^not valid YAML at line 1: Unsupported YAML version/);
  });

  it("keeps refusing alias bombs, deep nesting, __proto__ and constructor keys, !!binary and odd timestamps", async () => {
    const bomb = [
      "a: &a [x, x, x, x, x, x, x, x, x]",
      ...Array.from({ length: 8 }, (_, i) => `${"bcdefghi"[i]}: &${"bcdefghi"[i]} [${Array(9).fill(`*${"abcdefgh"[i]}`).join(", ")}]`),
      "accept: []",
    ].join("\n");
    await expect(read("p.yml", bomb)).rejects.toThrow(/^not valid YAML: Excessive alias count/);
    await expect(read("p.yml", `accept: ${"[".repeat(10_000)}${"]".repeat(10_000)}`)).rejects.toThrow(/^not valid YAML/);
    await expect(read("p.json", `{"accept": ${"[".repeat(10_000)}${"]".repeat(10_000)}}`)).rejects.toThrow();
    await expect(read("p.yml", "__proto__: {}\naccept: []\n")).rejects.toThrow(/^__proto__: is not a key of a policy/);
    await expect(read("p.json", '{"accept": [], "constructor": 1}')).rejects.toThrow(/^constructor: is not a key of a policy/);
    await expect(read("p.json", '{"accept": [{"__proto__": {"reason": "not_used"}}]}')).rejects.toThrow(
      /^accept\[0\]\.__proto__: is not a key of an acceptance/,
    );
    await expect(read("p.yml", "accept:\n  - cve: !!binary Q1ZFLTIwMjQtNDc4OTA=\n")).rejects.toThrow(
      /^accept\[0\]\.cve: must be a non-empty string \(got a mapping\)/,
    );
    await expect(read("p.yml", entry("2026-12-31 10:00"))).rejects.toThrow(/^accept\[0\]\.expires: must be a date/);
    await expect(read("p.yml", entry("2026-13-01"))).rejects.toThrow(/^accept\[0\]\.expires: is not a calendar date$/);
  });
});
