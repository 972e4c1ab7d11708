// What a person at a terminal sees (under a pseudo-terminal: util-linux `script`) against what cron or a CI
// log gets: aligned tables with colours and a live progress block that collapses into a summary table, versus
// no escape codes at all and one timestamped line per event. Interactive login with hidden password input.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD } from "../core/helpers.js";
import { runCli, runInTerminal, sandbox, transcripts, useTestBed } from "./helpers.js";

const ESC = "\u001b";
// Snapshots take two steps of 0.4 s: long enough for the live block to show them running.
const bed = useTestBed({ stepSeconds: 0.4 }, { TERM: "xterm-256color" });
beforeAll(async () => {
  for (let i = 1; i <= 4; i++) await bed.emu.so.sites.create({ name: `Store ${i}`, url: `https://store-${i}.acme.test` });
});
afterAll(() => {
  for (const text of transcripts) expect(text).not.toContain(PASSWORD);
});

/** The text with colour codes removed (the other escapes kept). */
const uncolored = (text: string) => text.replace(/\u001b\[\d+m/g, "");

describe("on a terminal", () => {
  it("sites list is a table with a header, aligned columns and coloured states", async () => {
    const r = await runInTerminal(["sites", "list"], bed.env);
    expect(r.code).toBe(0);
    const lines = uncolored(r.stdout).split(/\r?\n/).filter(Boolean);
    expect(lines[0]).toMatch(/^ID\s+NAME\s+STATUS\s+WP\s+PHP\s+URL$/);
    const nameColumn = lines[0]!.indexOf("NAME");
    for (const line of lines.slice(1)) expect(line.slice(nameColumn - 2, nameColumn)).toBe("  ");
    expect(r.stdout).toMatch(/^\u001b\[1mID {2}/); // bold header
    expect(r.stdout).toMatch(/\u001b\[3[23]m(healthy|unknown|degraded)\u001b\[39m|\u001b\[32mhealthy/);

    const plain = await runInTerminal(["sites", "list"], { ...bed.env, NO_COLOR: "1" });
    expect(plain.stdout).not.toMatch(/\u001b\[\d+m/);
    expect(plain.stdout).toMatch(/^ID\s+NAME\s+STATUS/);
  });

  it("snapshot create --all shows live progress per running site, then a summary table", async () => {
    const r = await runInTerminal(["snapshot", "create", "--window", "0", "--all", "--concurrency", "3"], bed.env);
    expect(r.code, r.stdout).toBe(0);
    const out = r.stdout;
    expect(out).toContain(`${ESC}[?25l`); // cursor hidden while the block is redrawn ...
    expect(out).toContain(`${ESC}[?25h`); // ... and shown again
    expect(out).toMatch(/\u001b\[\d+F\u001b\[0J/); // redrawn in place
    const text = uncolored(out);
    expect(text).toMatch(/snapshots: \d\/6 done, 3 running/);
    expect(text).toMatch(/ {2}Store \d +snap_\w+ +(requested|in_progress) +\d/);
    expect(text).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /); // no log timestamps on a terminal
    const table = text.slice(text.lastIndexOf("SITE"));
    expect(table).toMatch(/^SITE\s+SNAPSHOT\s+RESULT\s+SIZE\s+TIME\s+ERROR/);
    expect(table.split(/\r?\n/).filter((l) => /snap_\w+\s+completed/.test(l))).toHaveLength(6);
    expect(text).toMatch(/done: 6 of 6 snapshots completed/);
  });

  it("auth login asks for the email and the password, without echoing the password", async () => {
    const b = sandbox();
    try {
      const r = await runInTerminal(["auth", "login", "--base-url", bed.emu.url], b.env, {
        answers: [
          [/Email: /, "owner@acme.test\r"],
          [/Password: /, `${PASSWORD}\r`],
        ],
      });
      expect(r.code, r.stdout).toBe(0);
      expect(r.stdout).toMatch(/Email: owner@acme\.test/);
      expect(r.stdout).toMatch(/Logged in to http:\/\/127\.0\.0\.1:\d+ as owner@acme\.test/);
      expect((await runCli(["me", "--json=email"], { env: b.env })).stdout).toContain("owner@acme.test");
    } finally {
      b.cleanup();
    }
  });
});

describe("not on a terminal", () => {
  it("snapshot create --all prints no escape codes, one timestamped line per event", async () => {
    const r = await runCli(["snapshot", "create", "--window", "0", "--all", "--concurrency", "3"], { env: bed.env });
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(ESC);
    const lines = r.stderr.trim().split("\n");
    for (const line of lines) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \S/);
    expect(lines.filter((l) => /: snapshot snap_\w+ created \(requested\)$/.test(l))).toHaveLength(6);
    expect(lines.filter((l) => /: snapshot snap_\w+ is in_progress$/.test(l))).toHaveLength(6);
    expect(lines.filter((l) => /: snapshot snap_\w+ completed, [\d.]+ MiB in /.test(l))).toHaveLength(6);
    expect(
      r.stdout
        .replace(/\n$/, "")
        .split("\n")
        .map((l) => l.split("\t").length),
    ).toEqual([7, 7, 7, 7, 7, 7]);
  });

  it("FORCE_COLOR colours the messages (never tab-separated data), --no-color turns them off again", async () => {
    const forced = await runCli(["sites", "get", "Nope"], { env: { ...bed.env, FORCE_COLOR: "1" } });
    expect(forced.stderr).toContain(`${ESC}[31merror:${ESC}[39m`);
    const off = await runCli(["sites", "get", "Nope", "--no-color"], { env: { ...bed.env, FORCE_COLOR: "1" } });
    expect(off.stderr).not.toContain(ESC);
    expect((await runCli(["sites", "list"], { env: { ...bed.env, FORCE_COLOR: "1" } })).stdout).not.toContain(ESC);
  });
});
