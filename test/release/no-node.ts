// Terraform run where no Node.js can be reached: in a user + mount namespace (unshare) in which every
// Node.js binary of this machine is bind-mounted over by a stub that records being run, with PATH holding
// terraform alone and a NODE_OPTIONS that would break any Node.js that honoured it. Also a process runner and
// the CLI configuration files the release tests write.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../support/paths.js";
import { run, type RunResult } from "../support/processes.js";
import { removeDir, tempDir } from "../support/temp.js";

/** Every Node.js binary on this machine that a process could find: on PATH, this one, the cached ones. */
function nodeBinaries(): string[] {
  const found = new Set<string>();
  const add = (file: string) => {
    if (existsSync(file) && statSync(file).isFile()) found.add(realpathSync(file));
  };
  for (const dir of (process.env.PATH ?? "").split(path.delimiter).filter(Boolean)) add(path.join(dir, "node"));
  for (const dir of ["/usr/bin", "/usr/local/bin", "/bin"]) add(path.join(dir, "node"));
  add(process.execPath);
  const cache = path.join(ROOT, "node_modules/.cache/siteops-sea");
  if (existsSync(cache)) for (const pkg of readdirSync(cache)) add(path.join(cache, pkg, "package/bin/node"));
  return [...found];
}

function which(cmd: string): string {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const file = path.join(dir, cmd);
    if (dir && existsSync(file)) return file;
  }
  throw new Error(`${cmd} is not on PATH`);
}

export type { RunResult };

/** Runs a process to its end, collecting its output. */
export const runProcess = (cmd: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<RunResult> => run(cmd, args, options);

/**
 * Runs terraform. With `noNode`, in a user + mount namespace (unshare) where every Node.js binary is bind-
 * mounted over by a stub that appends to `nodeRuns()` and exits 97, with PATH holding terraform alone and a
 * NODE_OPTIONS that would break any Node.js that honoured it.
 */
export class TerraformRunner {
  readonly dir: string;
  private readonly bin: string;
  private readonly marker: string;
  private readonly stub: string;

  constructor(readonly cliConfig: string) {
    this.dir = tempDir("release-tf");
    this.bin = path.join(this.dir, "bin");
    mkdirSync(this.bin);
    symlinkSync(realpathSync(which("terraform")), path.join(this.bin, "terraform"));
    this.marker = path.join(this.dir, "node-runs.log");
    this.stub = path.join(this.dir, "node-stub");
    writeFileSync(this.stub, `#!/bin/sh\necho "node run: $0 $*" >> ${JSON.stringify(this.marker)}\nexit 97\n`);
    chmodSync(this.stub, 0o755);
  }

  /** What the stubbed Node.js binaries recorded (empty when none ran). */
  nodeRuns(): string {
    return existsSync(this.marker) ? readFileSync(this.marker, "utf8") : "";
  }

  run(cwd: string, args: string[], options: { env?: Record<string, string>; noNode?: boolean } = {}): Promise<RunResult> {
    const env: Record<string, string> = {
      TF_CLI_CONFIG_FILE: this.cliConfig,
      CHECKPOINT_DISABLE: "1",
      TF_IN_AUTOMATION: "1",
      HOME: this.dir,
      PATH: options.noNode ? this.bin : (process.env.PATH ?? ""),
      ...options.env,
    };
    let cmd = "terraform";
    let argv = args;
    if (options.noNode) {
      env.NODE_OPTIONS = "--require /nonexistent/siteops-poison.js";
      const script = [
        "set -e",
        ...nodeBinaries().map((n) => `${which("mount")} --bind ${JSON.stringify(this.stub)} ${JSON.stringify(n)}`),
        `exec terraform "$@"`,
      ].join("\n");
      cmd = which("unshare");
      argv = ["--user", "--map-root-user", "--mount", "/bin/sh", "-c", script, "sh", ...args];
    }
    return runProcess(cmd, argv, { cwd, env });
  }

  async ok(cwd: string, args: string[], options: { env?: Record<string, string>; noNode?: boolean } = {}): Promise<RunResult> {
    const r = await this.run(cwd, args, options);
    if (r.code !== 0) throw new Error(`terraform ${args.join(" ")} exited ${r.code}\n${r.stdout}\n${r.stderr}\n${this.nodeRuns()}`);
    return r;
  }

  close(): void {
    removeDir(this.dir);
  }
}

export function cliConfig(file: string, installation: string): string {
  writeFileSync(file, `provider_installation {\n${installation}\n  direct {\n    exclude = ["registry.terraform.io/siteops/siteops"]\n  }\n}\n`);
  return file;
}
