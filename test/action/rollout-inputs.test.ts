// The rollout's options are declared once, in the core (ROLLOUT_OPTIONS): the action's inputs are read through that
// declaration, and action.yml, which the runner and the README show, must say what it says: each option's input is
// declared there with the declaration's description and default (in the unit the input's name says). The CLI's
// flags are derived from the same declaration (test/cli/rollout-messy.test.ts reads its help).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { defaultText, ROLLOUT_OPTIONS } from "../../src/fleet.js";
import { ROOT } from "../support/paths.js";

/** action.yml's inputs and their descriptions (one `description: "..."` line each). */
function inputs(): Map<string, string> {
  const out = new Map<string, string>();
  let input = "";
  for (const line of readFileSync(path.join(ROOT, "action/action.yml"), "utf8").split("\n")) {
    if (/^outputs:/.test(line)) break;
    const name = /^ {2}([\w-]+):\s*$/.exec(line);
    if (name) input = name[1]!;
    const description = /^ {4}description: "(.*)"$/.exec(line);
    if (description && input) out.set(input, description[1]!.replace(/\\"/g, '"'));
  }
  return out;
}

describe("action.yml and the core's declaration of the rollout's options", () => {
  it("declares every option's input with its description and its default", () => {
    const declared = inputs();
    for (const option of ROLLOUT_OPTIONS) {
      const description = declared.get(option.input);
      expect(description, option.input).toBeDefined();
      const rollout = description!.slice(description!.indexOf("rollout: ") >= 0 ? description!.lastIndexOf("rollout:") : 0);
      expect(rollout, option.input).toContain(option.description);
      const d = defaultText(option, "units");
      if (d !== undefined) expect(rollout, option.input).toContain(`Default: ${d}.`);
    }
  });

  it("gives no input a default the runner would always set: the core's default is the one that holds", () => {
    const yml = readFileSync(path.join(ROOT, "action/action.yml"), "utf8");
    for (const option of ROLLOUT_OPTIONS) {
      const block = new RegExp(`\\n {2}${option.input}:\\n(( {4}.*\\n)+)`).exec(yml)![1]!;
      expect(block, option.input).not.toMatch(/^ {4}default:/m);
    }
  });
});
