// Spawn-and-collect for every suite: run a program, keep its stdout, stderr, exit code and signal, optionally wait
// for text to appear or for its first stdout line (a server's start-up line), and stop it.
import { spawn, type ChildProcess } from "node:child_process";

export interface Collected {
  /** The exit code; null when a signal ended the process. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface StartOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Written to stdin, then closed. Absent: stdin is /dev/null. */
  input?: string | Buffer;
  /** Leave stdin open for the caller to write (`child.stdin`), instead of /dev/null. */
  openStdin?: boolean;
  /** Its own process group (stop it and its children with `process.kill(-pid)`). */
  detached?: boolean;
  /** SIGKILL after this long (none when absent). */
  timeoutMs?: number;
  /** Sees stdout and stderr so far each time either grows. */
  onOutput?: (stdout: string, stderr: string) => void;
}

export interface Started {
  child: ChildProcess;
  /** Settles once the process has exited and its streams are closed; rejects when it could not be started. */
  done: Promise<Collected>;
  /** Output so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves once the stream's output so far matches; rejects when the process exits first. */
  waitFor(pattern: RegExp, stream?: "stdout" | "stderr"): Promise<void>;
}

/** Starts `cmd args` with its output collected as it comes. */
export function start(cmd: string, args: readonly string[], options: StartOptions = {}): Started {
  const child = spawn(cmd, [...args], {
    cwd: options.cwd,
    env: options.env,
    detached: options.detached,
    stdio: [options.input === undefined && !options.openStdin ? "ignore" : "pipe", "pipe", "pipe"],
  });
  const out = { stdout: "", stderr: "" };
  const waiters: { pattern: RegExp; stream: "stdout" | "stderr"; resolve: () => void }[] = [];
  const grew = () => {
    options.onOutput?.(out.stdout, out.stderr);
    for (const w of [...waiters]) {
      if (w.pattern.test(out[w.stream])) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  child.stdout!.setEncoding("utf8").on("data", (c: string) => {
    out.stdout += c;
    grew();
  });
  child.stderr!.setEncoding("utf8").on("data", (c: string) => {
    out.stderr += c;
    grew();
  });
  if (options.input !== undefined) child.stdin!.end(options.input);
  const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
  const done = new Promise<Collected>((resolve, reject) => {
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: out.stdout, stderr: out.stderr });
    });
  });
  return {
    child,
    done,
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    waitFor(pattern, stream = "stderr") {
      return new Promise((resolve, reject) => {
        waiters.push({ pattern, stream, resolve });
        grew();
        void done.then(() => reject(new Error(`${cmd} exited before ${pattern} appeared on ${stream}:\n${out[stream]}`)), reject);
      });
    },
  };
}

/** Runs `cmd args` to its end and returns what it printed and how it exited. */
export function collect(cmd: string, args: readonly string[], options: StartOptions = {}): Promise<Collected> {
  return start(cmd, args, options).done;
}

export interface RunResult {
  /** The exit code; -1 when a signal ended the process. */
  code: number;
  stdout: string;
  stderr: string;
}

/** `collect` with the exit code as a number (-1 for a signal), for callers that only compare codes. */
export async function run(cmd: string, args: readonly string[], options: StartOptions = {}): Promise<RunResult> {
  const { code, stdout, stderr } = await collect(cmd, args, options);
  return { code: code ?? -1, stdout, stderr };
}

/** The process's first line on stdout (a server's start-up line); rejects when it exits before printing one. */
export async function firstLine(started: Started): Promise<string> {
  await started.waitFor(/\n/, "stdout");
  return started.stdout().split("\n", 1)[0]!;
}

/** Sends `signal` (SIGTERM) unless the process has already exited, and resolves with its exit code once it has. */
export function stop(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill(signal);
  return exited;
}
