// Issue 38 item 2: `siteops sites matrix --out DIR` must not write through links another local user planted in a
// shared directory, and `--sites-from FILE` must not read a shard file another user owns or one reached through a
// link. Real users (useradd), the built CLI run as the victim: only as root, skipped visibly otherwise. The links
// are planted with the names the old writer used (`<file>.<pid>.tmp`) while the CLI waits for its listing.
import { chmodSync, chownSync, lstatSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { SHARD_FILE_FORMAT } from "../../src/fleet.js";
import { TOKENS, startTestEmulator } from "../emulator/helpers.js";
import { removeDir, tempDir } from "../support/temp.js";
import { isRoot, plantLink, removeRuntime, runAs, systemUser, type User } from "./local-users.js";

if (!isRoot) console.warn("test/security/shard-files: SKIPPED, needs root and useradd to create a second real user");

/** A proxy to `target` that holds every request until release() (the test plants its links meanwhile). */
async function holdingProxy(target: string): Promise<{ url: string; release(): void; close(): Promise<void> }> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const to = new URL(target);
  const server: Server = createServer((req, res) => {
    void held.then(() => {
      const out = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(out);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    release,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.skipIf(!isRoot)("shard files and another local user (real users, as root)", () => {
  let emu: RunningEmulator;
  let base: string;
  let victim: User;
  let attacker: User;

  beforeAll(async () => {
    victim = systemUser("siteops-victim");
    attacker = systemUser("siteops-attacker");
    emu = await startTestEmulator();
    base = tempDir("sec-shards");
    chmodSync(base, 0o755);
  });
  afterAll(async () => {
    await emu?.close();
    if (base) removeDir(base);
    removeRuntime();
  });

  /** The victim's home and a 0600 file of theirs the attacker wants overwritten. */
  function victimHome(name: string): { home: string; precious: string } {
    const home = path.join(base, name, "victim");
    mkdirSync(home, { recursive: true });
    chownSync(home, victim.uid, victim.gid);
    const precious = path.join(home, "precious");
    writeFileSync(precious, "keep me\n", { mode: 0o600 });
    chownSync(precious, victim.uid, victim.gid);
    return { home, precious };
  }

  /** A world-writable directory without the sticky bit. */
  function sharedDir(name: string): string {
    const dir = path.join(base, name, "shared");
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o777);
    return dir;
  }

  it("sites matrix --out in a shared 0777 directory writes no byte through planted links; its files are the victim's, 0600", async () => {
    const { home, precious } = victimHome("matrix");
    const out = sharedDir("matrix");
    const proxy = await holdingProxy(emu.url);
    try {
      const run = runAs(victim, ["sites", "matrix", "--shards", "2", "--out", out], {
        HOME: home,
        SITEOPS_BASE_URL: proxy.url,
        SITEOPS_API_TOKEN: TOKENS.owner,
      });
      const names = ["matrix.json", "shard-1-of-2.json", "shard-2-of-2.json"];
      for (const name of names) plantLink(attacker, precious, path.join(out, `${name}.${run.pid}.tmp`));
      plantLink(attacker, precious, path.join(out, "matrix.json")); // at the final name too
      proxy.release();
      run.write("");
      const { code, stderr } = await run.done;

      expect(readFileSync(precious, "utf8")).toBe("keep me\n");
      expect({ code, stderr }).toMatchObject({ code: 0 });
      for (const name of names) {
        const file = path.join(out, name);
        expect(lstatSync(file).isFile()).toBe(true);
        expect(statSync(file).uid).toBe(victim.uid);
        expect(statSync(file).mode & 0o777).toBe(0o600);
      }
      expect(JSON.parse(readFileSync(path.join(out, "matrix.json"), "utf8"))).toMatchObject({ include: [{ shard: "1/2" }, { shard: "2/2" }] });
    } finally {
      await proxy.close();
    }
  });

  /** A well-formed shard file of no sites, written as `who` into `dir`. */
  function shardFile(dir: string, owner: User): string {
    const file = path.join(dir, "shard-1-of-1.json");
    writeFileSync(file, JSON.stringify({ format: SHARD_FILE_FORMAT, shard: "1/1", listed_at: new Date().toISOString(), fleet_size: 0, sites: [] }));
    chownSync(file, owner.uid, owner.gid);
    return file;
  }

  async function snapshotFrom(home: string, file: string) {
    const run = runAs(victim, ["snapshot", "create", "--sites-from", file, "--no-lock", "--window", "0", "--allow-empty"], {
      HOME: home,
      SITEOPS_BASE_URL: emu.url,
      SITEOPS_API_TOKEN: TOKENS.owner,
    });
    run.write("");
    return run.done;
  }

  it("--sites-from refuses a shard file another user owns, in one line naming the flag", async () => {
    const { home } = victimHome("foreign-shard");
    const file = shardFile(sharedDir("foreign-shard"), attacker);
    const { code, stderr } = await snapshotFrom(home, file);
    expect(code).toBe(2);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toContain(`--sites-from ${file}: belongs to another user (uid ${attacker.uid})`);
  });

  it("--sites-from refuses a shard file reached through a link, even to a file of the victim's", async () => {
    const { home } = victimHome("linked-shard");
    const own = shardFile(home, victim);
    const link = path.join(sharedDir("linked-shard"), "shard.json");
    plantLink(attacker, own, link);
    const { code, stderr } = await snapshotFrom(home, link);
    expect(code).toBe(2);
    expect(stderr).toContain(`--sites-from ${link}: is a symbolic link`);

    const ok = await snapshotFrom(home, own); // the victim's own file, named directly, is read
    expect(ok.stderr).not.toContain("--sites-from");
    expect(ok.code).toBe(0);
  });
});
