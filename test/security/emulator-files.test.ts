// Issue 38 items 1 and 3: the emulator's database (the JWT signing secret, 2FA seeds, webhook secrets) and its
// snapshot data are no other local user's to read or to plant. Under umask 022 the --db file, its -wal and -shm
// and --data-dir's files are 0600 in 0700 folders; an existing --db (or -wal, -shm) that is a link, not a
// regular file, another user's, or open to others is refused in one line naming the flag, as is a --data-dir
// that is a link, another user's or writable by others. The cases with a second real user (useradd) run only as
// root, and are skipped with a warning otherwise.
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startEmulator } from "../../emulator/index.js";
import { TOKENS, api, startTestEmulator } from "../emulator/helpers.js";
import { CLI_FROM_SOURCE, ROOT } from "../support/paths.js";
import { collect } from "../support/processes.js";
import { useTempDirs } from "../support/temp.js";
import { isRoot, plantLink, systemUser } from "./local-users.js";

if (!isRoot) console.warn("test/security/emulator-files: the cases with a second local user are SKIPPED, needs root and useradd");
const attacker = () => systemUser("siteops-attacker");

/** A command run to completion as the attacker. */
const asAttacker = (command: string, args: string[]) => spawnSync(command, args, { uid: attacker().uid, gid: attacker().gid, encoding: "utf8" });

const newDir = useTempDirs();
/** A folder other users can enter (0755, as a home or a project folder is), with a 1777 `shared/` in it (as /tmp). */
function folders(): { dir: string; shared: string } {
  const dir = newDir("emu-files");
  chmodSync(dir, 0o755);
  const shared = path.join(dir, "shared");
  mkdirSync(shared);
  chmodSync(shared, 0o1777);
  return { dir, shared };
}

const modeOf = (file: string): string => `0${(statSync(file).mode & 0o777).toString(8)}`;

/** What starting the emulator with these options answers: "started", or the error's message. */
async function refusal(options: { db?: string; dataDir?: string }): Promise<string> {
  try {
    const emu = await startEmulator({ port: 0, ...options });
    await emu.close();
    return "started";
  } catch (err) {
    return (err as Error).message;
  }
}

describe("files the emulator creates, under umask 022", () => {
  it("the database, its -wal and -shm, and uploaded snapshot data are 0600 in 0700 folders; another user reads none", async () => {
    const { dir } = folders();
    const db = path.join(dir, "emu.db");
    const data = path.join(dir, "data");
    const umask = process.umask(0o022);
    try {
      const emu = await startTestEmulator({ db, dataDir: data });
      try {
        const site = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Modes", url: "https://modes.example.com" } });
        const whole = await api(emu, "POST", `/sites/${site.body.id}/snapshots`, { token: TOKENS.owner, body: { upload: true } });
        const octet = { "content-type": "application/octet-stream" };
        const put = await api(emu, "PUT", `/sites/${site.body.id}/snapshots/${whole.body.id}/upload`, {
          token: TOKENS.owner,
          raw: Buffer.alloc(1000, 1),
          headers: octet,
        });
        expect(put.status).toBe(200);
        const chunked = await api(emu, "POST", `/sites/${site.body.id}/snapshots`, { token: TOKENS.owner, body: { upload: true } });
        const chunk = await api(emu, "PUT", `/sites/${site.body.id}/snapshots/${chunked.body.id}/upload`, {
          token: TOKENS.owner,
          raw: Buffer.alloc(1000, 2),
          headers: { ...octet, "content-range": "bytes 0-999/2000" },
        });
        expect(chunk.status).toBe(202);

        const siteDir = path.join(data, "snapshots", site.body.id);
        const files = [db, `${db}-wal`, `${db}-shm`, ...readdirSync(siteDir).map((f) => path.join(siteDir, f))];
        expect(files).toHaveLength(5);
        expect(files.map((f) => [path.basename(f), modeOf(f)])).toEqual(files.map((f) => [path.basename(f), "0600"]));
        const folders = [data, path.join(data, "snapshots"), siteDir];
        expect(folders.map(modeOf)).toEqual(["0700", "0700", "0700"]);
        if (isRoot) {
          // The reproduction: another user copied emu.db and emu.db-wal and read meta.jwt_secret.
          for (const file of files) expect([file, asAttacker("cat", [file]).stderr]).toEqual([file, expect.stringMatching(/Permission denied/)]);
        }
      } finally {
        await emu.close();
      }
    } finally {
      process.umask(umask);
    }
  });
});

describe("an existing --db file", () => {
  it("is refused when group or others can read it (one made under umask 022 before this fix), saying how to fix it", async () => {
    const { dir } = folders();
    const db = path.join(dir, "old.db");
    writeFileSync(db, "", { mode: 0o644 });
    chmodSync(db, 0o644);
    expect(await refusal({ db })).toBe(
      `--db ${db} can be read or written by other users (mode 0644; chmod 600 it); the emulator keeps its signing secret and data only in files of its own that no one else can read`,
    );
  });

  it("is refused when it is a folder", async () => {
    const { dir } = folders();
    expect(await refusal({ db: dir })).toMatch(new RegExp(`^--db ${dir} is not a regular file; `));
  });

  it.skipIf(!isRoot)("is refused when it is a link another user planted to my empty 0600 file, which stays empty", async () => {
    const { dir, shared } = folders();
    const mine = path.join(dir, "victim-notes.txt");
    writeFileSync(mine, "", { mode: 0o600 });
    const db = path.join(shared, "y.db");
    plantLink(attacker(), mine, db);
    expect(await refusal({ db })).toMatch(new RegExp(`^--db ${db} is a symbolic link; the emulator keeps its signing secret`));
    expect(statSync(mine).size).toBe(0);
    expect(existsSync(`${db}-wal`)).toBe(false);
  });

  it.skipIf(!isRoot)("is refused when another user owns it, even when they made it 0666, and nothing is written to it", async () => {
    const { shared } = folders();
    const db = path.join(shared, "z.db");
    const res = asAttacker("sh", ["-c", `umask 0; touch '${db}'; chmod 666 '${db}'`]);
    expect(res.status).toBe(0);
    expect(await refusal({ db })).toMatch(new RegExp(`^--db ${db} is owned by another user \\(uid ${attacker().uid}\\); `));
    expect(statSync(db).size).toBe(0);
  });

  it.skipIf(!isRoot)("is refused when a -wal or -shm beside it is another user's file or a link; a new database is not left behind", async () => {
    const { dir, shared } = folders();
    const walDb = path.join(shared, "w.db");
    asAttacker("sh", ["-c", `umask 0; touch '${walDb}-wal'`]);
    expect(await refusal({ db: walDb })).toMatch(new RegExp(`^--db ${walDb}: w\\.db-wal is owned by another user \\(uid ${attacker().uid}\\); `));
    expect(existsSync(walDb)).toBe(false);

    const shmDb = path.join(shared, "s.db");
    const mine = path.join(dir, "victim-notes.txt");
    writeFileSync(mine, "", { mode: 0o600 });
    plantLink(attacker(), mine, `${shmDb}-shm`);
    expect(await refusal({ db: shmDb })).toMatch(new RegExp(`^--db ${shmDb}: s\\.db-shm is a symbolic link; `));
    expect(statSync(mine).size).toBe(0);
  });

  it.skipIf(!isRoot)("`siteops emulator --db` answers a planted link with one line, no stack trace, the exit status of a bad --seed", async () => {
    const { dir, shared } = folders();
    const mine = path.join(dir, "victim-notes.txt");
    writeFileSync(mine, "", { mode: 0o600 });
    const db = path.join(shared, "cli.db");
    plantLink(attacker(), mine, db);
    const r = await collect(process.execPath, [...CLI_FROM_SOURCE, "emulator", "--port", "0", "--db", db], { cwd: ROOT });
    const badSeed = await collect(process.execPath, [...CLI_FROM_SOURCE, "emulator", "--port", "0", "--seed", path.join(dir, "none.json")], { cwd: ROOT });
    expect(r.code).toBe(badSeed.code);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split("\n")).toEqual([expect.stringContaining(`--db ${db} is a symbolic link; `)]);
    expect(r.stdout).toBe("");
    expect(statSync(mine).size).toBe(0);
  });
});

describe("--data-dir", () => {
  it("is refused when group or others can write it", async () => {
    const { dir } = folders();
    const data = path.join(dir, "open");
    mkdirSync(data);
    chmodSync(data, 0o777);
    expect(await refusal({ dataDir: data })).toBe(
      `--data-dir ${data} can be written by other users (mode 0777; chmod go-w it); the emulator keeps uploaded snapshot data only in a folder of its own that no one else can write`,
    );
  });

  it.skipIf(!isRoot)("is refused when another user owns it or planted it as a link", async () => {
    const { dir, shared } = folders();
    const theirs = path.join(shared, "their-data");
    mkdirSync(theirs, { mode: 0o700 });
    chownSync(theirs, attacker().uid, attacker().gid);
    expect(await refusal({ dataDir: theirs })).toMatch(new RegExp(`^--data-dir ${theirs} is owned by another user \\(uid ${attacker().uid}\\); `));

    const mine = path.join(dir, "my-data");
    mkdirSync(mine, { mode: 0o700 });
    const link = path.join(shared, "data-link");
    plantLink(attacker(), mine, link);
    expect(await refusal({ dataDir: link })).toMatch(new RegExp(`^--data-dir ${link} is a symbolic link; `));
    expect(readdirSync(mine)).toEqual([]);
  });
});
