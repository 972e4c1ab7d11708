// Issue 12 "emulator hygiene": uploaded data on disk belongs to a snapshot or goes. A one-request upload
// that fails leaves no `.part` file; at start-up every `.part` (a crash mid-upload) and every file whose
// snapshot is gone, failed or no longer uploading is removed; a resumable upload's partial file survives a
// restart while its snapshot still waits for data, and the upload continues from it.
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, api, startTestEmulator, waitFor } from "./helpers.js";
import { removeDir, tempDir } from "../support/temp.js";

const dir = tempDir("upload-files");
const db = path.join(dir, "emulator.db");
let emu: RunningEmulator | undefined;
afterAll(async () => {
  await emu?.close();
  removeDir(dir);
});

const octet = { "content-type": "application/octet-stream" };
const start = () => startTestEmulator({ db, dataDir: dir });

async function uploadSnapshot(e: RunningEmulator, siteId: string): Promise<string> {
  const res = await api(e, "POST", `/sites/${siteId}/snapshots`, { token: TOKENS.owner, body: { upload: true } });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** Sends the headers and part of a declared body, then drops the connection. */
function interruptedPut(e: RunningEmulator, urlPath: string, declared: number, sent: number): Promise<void> {
  return new Promise((resolve) => {
    const req = request(`${e.url}/api/v1${urlPath}`, {
      method: "PUT",
      headers: { ...octet, authorization: `token ${TOKENS.owner}`, "content-length": String(declared) },
    });
    req.on("error", () => resolve());
    req.write(Buffer.alloc(sent, 7), () =>
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 100),
    );
  });
}

describe("snapshot files on disk", () => {
  let siteId: string;
  let siteDir: string;
  let partial: string;
  let done: string;

  it("a one-request upload cut off mid-body leaves no .part file", async () => {
    emu = await start();
    const site = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Files", url: "https://files.example.com" } });
    siteId = site.body.id;
    siteDir = path.join(dir, "snapshots", siteId);
    const id = await uploadSnapshot(emu, siteId);
    await interruptedPut(emu, `/sites/${siteId}/snapshots/${id}/upload`, 1_000_000, 200_000);
    await waitFor(async () => !existsSync(siteDir) || readdirSync(siteDir).every((f) => !f.endsWith(".part")), "the .part file to go");
    const snap = await api(emu, "GET", `/sites/${siteId}/snapshots/${id}`, { token: TOKENS.owner });
    expect(snap.body.status).toBe("requested");
  });

  it("at start-up, removes .part files and files no snapshot owns, keeps a resumable upload in progress", async () => {
    partial = await uploadSnapshot(emu!, siteId);
    const chunk = await api(emu!, "PUT", `/sites/${siteId}/snapshots/${partial}/upload`, {
      token: TOKENS.owner,
      raw: Buffer.alloc(1000, 1),
      headers: { ...octet, "content-range": "bytes 0-999/2000" },
    });
    expect(chunk.status).toBe(202);
    done = await uploadSnapshot(emu!, siteId);
    expect(
      (await api(emu!, "PUT", `/sites/${siteId}/snapshots/${done}/upload`, { token: TOKENS.owner, raw: Buffer.alloc(500, 2), headers: octet })).status,
    ).toBe(200);
    await emu!.close();
    emu = undefined;

    // What a crash leaves: a one-request upload's temp file, and data of a snapshot that no longer exists.
    const crashed = path.join(siteDir, `${done}.Abc12345.part`);
    const orphan = path.join(siteDir, "snap_0000000000000000gone");
    writeFileSync(crashed, Buffer.alloc(4096));
    writeFileSync(orphan, Buffer.alloc(4096));

    emu = await start();
    expect(readdirSync(siteDir).sort()).toEqual([done, partial].sort());

    // The upload goes on from where it was.
    const offset = await api(emu, "PUT", `/sites/${siteId}/snapshots/${partial}/upload`, { token: TOKENS.owner, headers: { "content-range": "bytes */2000" } });
    expect(offset).toMatchObject({ status: 202, body: { received_bytes: 1000 } });
  });

  it("a partial file whose snapshot stopped uploading (failed) does not survive the next start", async () => {
    await emu!.close();
    emu = undefined;
    const sqlite = new DatabaseSync(db);
    sqlite.prepare("UPDATE snapshots SET status = 'failed' WHERE id = ?").run(partial);
    sqlite.close();
    emu = await start();
    expect(readdirSync(siteDir)).toEqual([done]);
  });
});
