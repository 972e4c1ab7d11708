// `siteops emulator` as a user runs it: the start-up JSON line on stdout, demo credentials that work,
// logs on stderr only, one clear line for bad flags or a bad seed file, and a clean stop on SIGTERM.
import { afterEach, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { spawnEmulator, type EmulatorProcess } from "../support/emulator.js";
import { CLI_FROM_SOURCE, ROOT } from "../support/paths.js";
import { collect, stop } from "../support/processes.js";
import { useTempDirs } from "../support/temp.js";

const running: EmulatorProcess[] = [];
const newTempDir = useTempDirs();
const tempDir = () => newTempDir("cli");

afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});

/** Runs the CLI to completion. */
function run(args: string[]) {
  return collect(process.execPath, [...CLI_FROM_SOURCE, ...args], { cwd: ROOT });
}

/** Starts the emulator and resolves with its start-up line. */
async function start(args: string[]): Promise<EmulatorProcess> {
  const emulator = await spawnEmulator({ args });
  running.push(emulator);
  return emulator;
}

describe("siteops emulator", () => {
  it("prints one JSON line with the URL and demo credentials that work with curl-style requests", async () => {
    const { child, line, stdoutAfter, stderr } = await start(["--demo"]);
    expect(line.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(line.demo).toMatchObject({ email: "demo@siteops.test", api_token: expect.stringMatching(/^sot_/) });
    const sites = await fetch(`${line.url}/api/v1/sites`, { headers: { authorization: `token ${line.demo.api_token}` } });
    expect(sites.status).toBe(200);
    expect(((await sites.json()) as unknown[]).length).toBeGreaterThanOrEqual(3);
    const login = await fetch(`${line.url}/api/v1/jwt`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: line.demo.email, password: line.demo.password }),
    });
    expect(login.status).toBe(200);
    // The web console's address and the demo sign-in, for a person.
    expect(stderr()).toContain(`web console: ${line.url}/ (sign in as demo@siteops.test / ${line.demo.password})`);
    expect((await fetch(`${line.url}/sign-in`)).status).toBe(200);
    expect(await stop(child)).toBe(0);
    expect(stdoutAfter()).toBe(""); // nothing but the start-up line on stdout
  });

  it("keeps its data in a --db file across restarts, and issues a fresh demo token each start", async () => {
    const dir = tempDir();
    const db = path.join(dir, "emu.db");
    const first = await start(["--demo", "--db", db, "--data-dir", path.join(dir, "data")]);
    const auth = { authorization: `token ${first.line.demo.api_token}`, "content-type": "application/json" };
    const created = await fetch(`${first.line.url}/api/v1/sites`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ name: "Kept", url: "https://kept.example.com" }),
    });
    expect(created.status).toBe(201);
    await stop(first.child);

    const second = await start(["--demo", "--db", db, "--data-dir", path.join(dir, "data")]);
    for (const token of [first.line.demo.api_token, second.line.demo.api_token]) {
      const res = await fetch(`${second.line.url}/api/v1/sites?per_page=100`, { headers: { authorization: `token ${token}` } });
      const names = ((await res.json()) as { name: string }[]).map((s) => s.name);
      expect(names).toContain("Kept");
    }
  });

  it("rejects bad flags and bad seed files with one clear line and no stack trace", async () => {
    const dir = tempDir();
    const badSeed = path.join(dir, "seed.json");
    writeFileSync(badSeed, JSON.stringify({ accounts: [{ name: "x", users: [{ email: "a@b.c", password: "p", name: "n", role: "boss" }] }] }));
    const cases: [string[], RegExp][] = [
      [["emulator", "--port", "abc"], /--port must be an integer/],
      [["emulator", "--rate-limit", "lots"], /--rate-limit must be N\/SECONDS/],
      [["emulator", "--login-throttle", "10/900"], /--login-throttle must be USER,ADDRESS\/SECONDS/],
      [["emulator", "--public-url", "siteops.example"], /--public-url must be an absolute http\(s\) URL/],
      [["emulator", "--bogus"], /unknown flag --bogus for siteops emulator/],
      [["emulator", "--seed", path.join(dir, "missing.json")], /seed: cannot read .*missing\.json: ENOENT/],
      [["emulator", "--seed", badSeed], /seed: accounts\[0\]\.users\[0\]\.role must be owner, admin or member/],
      [["frobnicate"], /unknown command "frobnicate"/],
    ];
    for (const [args, message] of cases) {
      const r = await run(args);
      expect([args.join(" "), r.code]).toEqual([args.join(" "), expect.any(Number)]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(r.stdout).toBe("");
    }
  });

  it("prints its options with --help", async () => {
    const r = await run(["emulator", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("--step-seconds");
    expect(r.stdout).toContain("--rate-limit");
    expect(r.stdout).toContain("--allow-private-webhooks");
  });
});
