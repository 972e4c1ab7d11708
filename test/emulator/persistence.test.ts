// Persistence: an emulator on a SQLite file, stopped and started again on the same file, keeps
// every record, its tokens (API, JWT access and refresh), webhook secrets and its clock offset.
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { MIGRATIONS } from "../../emulator/store/migrations.js";
import { PASSWORD, TOKENS, USERS, advanceClock, api, startTestEmulator } from "./helpers.js";
import { removeDir, tempDir } from "../support/temp.js";

const dir = tempDir("persistence");
const db = path.join(dir, "emulator.db");
const dataDir = path.join(dir, "data");
let emu: RunningEmulator | undefined;

afterAll(async () => {
  await emu?.close();
  removeDir(dir);
});

describe("persistence across restarts", () => {
  it("keeps records, tokens and the clock offset", async () => {
    emu = await startTestEmulator({ db, dataDir });
    const site = (await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Kept", url: "https://kept.example.com", wp_version: "6.1" } })).body;
    const hook = (await api(emu, "POST", "/webhook_endpoints", { token: TOKENS.owner, body: { url: "https://hooks.example.com/kept" } })).body;
    const pair = (await api(emu, "POST", "/jwt", { body: { email: USERS.admin, password: PASSWORD } })).body;
    const native = (await api(emu, "POST", "/auth", { body: { email: USERS.member, password: PASSWORD } })).body;
    const revoked = (await api(emu, "POST", "/jwt", { body: { email: USERS.admin, password: PASSWORD } })).body;
    await api(emu, "POST", "/jwt/revoke", { token: `Bearer ${revoked.access_token}`, body: { token: revoked.access_token } });
    await advanceClock(emu, 120);
    const clockBefore = (await api(emu, "GET", "/__emulator/clock")).body;
    const logsBefore = (await api(emu, "GET", "/activity_logs?per_page=100", { token: TOKENS.owner })).body;
    const sitesBefore = (await api(emu, "GET", "/sites", { token: TOKENS.owner })).body;
    await emu.close();
    emu = undefined;

    // The same file again; the seed is not applied twice (the database is not empty).
    emu = await startTestEmulator({ db, dataDir });
    expect((await api(emu, "GET", "/sites", { token: TOKENS.owner })).body).toEqual(sitesBefore);
    expect((await api(emu, "GET", `/sites/${site.id}`, { token: TOKENS.owner })).body).toMatchObject({ name: "Kept", wp_version: "6.1" });
    expect((await api(emu, "GET", "/users", { token: TOKENS.owner })).body).toHaveLength(4);
    expect((await api(emu, "GET", "/accounts", { token: TOKENS.owner })).body).toHaveLength(2);
    const logsAfter = (await api(emu, "GET", "/activity_logs?per_page=100", { token: TOKENS.owner })).body;
    expect(logsAfter.slice(-logsBefore.length)).toEqual(logsBefore);

    const hookAfter = await api(emu, "GET", `/webhook_endpoints/${hook.id}`, { token: TOKENS.owner });
    expect(hookAfter.body.url).toBe(hook.url);
    expect((emu.context.db.prepare("SELECT secret FROM webhook_endpoints WHERE id = ?").get(hook.id) as any).secret).toBe(hook.secret);

    // The clock offset survived: time did not go back.
    const clockAfter = (await api(emu, "GET", "/__emulator/clock")).body;
    expect(clockAfter.offset_seconds).toBe(clockBefore.offset_seconds);
    expect(clockAfter.now >= clockBefore.now).toBe(true);

    // Every credential still works as before: API tokens, the native token, the JWT pair (the
    // signing secret is persisted); the revoked access token stays revoked.
    expect((await api(emu, "GET", "/me", { token: TOKENS.owner })).status).toBe(200);
    expect((await api(emu, "GET", "/me", { token: native.token })).status).toBe(200);
    expect((await api(emu, "GET", "/me", { token: `Bearer ${pair.access_token}` })).status).toBe(200);
    expect((await api(emu, "GET", "/me", { token: `Bearer ${revoked.access_token}` })).body.error).toBe("revoked token");
    const refreshed = await api(emu, "POST", "/jwt/refresh", { body: { refresh_token: pair.refresh_token } });
    expect(refreshed.status).toBe(200);
    expect((await api(emu, "POST", "/jwt/refresh", { body: { refresh_token: pair.refresh_token } })).status).toBe(401);

    // And the store keeps taking writes.
    expect((await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "After", url: "https://after.example.com" } })).status).toBe(201);
    expect((await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Dup", url: site.url } })).status).toBe(422);
  });
});

describe("a database from before sites.url_key", () => {
  it("gets the key of every stored URL on start, so other spellings of them are taken", async () => {
    const file = path.join(dir, "before-url-key.db");
    const before = await startTestEmulator({ db: file, dataDir });
    for (const url of ["https://BÜCHER.legacy.test", "https://shop.legacy.test/", "https://%62log.legacy.test"]) {
      expect((await api(before, "POST", "/sites", { token: TOKENS.owner, body: { name: "Legacy", url } })).status).toBe(201);
    }
    const moved = (await api(before, "POST", "/sites", { token: TOKENS.owner, body: { name: "Moved", url: "https://old.legacy.test" } })).body;
    expect((await api(before, "PATCH", `/sites/${moved.id}`, { token: TOKENS.owner, body: { url: "https://new.legacy.test" } })).status).toBe(200);
    await before.close();

    // Back to the schema before the migration that added the key (the columns later migrations added go too).
    const version = MIGRATIONS.findIndex((m) => m.includes("ADD COLUMN url_key"));
    expect(version).toBeGreaterThan(0);
    const raw = new DatabaseSync(file);
    for (const later of MIGRATIONS.slice(version + 1)) {
      for (const [, table, column] of later.matchAll(/ALTER TABLE (\w+) ADD COLUMN (\w+)/g)) raw.exec(`ALTER TABLE ${table} DROP COLUMN ${column}`);
    }
    raw.exec(`DROP INDEX sites_url_key; ALTER TABLE sites DROP COLUMN url_key; PRAGMA user_version = ${version}`);
    raw.close();

    const after = await startTestEmulator({ db: file, dataDir });
    try {
      const keys = after.context.db.prepare("SELECT COUNT(*) AS n FROM sites WHERE url_key IS NULL").get() as { n: number };
      expect(keys.n).toBe(0);
      for (const url of ["https://bücher.legacy.test", "https://SHOP.legacy.test", "https://blog.legacy.test/", "https://new.legacy.test"]) {
        const res = await api(after, "POST", "/sites", { token: TOKENS.owner, body: { name: "Again", url } });
        expect([url, res.status]).toEqual([url, 422]);
      }
      expect((await api(after, "POST", "/sites", { token: TOKENS.owner, body: { name: "Free", url: "https://old.legacy.test" } })).status).toBe(201);
    } finally {
      await after.close();
    }
  });
});
