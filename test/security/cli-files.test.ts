// Issue 26 finding 1: another local user must not get the CLI's token, or make the CLI overwrite a file, by
// planting a symlink where the CLI writes its config (`auth login`) or a report (`--report FILE`). Runs the
// built CLI as a real unprivileged user against a real attacker account (useradd): only as root, skipped
// (visibly, with the reason) otherwise. The symlinks are planted with the names the old CLI used
// (`.config.json.<pid>.tmp`, `<report>.<pid>.tmp`) while the CLI is waiting, so its pid is known.
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, startTestEmulator } from "../emulator/helpers.js";
import { removeDir, tempDir } from "../support/temp.js";
import { isRoot, plantLink, removeRuntime, runAs, systemUser, type User } from "./local-users.js";

if (!isRoot) console.warn("test/security/cli-files: SKIPPED, needs root and useradd to create a second real user");

describe.skipIf(!isRoot)("a symlink planted by another user (real users, as root)", () => {
  let emu: RunningEmulator;
  let base: string;
  let victim: User;
  let attacker: User;

  beforeAll(async () => {
    victim = systemUser("siteops-victim");
    attacker = systemUser("siteops-attacker");
    emu = await startTestEmulator();
    base = tempDir("sec-cli");
    chmodSync(base, 0o755);
  });
  afterAll(async () => {
    await emu?.close();
    if (base) removeDir(base);
    removeRuntime();
  });

  /** A home for the victim with an attacker-owned, world-writable file the attacker can read later. */
  function setup(name: string): { home: string; loot: string } {
    const home = path.join(base, name, "victim");
    mkdirSync(home, { recursive: true });
    chownSync(home, victim.uid, victim.gid);
    const lootDir = path.join(base, name, "attacker");
    mkdirSync(lootDir);
    chownSync(lootDir, attacker.uid, attacker.gid);
    const loot = path.join(lootDir, "loot");
    writeFileSync(loot, "");
    chownSync(loot, attacker.uid, attacker.gid);
    chmodSync(loot, 0o666);
    return { home, loot };
  }

  it("auth login does not write the token through a link in a 0777 config dir, and tightens the dir to 0700", async () => {
    const { home, loot } = setup("login");
    const dir = path.join(home, ".config", "siteops");
    mkdirSync(dir, { recursive: true });
    chownSync(path.join(home, ".config"), victim.uid, victim.gid);
    chownSync(dir, victim.uid, victim.gid);
    chmodSync(dir, 0o777);

    const run = runAs(victim, ["auth", "login", "--with-token", "--base-url", emu.url], { HOME: home, XDG_CONFIG_HOME: path.join(home, ".config") });
    plantLink(attacker, loot, path.join(dir, `.config.json.${run.pid}.tmp`));
    run.write(`${TOKENS.owner}\n`);
    const { code, stderr } = await run.done;

    expect(readFileSync(loot, "utf8")).toBe("");
    expect({ code, stderr }).toMatchObject({ code: 0 });
    const config = path.join(dir, "config.json");
    expect(lstatSync(config).isFile()).toBe(true);
    expect(statSync(config).uid).toBe(victim.uid);
    expect(statSync(config).mode & 0o777).toBe(0o600);
    expect(readFileSync(config, "utf8")).toContain(TOKENS.owner);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it("auth login refuses a config dir that another user owns", async () => {
    const { home } = setup("foreign-dir");
    const dir = path.join(home, ".config", "siteops");
    mkdirSync(dir, { recursive: true });
    chownSync(path.join(home, ".config"), victim.uid, victim.gid);
    chmodSync(path.join(home, ".config"), 0o777);
    chownSync(dir, attacker.uid, attacker.gid);
    chmodSync(dir, 0o777);

    const run = runAs(victim, ["auth", "login", "--with-token", "--base-url", emu.url], { HOME: home, XDG_CONFIG_HOME: path.join(home, ".config") });
    run.write(`${TOKENS.owner}\n`);
    const { code, stderr } = await run.done;
    expect(code).toBe(2);
    expect(stderr).toContain(`config directory ${dir} belongs to another user`);
    expect(existsSync(path.join(dir, "config.json"))).toBe(false);
  });

  it("--report in a shared non-sticky directory does not overwrite the file a planted link points to; the report is 0600", async () => {
    const { home } = setup("report");
    const shared = path.join(base, "report", "shared");
    mkdirSync(shared);
    chmodSync(shared, 0o777); // no sticky bit
    const precious = path.join(home, "precious");
    writeFileSync(precious, "keep me\n");
    chownSync(precious, victim.uid, victim.gid);

    // A service that holds the job's first request until the link is planted, then refuses the token.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const server: Server = createServer((req, res) => {
      void held.then(() => {
        res.writeHead(401, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: "Invalid token" }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const report = path.join(shared, "report.json");
      const run = runAs(victim, ["snapshot", "prune", "--all", "--keep-last", "1", "--no-lock", "--report", report], {
        HOME: home,
        XDG_CONFIG_HOME: path.join(home, ".config"),
        SITEOPS_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        SITEOPS_API_TOKEN: "sot_0000000000000000000000000000000000000000",
      });
      plantLink(attacker, precious, `${report}.${run.pid}.tmp`);
      release();
      run.write("");
      const { code } = await run.done;
      expect(code).not.toBe(0); // the token was refused; the report is written all the same
      expect(readFileSync(precious, "utf8")).toBe("keep me\n");
      expect(lstatSync(report).isFile()).toBe(true);
      expect(statSync(report).uid).toBe(victim.uid);
      expect(statSync(report).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(report, "utf8"))).toMatchObject({ command: "siteops snapshot prune" });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
