// Where test/docs runs the guides' blocks: a temp folder laid out as a reader's is after the README's Install
// (`siteops/`, the clone, with the packed `siteops/siteops-<version>.tgz` beside its files), its own HOME, npm
// global prefix and lock directory, `siteops` on the PATH (the built CLI; a global install from a block comes
// first), and SITEOPS_BASE_URL / SITEOPS_API_TOKEN naming an emulator with demo data on a port-0 listener.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { homedir } from "node:os";
import path from "node:path";
import { removeDir, tempDir } from "../support/temp.js";

export interface ScriptResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A free loopback port, for the blocks that start their own emulator on the documented port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** This user's npm cache: the sandbox has its own HOME, but npm keeps reading packages from here. */
const NPM_CACHE = spawnSync("npm", ["config", "get", "cache"], { encoding: "utf8" }).stdout.trim() || path.join(homedir(), ".npm");

export class Sandbox {
  private constructor(
    readonly dir: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  static create(root: string, service: { url: string; token: string }): Sandbox {
    const dir = tempDir("docs");
    const clone = path.join(dir, "siteops");
    mkdirSync(clone);
    for (const name of readdirSync(root)) {
      if (name === ".git" || name.endsWith(".tgz")) continue;
      symlinkSync(path.join(root, name), path.join(clone, name));
    }
    const packed = spawnSync("npm", ["pack", "--ignore-scripts", "--pack-destination", clone], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, npm_config_loglevel: "error" },
    });
    if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
    const bin = path.join(dir, "bin");
    const global = path.join(dir, "global");
    for (const d of [bin, global, path.join(dir, "home"), path.join(dir, "run")]) mkdirSync(d, { mode: 0o700 });
    writeFileSync(path.join(bin, "siteops"), `#!/bin/sh\nexec "${process.execPath}" "${path.join(root, "bin/siteops.js")}" "$@"\n`);
    chmodSync(path.join(bin, "siteops"), 0o755);
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|SITEOPS_|XDG_|TF_)/i.test(k)));
    const env: NodeJS.ProcessEnv = {
      ...inherited,
      PATH: [path.join(global, "bin"), bin, path.dirname(process.execPath), process.env.PATH].join(path.delimiter),
      HOME: path.join(dir, "home"),
      XDG_RUNTIME_DIR: path.join(dir, "run"),
      npm_config_cache: NPM_CACHE,
      npm_config_prefix: global,
      npm_config_prefer_offline: "true",
      npm_config_audit: "false",
      npm_config_fund: "false",
      npm_config_update_notifier: "false",
      CHECKPOINT_DISABLE: "1",
      NO_COLOR: "1",
      SITEOPS_BASE_URL: service.url,
      SITEOPS_API_TOKEN: service.token,
    };
    return new Sandbox(dir, env);
  }

  /** Runs a bash script in the sandbox's folder; whatever it leaves running (a backgrounded emulator) is killed. */
  run(script: string, timeoutMs: number): Promise<ScriptResult> {
    return new Promise((resolve, reject) => {
      const child = spawn("bash", ["-c", script], { cwd: this.dir, env: this.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      const killGroup = () => {
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {
          // the group is gone already
        }
      };
      const timer = setTimeout(() => {
        stderr += `\n(test/docs: stopped after ${timeoutMs / 1000} s)`;
        killGroup();
      }, timeoutMs);
      child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
      child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
      child.on("error", reject);
      child.on("exit", (code, signal) => {
        clearTimeout(timer);
        killGroup();
        resolve({ code: code ?? (signal ? 128 : -1), stdout, stderr });
      });
    });
  }

  remove(): void {
    removeDir(this.dir);
  }
}
