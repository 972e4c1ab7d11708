// Service data is data in the job log too (issue 17): a site named to forge workflow commands
// ("evil\n::warning ...::INJECTED\n::add-mask::Acme"), or carrying terminal escapes, is printed inert by the
// bundled action in its log lines, annotations, failure line, job summary and outputs. The names are written
// into the emulator's store directly (its API and seed refuse control characters), so that it sends them as a
// service with such data stored would.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { updateSiteRow } from "../../emulator/store/sites.js";
import type { Site } from "../../src/index.js";
import { fleetEmulator, setFaults } from "./fleet-emulator.js";
import { runAction, type ActionRun } from "./run-action.js";

const TOKEN = "sot_actionHostileTestToken0001";
const EVIL = "evil\n::warning title=injected::INJECTED\n::add-mask::Acme";
const LEADING = "   ::error::leading spaces\u001b[31mRED\u001b]0;title\u0007\u202eNAME";
const LEGACY = "old ##[warning]legacy command";

let emu: RunningEmulator;

beforeAll(async () => {
  let fleet: Site[];
  ({ emu, fleet } = await fleetEmulator(TOKEN, 3));
  const hostile: { name: string; url?: string }[] = [{ name: EVIL, url: "https://evil.example.com\n::warning::url" }, { name: LEADING }, { name: LEGACY }];
  fleet.forEach((site, i) => updateSiteRow(emu.context.db, site.id, hostile[i]!));
});
afterAll(async () => emu?.close());

const run = (inputs: Record<string, string>, env: Record<string, string> = {}) =>
  runAction({ "api-token": TOKEN, "base-url": emu.url, command: "snapshot", ...inputs }, { SITEOPS_POLL_INTERVAL_MS: "20", ...env });

/** The only workflow commands in the log are the action's own: the token's mask and its annotations. */
function expectInert(r: ActionRun): void {
  for (const line of r.stdout.split("\n")) {
    const command = /^\s*::([\w-]+)/.exec(line)?.[1];
    if (command) expect(["add-mask", "error", "warning", "notice"]).toContain(command);
    if (command === "add-mask") expect(line).toBe(`::add-mask::${TOKEN}`);
    if (command && command !== "add-mask") expect(line).toMatch(/^::(error|warning|notice)( title=[^:]*)?::/);
    expect(line).not.toContain("##[");
  }
  expect(r.stdout).not.toMatch(/^::warning title=injected/m);
  expect(r.stdout).not.toMatch(/^::add-mask::Acme/m);
  for (const text of [r.stdout, r.stderr, r.summary, ...Object.values(r.outputs)]) {
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
  }
}

describe("hostile site names", () => {
  it("cannot start a line, forge a command or reach the terminal in the log, summary or outputs", async () => {
    const r = await run({ site: "all", concurrency: "3" });
    expect(r.code).toBe(0);
    expectInert(r);
    expect(r.stdout).toContain(String.raw`evil\n::warning title=injected::INJECTED\n::add-mask::Acme: snapshot snap_`);
    expect(r.stdout).toMatch(/^ {3}\\x3a:error::leading spaces\\x1b\[31mRED\\x1b\]0;title\\x07\\u202eNAME: snapshot snap_/m);
    expect(r.stdout).toContain(String.raw`old ##\x5bwarning]legacy command: snapshot snap_`);
    // In the summary's HTML a raw newline could end the HTML block and turn the rest into Markdown.
    expect(r.summary).toContain(String.raw`evil\n::warning title=injected::INJECTED\n::add-mask::Acme`);
    expect(r.summary).not.toContain('<a href="https://evil.example.com\n');
    // JSON outputs stay exact: the name decodes to what the service holds.
    const result = JSON.parse(r.outputs.result!) as { snapshots: { site: { name: string } }[] };
    expect(result.snapshots.map((s) => s.site.name).sort()).toEqual([EVIL, LEADING, LEGACY].sort());
  });

  it("stay inert in annotations and the failure line", async () => {
    await setFaults(emu, [{ method: "POST", path: "/api/v1/sites/*/snapshots", status: 422 }]);
    try {
      const r = await run({ site: "all" });
      expect(r.code).toBe(1);
      expectInert(r);
      expect(r.errors.length).toBe(4); // one per site, then the step's failure line
      expect(r.errors.join("\n")).toContain(String.raw`evil\n::warning title=injected::INJECTED`);
    } finally {
      await setFaults(emu);
    }
  });

  it("closes every summary cell, also an empty size", async () => {
    const r = await run({ site: "all", wait: "false" });
    expect(r.code).toBe(0);
    expect(r.summary.match(/<td>/g)?.length).toBe(r.summary.match(/<\/td>/g)?.length);
    expect(r.summary).toContain("<td>&nbsp;</td>");
    expectInert(r);
  });
});
