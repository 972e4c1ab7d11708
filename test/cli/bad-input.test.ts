// Bad input gets one precise line and exit 2 before anything is changed: no stack trace, nothing half done.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { OWNER_TOKEN } from "../core/helpers.js";
import { runCli, sandbox, useTestBed } from "./helpers.js";

const bed = useTestBed();
beforeAll(async () => {
  // Two sites with the same name.
  await bed.emu.so.sites.create({ name: "Twin", url: "https://twin-1.acme.test" });
  await bed.emu.so.sites.create({ name: "Twin", url: "https://twin-2.acme.test" });
});

async function writes(): Promise<number> {
  const entries = await bed.emu.so.activityLogs.list({ per_page: 100 }).toArray();
  return entries.length;
}

function expectOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split("\n");
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe("bad input", () => {
  const cases: [string, string[], RegExp][] = [
    [
      "unknown flag",
      ["snapshot", "create", "--site", "Blog", "--concurency", "4"],
      // Named as typed: `snapshot` is an alias of `snapshots`.
      /^error: unknown flag --concurency for siteops snapshot create \(did you mean --concurrency\?\); see siteops snapshot create --help$/,
    ],
    [
      "unknown flag, by the command's own name",
      ["snapshots", "create", "--site", "Blog", "--concurency", "4"],
      /^error: unknown flag --concurency for siteops snapshots create \(did you mean --concurrency\?\); see siteops snapshots create --help$/,
    ],
    ["an alias's missing argument", ["pipeline", "get"], /^error: missing PIPELINE_ID: usage: siteops pipeline get PIPELINE_ID/],
    ["missing --site", ["snapshot", "create"], /^error: which sites\? give --site ID\|NAME \(repeatable\), --all or --sites-from FILE$/],
    [
      "a bad duration",
      ["snapshot", "prune", "--all", "--keep-last", "3", "--older-than", "3x"],
      /^error: --older-than: "3x" is not a duration \(use a number and a unit/,
    ],
    ["a bad timeout", ["snapshot", "create", "--all", "--timeout", "soon"], /^error: --timeout: "soon" is not a duration/],
    ["an unknown site name", ["snapshot", "create", "--site", "Blgo"], /^error: no site with the exact name "Blgo" in this account \(it has \d+ sites\)$/],
    ["a name in another case", ["snapshot", "create", "--site", "blog"], /did you mean "Blog"\?$/],
    [
      "two sites with the same name",
      ["snapshot", "create", "--site", "Twin"],
      /^error: 2 sites are named "Twin": give one of their ids instead \(site_\w+, site_\w+\)$/,
    ],
    ["--upload with several sites", ["snapshot", "create", "--all", "--upload", "-"], /^error: --upload needs exactly one --site/],
    [
      "a missing upload file",
      ["snapshot", "create", "--site", "Blog", "--upload", "/nonexistent/dump.sql"],
      /^error: --upload \/nonexistent\/dump\.sql: no such file$/,
    ],
    ["an empty policy", ["snapshot", "prune", "--all"], /^error: no retention policy: give at least one of --keep-last/],
    [
      "a bad keep count",
      ["snapshot", "prune", "--all", "--keep-daily", "seven"],
      /^error: --keep-daily must be a whole number from 0 to 1000000 \(got "seven"\)/,
    ],
    ["a bad choice", ["snapshot", "create", "--site", "Blog", "--trigger", "hourly"], /^error: --trigger must be one of manual, scheduled \(got "hourly"\)$/],
    ["a bad shard", ["snapshot", "create", "--all", "--shard", "17/16"], /^error: --shard "17\/16": the index must be from 1 to 16$/],
    [
      "too much concurrency",
      ["snapshot", "create", "--all", "--concurrency", "100"],
      /^error: --concurrency must be a whole number from 1 to 64 \(got "100"\)$/,
    ],
    ["a flag given twice", ["snapshot", "create", "--all", "--timeout", "1m", "--timeout", "2m"], /^error: --timeout is given twice$/],
    ["an unknown JSON field", ["sites", "list", "--json=id,nme"], /^error: --json: unknown field nme \(fields: id, name, url/],
    ["an extra argument", ["sites", "list", "Blog"], /^error: siteops sites list takes no arguments \(got "Blog"\)$/],
    ["an unknown subcommand", ["sites", "lst"], /^error: unknown command "lst" for siteops sites \(did you mean list\? commands: list, get/],
    ["a mistyped subcommand", ["sites", "craete"], /^error: unknown command "craete" for siteops sites \(did you mean create\? commands: /],
    ["a mistyped command", ["snapshotz"], /^error: unknown command "snapshotz" \(did you mean snapshots\?\); see siteops --help$/],
    ["an unknown command", ["deploy"], /^error: unknown command "deploy"; see siteops --help$/],
    [
      "approve with neither a pipeline nor a site",
      ["upgrade", "approve"],
      /^error: give the pipeline: PIPELINE_ID, or --site ID\|NAME for the site's pipeline/,
    ],
    ["a lock with --no-lock", ["snapshot", "create", "--all", "--lock", "/tmp/x.lock", "--no-lock"], /^error: give --lock FILE or --no-lock, not both$/],
    [
      "a report in a missing directory",
      ["snapshot", "create", "--all", "--report", "/nonexistent/dir/report.json"],
      /^error: --report \/nonexistent\/dir\/report\.json: the directory \/nonexistent\/dir does not exist$/,
    ],
  ];
  for (const [what, args, pattern] of cases) {
    it(`${what}: one line, exit 2, nothing changed`, async () => {
      const before = await writes();
      const r = await runCli(args, { env: bed.env });
      expect(r.code, r.stderr).toBe(2);
      expectOneLine(r.stderr, pattern);
      expect(r.stdout).toBe("");
      expect(await writes()).toBe(before);
    });
  }

  it("a base URL without scheme", async () => {
    const r = await runCli(["sites", "list"], { env: { ...bed.env, SITEOPS_BASE_URL: "siteops.example.com" } });
    expect(r.code).toBe(2);
    expectOneLine(r.stderr, /^error: SITEOPS_BASE_URL has no scheme: use https:\/\/siteops\.example\.com/);
    const login = await runCli(["auth", "login", "--base-url", "example.com/api", "--with-token"], { env: bed.box.env, input: OWNER_TOKEN });
    expect(login.code).toBe(2);
    expectOneLine(login.stderr, /^error: --base-url has no scheme: use https:\/\/example\.com\/api/);
  });

  it("a config file others can read, or that is not JSON", async () => {
    const b = sandbox();
    try {
      mkdirSync(path.dirname(b.configFile), { recursive: true, mode: 0o700 });
      writeFileSync(b.configFile, JSON.stringify({ profiles: { default: { base_url: bed.emu.url, api_token: OWNER_TOKEN } } }));
      chmodSync(b.configFile, 0o644);
      const open = await runCli(["sites", "list"], { env: b.env });
      expect(open.code).toBe(2);
      expectOneLine(open.stderr, /^error: config file .*config\.json is accessible by other users \(mode 0644\) and holds credentials: run chmod 600 /);
      chmodSync(b.configFile, 0o600);
      expect((await runCli(["sites", "list"], { env: b.env })).code).toBe(0);
      writeFileSync(b.configFile, '{"profiles": {"default": {"base_url": ');
      const broken = await runCli(["sites", "list"], { env: b.env });
      expect(broken.code).toBe(2);
      expectOneLine(broken.stderr, /^error: config file .*config\.json is not valid JSON \(.+\): fix it, or remove it and run siteops auth login$/);
      writeFileSync(b.configFile, JSON.stringify({ profiles: { default: { base_url: 42 } } }));
      const shape = await runCli(["sites", "list"], { env: b.env });
      expectOneLine(shape.stderr, /^error: config file .*: profiles\.default\.base_url must be a string$/);
    } finally {
      b.cleanup();
    }
  });

  it("deleting without --yes when not on a terminal", async () => {
    const r = await runCli(["snapshots", "delete", "snap_0123456789abcdefghij", "--site", "Blog"], { env: bed.env });
    expect(r.code).toBe(2);
    expectOneLine(r.stderr, /^error: refusing to delete snapshot snap_0123456789abcdefghij without --yes \(not on a terminal\)$/);
  });
});
