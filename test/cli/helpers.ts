// Runs the built CLI (bin/siteops.js, which loads dist/cli/siteops.cjs: `npm run build` first) as a child process
// the way a user or cron does, against the emulator on a port-0 listener, each test with its own config and
// runtime dirs. Every output is kept so that a suite can check that no token ever appeared in any of them.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect } from "vitest";
import type { EmulatorOptions } from "../../emulator/index.js";
import { OWNER_TOKEN, startTestEmulator, type TestEmulator } from "../core/helpers.js";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const BIN = path.join(ROOT, "bin/siteops.js");

if (!existsSync(path.join(ROOT, "dist/cli/siteops.cjs"))) throw new Error("dist/cli/siteops.cjs is missing: run `npm run build` before the CLI tests");

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Every stdout and stderr the CLI produced in this process (for the "token never printed" checks). */
export const transcripts: string[] = [];

export interface Sandbox {
  dir: string;
  /** Environment with the sandbox's HOME, XDG_CONFIG_HOME and XDG_RUNTIME_DIR, and no SITEOPS_* from outside. */
  env: NodeJS.ProcessEnv;
  configFile: string;
  cleanup(): void;
}

export function sandbox(extra: NodeJS.ProcessEnv = {}): Sandbox {
  const dir = mkdtempSync(path.join(tmpdir(), "siteops-cli-test-"));
  const runtime = path.join(dir, "run");
  mkdirSync(runtime, { mode: 0o700 });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: dir,
    XDG_CONFIG_HOME: path.join(dir, "config"),
    XDG_RUNTIME_DIR: runtime,
    TZ: "UTC",
    ...extra,
  };
  return { dir, env, configFile: path.join(dir, "config", "siteops", "config.json"), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface TestBed {
  emu: TestEmulator;
  box: Sandbox;
  /** The sandbox's environment pointed at the emulator with the owner's token (SITEOPS_BASE_URL/_API_TOKEN). */
  env: NodeJS.ProcessEnv;
}

/**
 * For a test file: an emulator on port 0 (seeded with test/core/helpers' SEED) and a sandbox, started before
 * its tests and closed after them; then every output of the file is checked for the token. The fields are set
 * once the file's first beforeAll ran.
 */
export function useTestBed(options: EmulatorOptions = {}, extraEnv: NodeJS.ProcessEnv = {}): TestBed {
  const bed = {} as TestBed;
  beforeAll(async () => {
    bed.emu = await startTestEmulator(options);
    bed.box = sandbox();
    bed.env = { ...bed.box.env, SITEOPS_BASE_URL: bed.emu.url, SITEOPS_API_TOKEN: OWNER_TOKEN, SITEOPS_POLL_INTERVAL_MS: "50", ...extraEnv };
  });
  afterAll(async () => {
    bed.box?.cleanup();
    await bed.emu?.close();
    for (const text of transcripts) expect(text).not.toContain(OWNER_TOKEN);
  });
  return bed;
}

export interface RunOptions {
  env: NodeJS.ProcessEnv;
  /** Written to stdin, then closed. Absent: stdin is /dev/null. */
  input?: string | Buffer;
  timeoutMs?: number;
}

/** Runs `siteops ...args` to completion. */
export function runCli(args: readonly string[], options: RunOptions): Promise<CliResult> {
  const child = startCli(args, options);
  return child.done;
}

export interface RunningCli {
  child: ChildProcess;
  done: Promise<CliResult>;
  /** Output so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves when stderr (or stdout) matches. */
  waitFor(pattern: RegExp, stream?: "stdout" | "stderr"): Promise<void>;
}

export function startCli(args: readonly string[], options: RunOptions): RunningCli {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: options.env,
    stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const waiters: { pattern: RegExp; stream: "stdout" | "stderr"; resolve: () => void }[] = [];
  const check = () => {
    for (const w of [...waiters]) {
      if (w.pattern.test(w.stream === "stdout" ? stdout : stderr)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  child.stdout!.on("data", (d: Buffer) => {
    stdout += d.toString();
    check();
  });
  child.stderr!.on("data", (d: Buffer) => {
    stderr += d.toString();
    check();
  });
  if (options.input !== undefined) child.stdin!.end(options.input);
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 50_000);
  const done = new Promise<CliResult>((resolve) => {
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      transcripts.push(stdout, stderr);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return {
    child,
    done,
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor(pattern, stream = "stderr") {
      return new Promise((resolve, reject) => {
        waiters.push({ pattern, stream, resolve });
        check();
        void done.then(() => reject(new Error(`the CLI exited before ${pattern} appeared on ${stream}:\n${stream === "stdout" ? stdout : stderr}`)));
      });
    },
  };
}

/** Parses stdout as JSON, with the output in the error when it is not. */
export function json<T = unknown>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON (exit ${result.code}):\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
}

/** Runs a command line under a pseudo-terminal (util-linux `script`), as a person at a terminal would. Each
 * answer is typed once its prompt has appeared in the output. */
export function runInTerminal(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  options: { columns?: number; rows?: number; answers?: [RegExp, string][]; timeoutMs?: number } = {},
): Promise<CliResult> {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const command = `stty cols ${options.columns ?? 120} rows ${options.rows ?? 40} 2>/dev/null; ${quoted}`;
  return new Promise((resolve) => {
    const child = spawn("script", ["-qec", command, "/dev/null"], { env, stdio: ["pipe", "pipe", "pipe"] });
    const answers = [...(options.answers ?? [])];
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      // script's stdin stays open until the command exits: at EOF it would end the session.
      while (answers.length && answers[0]![0].test(stdout)) child.stdin.write(answers.shift()![1]);
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 50_000);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      transcripts.push(stdout, stderr);
      resolve({ code, signal, stdout, stderr });
    });
    child.on("exit", () => child.stdin.end());
  });
}
