// `npm run soak`: the reliability soak (issue 12). A file-backed emulator (its own process, loopback only)
// with a mixed fault profile (service.ts) takes, in sequence: site creates/updates/deletes through the core,
// a `snapshot all` by the bundled action, a terraform apply + update + destroy with the built provider, and a
// resumable upload with one `kill -9` + restart of the emulator. Each phase checks the service's state against
// the expected state; one table is printed. Exit status 1 when anything failed, was duplicated, lost or left.
// Knobs: SOAK_SITES (500), SOAK_ACTION_SITES (100), SOAK_TF_SITES (50), SOAK_UPLOAD_MB (300),
// SOAK_SKIP=core,action,terraform,upload. Bounded: every call is bounded by the client's retry budget.
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { TOKEN } from "../core-helpers.js";
import { actionPhase } from "./action-phase.js";
import { corePhase } from "./core-phase.js";
import { printTable, type PhaseResult } from "./report.js";
import { BURST_EVERY_MS, BURST_MS, FAULT_PROFILE, FaultedService } from "./service.js";
import { terraformPhase } from "./terraform-phase.js";
import { uploadPhase } from "./upload-phase.js";

function knob(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`soak: ${name} must be a positive integer, got "${raw}"`);
    process.exit(2);
  }
  return n;
}

const PHASES = ["core", "action", "terraform", "upload"] as const;
const skip = new Set((process.env.SOAK_SKIP ?? "").split(",").map((s) => s.trim()).filter(Boolean));
for (const s of skip) {
  if (!(PHASES as readonly string[]).includes(s)) {
    console.error(`soak: SOAK_SKIP names unknown phase "${s}" (phases: ${PHASES.join(", ")})`);
    process.exit(2);
  }
}
const sizes = {
  core: knob("SOAK_SITES", 500),
  action: knob("SOAK_ACTION_SITES", 100),
  terraform: knob("SOAK_TF_SITES", 50),
  upload: knob("SOAK_UPLOAD_MB", 300),
};

const dir = mkdtempSync(path.join(tmpdir(), "siteops-soak-"));
const service = await FaultedService.start(dir, TOKEN);
const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");
console.log(`soak: emulator ${service.url} (db ${path.join(dir, "soak.db")}), ${cpus().length} CPUs, load average before: ${load()}`);
console.log(`soak: faults ${JSON.stringify(FAULT_PROFILE)} + every ${BURST_EVERY_MS / 1000} s a ${BURST_MS / 1000} s window of 429s for every call`);
const rows: PhaseResult[] = [];
let exitCode = 0;
try {
  const run = async (name: (typeof PHASES)[number], phase: () => Promise<PhaseResult>) => {
    if (skip.has(name)) return;
    console.log(`soak: ${name} ...`);
    const struck = service.faultsStruck;
    const row = await phase();
    row.notes.unshift(`${service.faultsStruck - struck} faults struck`);
    console.log(`soak: ${name} done in ${(row.wallMs / 1000).toFixed(1)} s (${row.failed} failed)`);
    rows.push(row);
  };
  await run("core", () => corePhase(service, sizes.core));
  await run("action", () => actionPhase(service, sizes.action));
  await run("terraform", () => terraformPhase(service, sizes.terraform));
  await run("upload", () => uploadPhase(service, sizes.upload));
} catch (err) {
  console.error(`soak: aborted: ${(err as Error).stack ?? err}`);
  exitCode = 1;
} finally {
  await service.stop();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`\n${printTable(rows)}\n`);
console.log(`load average after: ${load()}`);
if (rows.some((r) => r.failed || r.duplicates || r.lost || r.stale)) exitCode = 1;
process.exit(exitCode);
