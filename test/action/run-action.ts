// Runs the bundled action (action/dist/index.js) the way the GitHub runner does: a Node child process with
// INPUT_<NAME> variables (upper-cased, spaces to underscores, hyphens kept), the GITHUB_* context variables,
// and GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files it appends to.
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { removeDir, tempDir } from "../support/temp.js";

const ACTION_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../action");
export const ACTION = path.join(ACTION_DIR, "dist/index.js");

/** The `default:` of each input in action.yml: the runner sets INPUT_* for those even when a workflow
 * does not. (A line-based read: action.yml keeps one `default: "..."` line per input.) */
function actionDefaults(): Record<string, string> {
  const defaults: Record<string, string> = {};
  let section = "";
  let input = "";
  for (const line of readFileSync(path.join(ACTION_DIR, "action.yml"), "utf8").split("\n")) {
    const top = /^(\w[\w-]*):/.exec(line);
    if (top) section = top[1]!;
    const name = /^ {2}([\w-]+):\s*$/.exec(line);
    if (name) input = name[1]!;
    const value = /^ {4}default:\s*(?:"([^"]*)"|(\S.*))\s*$/.exec(line);
    if (section === "inputs" && value) defaults[input] = value[1] ?? value[2]!;
  }
  return defaults;
}

export const GITHUB_CONTEXT = {
  GITHUB_ACTIONS: "true",
  GITHUB_REPOSITORY: "acme/website",
  GITHUB_SHA: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
  GITHUB_REF: "refs/heads/main",
  GITHUB_RUN_ID: "4242",
  GITHUB_RUN_NUMBER: "17",
  GITHUB_RUN_ATTEMPT: "1",
  GITHUB_SERVER_URL: "https://github.com",
  GITHUB_API_URL: "https://api.github.com",
  GITHUB_ACTOR: "octocat",
  GITHUB_WORKFLOW: "Deploy",
  GITHUB_JOB: "deploy",
  GITHUB_EVENT_NAME: "push",
  GITHUB_ACTION: "siteops",
} as const;

export const RUN_URL = "https://github.com/acme/website/actions/runs/4242";

/** Each run of the action is another step of the run (GITHUB_ACTION), unless a test names the step: a step's
 * snapshot requests are named by it, so a second run of one step is a re-run that adopts the first's snapshots
 * (test/action/resume.test.ts). */
let steps = 0;

export interface ActionRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Parsed from the GITHUB_OUTPUT file. */
  outputs: Record<string, string>;
  /** The GITHUB_STEP_SUMMARY file. */
  summary: string;
  /** The `::error::` lines' messages. */
  errors: string[];
  warnings: string[];
  notices: string[];
  /** Everything a user of the run can see: the log (minus the ::add-mask:: command the runner consumes),
   * the summary and the outputs. */
  visible: string;
}

export function inputEnv(inputs: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] = value;
  return env;
}

export interface RunOptions {
  /** The step's working directory (GITHUB_WORKSPACE on a runner); default: this process's. */
  cwd?: string;
  /** Sends `signal` to the action once its stdout matches `when` (a cancelled workflow run sends SIGINT). */
  interrupt?: { when: RegExp; signal: NodeJS.Signals };
}

export async function runAction(inputs: Record<string, string>, extraEnv: Record<string, string> = {}, options: RunOptions = {}): Promise<ActionRun> {
  const dir = tempDir("action-run");
  const outputFile = path.join(dir, "output");
  const summaryFile = path.join(dir, "summary");
  const eventFile = path.join(dir, "event.json");
  writeFileSync(outputFile, "");
  writeFileSync(summaryFile, "");
  writeFileSync(
    eventFile,
    JSON.stringify({
      ref: GITHUB_CONTEXT.GITHUB_REF,
      after: GITHUB_CONTEXT.GITHUB_SHA,
      repository: { name: "website", full_name: "acme/website", owner: { login: "acme" } },
    }),
  );
  // Nothing from the test's own environment (no SITEOPS_* leaking in), as on a fresh runner.
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: dir,
    RUNNER_TEMP: dir,
    GITHUB_WORKSPACE: dir,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_EVENT_PATH: eventFile,
    ...GITHUB_CONTEXT,
    GITHUB_ACTION: `siteops-${++steps}`,
    ...inputEnv({ ...actionDefaults(), ...inputs }),
    ...extraEnv,
  };
  try {
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, [ACTION], { env, cwd: options.cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === "number" ? (err as { code: number }).code : 1) : 0;
        resolve({ code, stdout, stderr });
      });
      const interrupt = options.interrupt;
      if (interrupt) {
        let seen = "";
        const onData = (chunk: string): void => {
          seen += chunk;
          if (!interrupt.when.test(seen)) return;
          child.stdout?.off("data", onData);
          child.kill(interrupt.signal);
        };
        child.stdout?.on("data", onData);
      }
    });
    const outputs = parseOutputs(readFileSync(outputFile, "utf8"));
    const summary = readFileSync(summaryFile, "utf8");
    const lines = stdout.split("\n");
    const commands = (kind: string) => lines.filter((l) => l.startsWith(`::${kind}`)).map((l) => l.slice(l.indexOf("::", 2) + 2));
    const log = lines.filter((l) => !l.startsWith("::add-mask::")).join("\n");
    return {
      code,
      stdout,
      stderr,
      outputs,
      summary,
      errors: commands("error"),
      warnings: commands("warning"),
      notices: commands("notice"),
      visible: [log, stderr, summary, ...Object.values(outputs)].join("\n"),
    };
  } finally {
    removeDir(dir);
  }
}

/** The runner's file-command format: `name<<DELIMITER\nvalue\nDELIMITER`. */
export function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /^(.+?)<<(\S+)\n([\s\S]*?)\n?\2$/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) out[m[1]!] = m[3]!;
  return out;
}
