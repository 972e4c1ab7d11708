// The emulator killed mid-burst (issue 40 item 2): `siteops emulator --db FILE` in its own process gets a burst
// of keyed snapshot creates and is SIGKILLed once a few have been answered, 10 times, each time restarted on the
// same file and the unanswered (and some answered) requests retried with their keys. After the last round every
// request has exactly one snapshot, the one its answers named. Bounded by count (10 kills), no timings. The old
// window (the key inserted after the write's COMMIT) is too narrow for a kill to hit often: the deterministic
// reproduction is idempotency-commit.test.ts; this is the kill loop, kept as a guard.
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ownerSeed, spawnEmulator, type EmulatorProcess } from "../support/emulator.js";
import { stop } from "../support/processes.js";
import { removeDir, tempDir } from "../support/temp.js";

const TOKEN = "sot_killloop0123456789abcdef";
const KILLS = 10;
const REQUESTS = 40;
const dir = tempDir("idempotency-kill-loop");
const db = path.join(dir, "emulator.db");
let running: EmulatorProcess | undefined;

afterAll(async () => {
  if (running) await stop(running.child, "SIGKILL");
  removeDir(dir);
});

const start = () => spawnEmulator({ seed: ownerSeed("Kill", TOKEN, 1), args: ["--db", db, "--rate-limit", "off"] });

async function call(url: string, method: string, route: string, body?: unknown, key?: string): Promise<{ status: number; body: any } | undefined> {
  const headers: Record<string, string> = { authorization: `token ${TOKEN}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (key) headers["idempotency-key"] = key;
  try {
    const res = await fetch(`${url}/api/v1${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: await res.json().catch(() => undefined) };
  } catch {
    return undefined; // the connection died with the process
  }
}

describe("keyed creates against an emulator killed mid-burst", () => {
  it(`${KILLS} kills: every request has exactly one snapshot, the one its answers named`, async () => {
    running = await start();
    const site = (await call(running.url, "GET", "/sites"))?.body[0];
    expect(site?.id).toBeTruthy();
    const answered = new Map<number, string>(); // request -> the snapshot id its answer named

    const burst = async (emu: EmulatorProcess, killAfter: number | undefined): Promise<void> => {
      let answers = 0;
      // Unanswered requests, and every third answered one (its retry must replay the same snapshot).
      const todo = Array.from({ length: REQUESTS }, (_, i) => i).filter((i) => !answered.has(i) || i % 3 === 0);
      await Promise.all(
        todo.map(async (i) => {
          const res = await call(emu.url, "POST", `/sites/${site.id}/snapshots`, { description: `request ${i}` }, `key-${i}`);
          if (res?.status !== 201) return;
          const before = answered.get(i);
          if (before !== undefined) expect(res.body.id).toBe(before);
          answered.set(i, res.body.id);
          if (killAfter !== undefined && ++answers === killAfter) emu.child.kill("SIGKILL");
        }),
      );
    };

    for (let round = 0; round < KILLS; round++) {
      const emu = running;
      await burst(emu, 1 + (round % 4));
      if (emu.child.exitCode === null && emu.child.signalCode === null) await stop(emu.child, "SIGKILL");
      running = await start();
    }
    // The last emulator is left alone until every request has its answer.
    for (let round = 0; answered.size < REQUESTS && round < 5; round++) await burst(running, undefined);
    expect(answered.size).toBe(REQUESTS);

    const snapshots = (await call(running.url, "GET", `/sites/${site.id}/snapshots?per_page=100`))?.body as Array<{ id: string; description: string }>;
    const byDescription = new Map<string, string[]>();
    for (const s of snapshots) byDescription.set(s.description, [...(byDescription.get(s.description) ?? []), s.id]);
    for (let i = 0; i < REQUESTS; i++) expect(byDescription.get(`request ${i}`), `request ${i}`).toEqual([answered.get(i)]);
    expect(snapshots).toHaveLength(REQUESTS);
    await running.close();
    running = undefined;
  }, 300_000);
});
