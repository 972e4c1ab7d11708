// The idempotency key and its write commit together, or neither (issue 40 item 2): the emulator "dies" right
// after the first COMMIT of a keyed POST (a seam on its database: the COMMIT runs, then the database is closed
// and the request fails, as a SIGKILL there would leave the file), then a new emulator on the same --db file gets
// the client's retry with the same key. Before the fix the key was inserted after the route's transaction, in
// onSend, so the retry created a second record; now it replays the first answer.
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, api, startTestEmulator } from "./helpers.js";
import { removeDir, tempDir } from "../support/temp.js";

const dir = tempDir("idempotency-commit");
let emu: RunningEmulator | undefined;

afterAll(async () => {
  await emu?.close();
  removeDir(dir);
});

/** After the next COMMIT on the emulator's database, nothing more reaches the file: the process is as good as killed. */
function dieAfterNextCommit(running: RunningEmulator): void {
  const db = running.context.db;
  const exec = db.exec.bind(db);
  db.exec = (sql: string) => {
    exec(sql);
    if (sql === "COMMIT") {
      // As good as killed: its job timer stops too (it read the closed database afterwards: an uncaught
      // "statement has been finalized" in one CI run).
      running.context.scheduler.stop();
      db.close();
      throw new Error("killed right after the COMMIT");
    }
  };
}

async function stop(running: RunningEmulator): Promise<void> {
  try {
    await running.close();
  } catch {
    // its database is already closed (the seam)
  }
}

describe("a keyed POST killed right after its COMMIT", () => {
  it.each([
    ["a snapshot", "snapshots"],
    ["a site", "sites"],
  ])("%s: the retry on the restarted emulator replays the first answer, one record", async (_what, kind) => {
    const db = path.join(dir, `${kind}.db`);
    const dataDir = path.join(dir, `${kind}-data`);
    emu = await startTestEmulator({ db, dataDir });
    const site = (await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Base", url: "https://base.example.com" } })).body;
    const [route, body, list] =
      kind === "snapshots"
        ? [`/sites/${site.id}/snapshots`, { description: "before the plugin update" }, `/sites/${site.id}/snapshots?per_page=100`]
        : ["/sites", { name: "Once", url: "https://once.example.com" }, "/sites?per_page=100"];
    const headers = { "idempotency-key": `key-${kind}` };

    dieAfterNextCommit(emu);
    const first = await api(emu, "POST", route, { token: TOKENS.owner, body, headers });
    expect(first.status).toBe(500); // the client saw no answer worth keeping and retries
    await stop(emu);

    emu = await startTestEmulator({ db, dataDir });
    const retry = await api(emu, "POST", route, { token: TOKENS.owner, body, headers });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    const again = await api(emu, "POST", route, { token: TOKENS.owner, body, headers });
    expect(again.body.id).toBe(retry.body.id);

    const records = (await api(emu, "GET", list, { token: TOKENS.owner })).body as Array<{ id: string; description?: string; name?: string }>;
    const same = records.filter((r) => (kind === "snapshots" ? r.description === "before the plugin update" : r.name === "Once"));
    expect(same.map((r) => r.id)).toEqual([retry.body.id]);
    await emu.close();
    emu = undefined;
  });
});
