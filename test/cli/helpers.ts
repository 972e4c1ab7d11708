// Runs the built CLI (bin/siteops.js, which loads dist/cli/siteops.cjs: `npm run build` first) as a child process
// the way a user or cron does, against the emulator on a port-0 listener, each test with its own config and
// runtime dirs. Every output is kept so that a suite can check that no token ever appeared in any of them.
import { existsSync, mkdirSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import type { EmulatorOptions } from "../../emulator/index.js";
import { ROOT } from "../support/paths.js";
import { start, type Collected, type Started } from "../support/processes.js";
import { removeDir, tempDir } from "../support/temp.js";
import { OWNER_TOKEN, startTestEmulator, type TestEmulator } from "../core/helpers.js";

export { ROOT };
export const BIN = path.join(ROOT, "bin/siteops.js");

if (!existsSync(path.join(ROOT, "dist/cli/siteops.cjs"))) throw new Error("dist/cli/siteops.cjs is missing: run `npm run build` before the CLI tests");

export type CliResult = Collected;

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
  const dir = tempDir("cli-test");
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
  return { dir, env, configFile: path.join(dir, "config", "siteops", "config.json"), cleanup: () => removeDir(dir) };
}

export interface TestBed {
  emu: TestEmulator;
  box: Sandbox;
  /** The sandbox's environment pointed at the emulator with the owner's token (SITEOPS_BASE_URL/_API_TOKEN). */
  env: NodeJS.ProcessEnv;
}

/**
 * For a test file: an emulator on port 0 (seeded with test/core/helpers' SEED) and a sandbox, started before
 * its tests and closed after them (`each`: a fresh pair for every test); then every output of the file is checked
 * for the token. The fields are set once the first beforeAll (beforeEach) ran.
 */
export function useTestBed(options: EmulatorOptions = {}, extraEnv: NodeJS.ProcessEnv = {}, { each = false } = {}): TestBed {
  const bed = {} as TestBed;
  (each ? beforeEach : beforeAll)(async () => {
    bed.emu = await startTestEmulator(options);
    bed.box = sandbox();
    bed.env = { ...bed.box.env, SITEOPS_BASE_URL: bed.emu.url, SITEOPS_API_TOKEN: OWNER_TOKEN, SITEOPS_POLL_INTERVAL_MS: "50", ...extraEnv };
  });
  (each ? afterEach : afterAll)(async () => {
    bed.box?.cleanup();
    await bed.emu?.close();
  });
  afterAll(() => {
    for (const text of transcripts) expect(text).not.toContain(OWNER_TOKEN);
  });
  return bed;
}

export interface RunOptions {
  env: NodeJS.ProcessEnv;
  /** Written to stdin, then closed. Absent: stdin is /dev/null. */
  input?: string | Buffer;
  timeoutMs?: number;
  /** The folder it runs in (default: this process's). */
  cwd?: string;
}

/** Runs `siteops ...args` to completion. */
export function runCli(args: readonly string[], options: RunOptions): Promise<CliResult> {
  const child = startCli(args, options);
  return child.done;
}

export type RunningCli = Started;

export function startCli(args: readonly string[], options: RunOptions): RunningCli {
  const started = start(process.execPath, [BIN, ...args], {
    env: options.env,
    input: options.input,
    timeoutMs: options.timeoutMs ?? 50_000,
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  const done = started.done.then((r) => {
    transcripts.push(r.stdout, r.stderr);
    return r;
  });
  return { ...started, done };
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
  const answers = [...(options.answers ?? [])];
  const started = start("script", ["-qec", command, "/dev/null"], {
    env,
    openStdin: true,
    timeoutMs: options.timeoutMs ?? 50_000,
    // script's stdin stays open until the command exits: at EOF it would end the session.
    onOutput: (stdout) => {
      while (answers.length && answers[0]![0].test(stdout)) started.child.stdin!.write(answers.shift()![1]);
    },
  });
  started.child.on("exit", () => started.child.stdin!.end());
  return started.done.then((r) => {
    transcripts.push(r.stdout, r.stderr);
    return r;
  });
}

/** A webhook receiver on loopback (a --notify URL, its path `hookPath`): the bodies it got. */
export async function startReceiver(hookPath: string): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      bodies.push(body);
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${hookPath}`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
