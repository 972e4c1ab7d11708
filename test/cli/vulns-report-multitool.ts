// Microsoft's SARIF Multitool (the devDependency @microsoft/sarif-multitool, a self-contained binary per platform)
// run on a SARIF file: the SARIF 2.1.0 schema and GitHub code scanning's ingestion rules ("Gh;Sarif"), offline.
// npm 11 does not run its postinstall, which makes the binary executable: done here. Tests skip only when the
// binary truly cannot run on this machine, and never in CI (CI=true): there that is a failure.
import { spawnSync } from "node:child_process";
import { accessSync, chmodSync, constants, existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
// The package's documented entry: the absolute path of this platform's executable (its optional dependency).
import MULTITOOL from "@microsoft/sarif-multitool";
import { tempDir, removeDir } from "../support/temp.js";

/** Why the Multitool cannot run here (then the tests that need it skip), or null when it runs. Throws in CI. */
export function multitoolUnavailable(): string | null {
  const reason = probe();
  if (reason && process.env.CI && process.env.CI !== "false") throw new Error(`the SARIF Multitool must run in CI: ${reason}`);
  return reason;
}

function probe(): string | null {
  if (process.arch !== "x64") return `it ships for x64 only (this is ${process.platform}-${process.arch})`;
  if (!existsSync(MULTITOOL)) return `${MULTITOOL} is missing (npm install)`;
  try {
    accessSync(MULTITOOL, constants.X_OK);
  } catch {
    chmodSync(MULTITOOL, statSync(MULTITOOL).mode | 0o100);
  }
  const run = spawnSync(MULTITOOL, ["--version"], { encoding: "utf8", timeout: 60_000 });
  if (run.error) return `it cannot start: ${run.error.message}`;
  if (run.status !== 0) return `--version exited ${run.status}: ${(run.stderr || run.stdout).trim().slice(0, 300)}`;
  return null;
}

export interface Finding {
  ruleId: string;
  level: string;
  message: string;
}

/** The Multitool's findings on `file` (errors and warnings, its SARIF and GitHub rules). */
export function validateSarif(file: string): Finding[] {
  const dir = tempDir("sarif-validate");
  try {
    const out = path.join(dir, "validation.sarif");
    const run = spawnSync(MULTITOOL, ["validate", file, "--rule-kind", "Gh;Sarif", "-o", out, "--log", "ForceOverwrite"], {
      encoding: "utf8",
      timeout: 120_000,
    });
    if (run.status !== 0 || !existsSync(out)) throw new Error(`Sarif.Multitool validate failed (exit ${run.status}): ${run.stdout}\n${run.stderr}`);
    const log = JSON.parse(readFileSync(out, "utf8")) as {
      runs: { results?: { ruleId: string; level?: string; message: { text?: string; id?: string; arguments?: string[] } }[] }[];
    };
    return (log.runs[0]?.results ?? []).map((r) => ({
      ruleId: r.ruleId,
      level: r.level ?? "warning",
      message: r.message.text ?? `${r.message.id ?? ""} ${(r.message.arguments ?? []).join(" | ")}`,
    }));
  } finally {
    removeDir(dir);
  }
}

/** The findings at level error (what code scanning would refuse). */
export function sarifErrors(file: string): Finding[] {
  return validateSarif(file).filter((f) => f.level === "error");
}
