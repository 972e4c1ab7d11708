// Soak phase 4: a resumable upload of N MiB through the core (default settings) under the faults, with one
// `kill -9` of the emulator once ~40 % is sent and a restart on the same DB and data dir; the upload must
// complete with the data's checksum, and no partial file may be left in the data dir.
import { createHash, randomBytes } from "node:crypto";
import { closeSync, openSync, readdirSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { SiteOps } from "../../src/index.js";
import type { PhaseResult } from "./report.js";
import { peakSampler, rssOf, type FaultedService } from "./service.js";

/** Writes `mib` MiB of random bytes to `file`; returns their SHA-256 (hex). */
function randomFile(file: string, mib: number): string {
  const hash = createHash("sha256");
  const fd = openSync(file, "w");
  try {
    for (let i = 0; i < mib; i++) {
      const block = randomBytes(1024 * 1024);
      hash.update(block);
      writeSync(fd, block);
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest("hex");
}

const partFiles = (dir: string): string[] => {
  try {
    return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".part"));
  } catch {
    return [];
  }
};

export async function uploadPhase(service: FaultedService, mib: number): Promise<PhaseResult> {
  const result: PhaseResult = { phase: `upload: ${mib} MiB resumable, kill -9 + restart`, operations: 1, succeeded: 0, failed: 0, duplicates: 0, lost: 0, stale: 0, wallMs: 0, emulatorPeakRss: 0, clientPeakRss: 0, notes: [] };
  const file = path.join(service.dir, "upload.bin");
  const checksum = randomFile(file, mib);
  await service.faultsOff();
  const setup = new SiteOps({ baseUrl: service.url, apiToken: service.token });
  const site = await setup.sites.create({ name: "soak-upload", url: "https://soak-upload.soak.test" });
  const snap = await setup.snapshots.create(site.id, { upload: true });
  await setup.close();

  await service.faultsOn();
  const emulatorRss = peakSampler(() => rssOf(service.pid));
  const clientRss = peakSampler(() => process.memoryUsage.rss());
  const started = performance.now();
  const so = new SiteOps({ baseUrl: service.url, apiToken: service.token });
  const total = mib * 1024 * 1024;
  let crash: Promise<void> | undefined;
  let crashedAt = 0;
  try {
    const done = await so.snapshots.upload(site.id, snap.id, file, {
      onProgress: ({ sent }) => {
        if (!crash && sent >= total * 0.4) {
          crashedAt = sent;
          crash = service.crashAndRestart();
        }
      },
    });
    await crash;
    result.succeeded = 1;
    if (done.checksum_sha256 !== checksum || done.size_bytes !== total || done.status !== "completed") {
      result.lost = 1;
      result.notes.push(`answered ${done.status}, ${done.size_bytes} bytes, ${done.checksum_sha256} (expected ${checksum})`);
    }
  } catch (err) {
    await crash?.catch(() => {});
    result.failed = 1;
    result.notes.push(`${(err as Error).name}: ${(err as Error).message}`);
  } finally {
    await so.close();
    result.wallMs = performance.now() - started;
    result.emulatorPeakRss = emulatorRss.stop();
    result.clientPeakRss = clientRss.stop();
    rmSync(file, { force: true });
  }
  result.notes.push(crash ? `emulator killed (SIGKILL) and restarted at ${(crashedAt / 1024 / 1024).toFixed(0)} MiB sent` : "the upload ended before the crash point: no kill");
  // The service's record after the restart, read without faults: one snapshot, completed, the right data.
  await service.faultsOff();
  const observer = new SiteOps({ baseUrl: service.url, apiToken: service.token });
  try {
    const snaps = await observer.snapshots.list(site.id).toArray();
    result.duplicates = Math.max(0, snaps.length - 1);
    const held = snaps.find((s) => s.id === snap.id);
    if (result.succeeded && (held?.status !== "completed" || held.checksum_sha256 !== checksum)) result.lost = 1;
    const parts = partFiles(path.join(service.dir, "data"));
    if (parts.length) result.notes.push(`partial files left in the data dir: ${parts.join(", ")}`);
    await observer.sites.delete(site.id);
  } finally {
    await observer.close();
  }
  return result;
}
