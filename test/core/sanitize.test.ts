// common/sanitize.ts, the one neutraliser of service text for the CLI and the GitHub Action (both also tested
// end to end: test/cli/sanitize.test.ts, test/action/hostile-text.test.ts).
import { describe, expect, it } from "vitest";
import { clean, guardLine, inertLine, safeJson } from "../../common/sanitize.js";

describe("sanitize", () => {
  it("escapes control characters, separators, bidi overrides and the runner's ##[ syntax", () => {
    expect(clean("a\nb\r\t\u0000\u001b[31m\u009b\u2028\u202e##[warning]x")).toBe(String.raw`a\nb\r\t\x00\x1b[31m\x9b\u2028\u202e##\x5bwarning]x`);
    expect(clean(null)).toBe("");
    expect(clean("Blog — café ✓")).toBe("Blog — café ✓");
  });

  it("keeps a workflow command from starting a line, also after leading whitespace", () => {
    expect(guardLine("::warning::x")).toBe(String.raw`\x3a:warning::x`);
    expect(guardLine(" \u00a0 ::add-mask::x")).toBe(" \u00a0 \\x3a:add-mask::x");
    expect(guardLine("site ::warning::x")).toBe("site ::warning::x");
    expect(inertLine("evil\n::warning title=injected::INJECTED")).toBe(String.raw`evil\n::warning title=injected::INJECTED`);
    expect(inertLine("::error::x\n")).toBe(String.raw`\x3a:error::x\n`);
  });

  it("writes JSON with the same value and no raw character that acts on a terminal", () => {
    const value = { name: "a\u009b\u202e\n##[x" };
    const text = safeJson(value);
    expect(text).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]|##\[/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
