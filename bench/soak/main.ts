// `npm run soak`: the toolkit against a file-backed emulator that lies as networks do (the fault profile in
// emulator.ts): site creates/updates/deletes through the core, the action's `snapshot all`, a Terraform
// apply/update/destroy, and a resumable upload through a SIGKILL and restart of the emulator; each checked
// against the service's state. Prints one table; exits 1 unless 0 failed, 0 duplicates, 0 lost.
// Knobs: SOAK_SITES (500), SOAK_FLEET (100), SOAK_TF (50), SOAK_UPLOAD_MB (300), SOAK_SKIP=core,action,terraform,upload,
// SOAK_429_BURST=N (off: bursts of N consecutive 429s, emulator.ts).
// Loopback only; not part of `npm test`.
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { mib } from "../lib/processes.js";
import { SoakEmulator } from "./emulator.js";
import { actionSnapshotAll, coreCrud, terraformLifecycle, uploadThroughCrash, type PhaseResult } from "./phases.js";

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const skip = new Set((process.env.SOAK_SKIP ?? "").split(",").filter(Boolean));
const dir = mkdtempSync(path.join(tmpdir(), "siteops-soak-"));
const emu = new SoakEmulator(dir);
const results: PhaseResult[] = [];
const clientPeak = { rss: 0 };
const sampler = setInterval(() => (clientPeak.rss = Math.max(clientPeak.rss, process.memoryUsage.rss())), 100);
const started = performance.now();
const load = loadavg()[0]!.toFixed(2);

try {
  await emu.start();
  const run = async (name: string, phase: () => Promise<PhaseResult>) => {
    if (skip.has(name)) return;
    console.error(`soak: ${name}...`);
    const r = await phase();
    results.push(r);
    console.error(`soak: ${name} done in ${(r.wallMs / 1000).toFixed(1)} s`);
  };
  await run("core", () => coreCrud(emu, num("SOAK_SITES", 500)));
  await run("action", () => actionSnapshotAll(emu, num("SOAK_FLEET", 100), dir));
  await run("terraform", () => terraformLifecycle(emu, num("SOAK_TF", 50), dir));
  await run("upload", () => uploadThroughCrash(emu, num("SOAK_UPLOAD_MB", 300), dir));
} finally {
  clearInterval(sampler);
  await emu.stop();
  rmSync(dir, { recursive: true, force: true });
}

const total = (k: "operations" | "succeeded" | "failed" | "duplicates" | "lost") => results.reduce((t, r) => t + r[k], 0);
const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
console.log(
  `Soak, ${new Date().toISOString()}, load average at start ${load}; faults: 10 % 503 before, 5 % reset after, 2 % 429 (Retry-After 1 s), 1 % cut mid-body${process.env.SOAK_429_BURST ? `, bursts of ${process.env.SOAK_429_BURST} 429s every 10 s` : ""}\n`,
);
console.log(line(["phase", "operations", "succeeded", "failed", "duplicates", "lost", "wall s"]));
console.log(line(["---", "---", "---", "---", "---", "---", "---"]));
for (const r of results) console.log(line([r.phase, r.operations, r.succeeded, r.failed, r.duplicates, r.lost, (r.wallMs / 1000).toFixed(1)]));
console.log(
  line([
    "**total**",
    total("operations"),
    total("succeeded"),
    total("failed"),
    total("duplicates"),
    total("lost"),
    ((performance.now() - started) / 1000).toFixed(1),
  ]),
);
const [s503, reset, s429, cut] = emu.struck;
console.log(`\nfaults that struck: ${s503} x 503 before the handler, ${reset} x reset after the commit, ${s429} x 429, ${cut} x cut mid-body`);
console.log(`peak RSS: emulator ${mib(emu.peakRss)}, soak driver (core client) ${mib(clientPeak.rss)}`);
for (const r of results) for (const n of r.notes.slice(0, 10)) console.log(`- ${r.phase}: ${n}`);
const ok = total("failed") === 0 && total("duplicates") === 0 && total("lost") === 0 && results.length > 0;
console.log(ok ? "\nsoak: 0 failed, 0 duplicates, 0 lost" : "\nsoak: TARGET MISSED (0 failed, 0 duplicates, 0 lost)");
process.exit(ok ? 0 : 1);
