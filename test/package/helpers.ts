// The consumer's path: the packed tarball installed into a fresh temp project with the README's own install
// lines, then the README's snippets and the CLI run from there, never from the source tree. Each test file
// installs one project once (beforeAll). The commands a consumer runs, npm included, use SITEOPS_TEST_NODE when
// set (.ci/run's legs on 22, 24 and 26), else this Node; an emulator a test starts in-process runs on this Node.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { ROOT, TSX_LOADER } from "../support/paths.js";
import { run, start, type RunResult, type Started } from "../support/processes.js";
import { removeDir, tempDir } from "../support/temp.js";

export { ROOT };
export const PKG = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  version: string;
  peerDependencies: Record<string, string>;
};
/** The Node.js a consumer runs the package with. */
export const NODE = process.env.SITEOPS_TEST_NODE || process.execPath;
const TSC = path.join(ROOT, "node_modules/typescript/bin/tsc");

export type { RunResult };

/**
 * npm's warnings that README.md ("Install") does not explain: all but its install-scripts notice when the only
 * package it names is siteops itself (its `prepare` hook, which a tarball install never runs).
 */
export function unexplainedWarnings(output: string): string[] {
  return npmWarnings(output).filter((l) => {
    const listed = /^npm warn install-scripts {2,}(\S+)@/i.exec(l);
    if (listed) return listed[1] !== "siteops";
    return !/^npm warn install-scripts/i.test(l);
  });
}

/** This machine's npm configuration warns about a setting of its own (nodedir); nothing a user would see. */
function npmWarnings(output: string): string[] {
  return output.split("\n").filter((l) => /^npm warn/i.test(l) && !/Unknown user config "nodedir"/.test(l));
}

/** A fenced block of a guide (`file`, from the repository root: README.md, docs/cdk.md, ...): the `nth` block in
 * `lang` after the heading whose text is `heading`. */
export function docBlock(file: string, heading: string, lang: string, nth = 0): string {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const at = text.split("\n").findIndex((l) => /^#+ /.test(l) && l.replace(/^#+ /, "") === heading);
  if (at < 0) throw new Error(`${file} has no heading "${heading}"`);
  const rest = text
    .split("\n")
    .slice(at + 1)
    .join("\n");
  const blocks = [...rest.matchAll(new RegExp("^```" + lang + "\\n([\\s\\S]*?)^```$", "gm"))].map((m) => m[1]!);
  if (!blocks[nth]) throw new Error(`${file} has no ${lang} block #${nth} after "${heading}"`);
  return blocks[nth]!;
}

/** Splits one shell command line into words (double quotes group; a trailing `# comment` is dropped). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.replace(/\s+#.*$/, "").matchAll(/"([^"]*)"|(\S+)/g)) words.push(m[1] ?? m[2]!);
  return words;
}

/** The `npm i ...` line of a README block, as arguments of `npm install`. */
export function npmInstallArgs(block: string): string[] {
  const line = block.split("\n").find((l) => /^npm i(nstall)? /.test(l));
  if (!line) throw new Error(`no npm i line in:\n${block}`);
  return shellWords(line).slice(2);
}

/** This user's npm cache: the projects get their own HOME, but npm keeps reading packages from here. */
export const NPM_CACHE = spawnSync("npm", ["config", "get", "cache"], { encoding: "utf8" }).stdout.trim() || path.join(homedir(), ".npm");

function env(project: Project, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  return {
    ...clean,
    PATH: `${project.bin}${path.delimiter}${process.env.PATH}`,
    HOME: project.home,
    npm_config_cache: NPM_CACHE,
    CHECKPOINT_DISABLE: "1",
    NO_COLOR: "1",
    ...extra,
  };
}

export class Project {
  private constructor(
    /** The temp folder: package.json, node_modules, and `home/` (the consumer's HOME). */
    readonly dir: string,
    readonly home: string,
    /** Put first on PATH: `node` there is NODE (the provider's launcher runs `node`). */
    readonly bin: string,
    readonly tarball: string,
    /** What `npm install` printed. */
    readonly installOutput: string,
  ) {}

  /**
   * Packs the package (dist/ must be built) and installs it into a fresh project with these `npm install`
   * arguments; the word "siteops" or a path to "siteops-<version>.tgz" (`../siteops/siteops-0.1.0.tgz`) stands for
   * the tarball, as in the guides.
   */
  static async create(label: string, args: string[]): Promise<Project> {
    if (!existsSync(path.join(ROOT, "dist/src/index.js"))) throw new Error("dist/ is missing: run npm run build before these tests");
    const dir = tempDir(`consumer-${label}`);
    const home = path.join(dir, "home");
    const bin = path.join(dir, "bin");
    mkdirSync(home);
    mkdirSync(bin);
    symlinkSync(NODE, path.join(bin, "node"));
    const packed = spawnSync("npm", ["pack", "--json", "--pack-destination", dir], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, npm_config_loglevel: "error" },
    });
    if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
    const tarball = path.join(dir, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
    writeFileSync(path.join(dir, "package.json"), `${JSON.stringify({ name: `consumer-${label}`, private: true, type: "module" }, null, 2)}\n`);
    const words = args.map((a) => (/^siteops$|(^|\/)siteops-[\d.]+\.tgz$/.test(a) ? tarball : a));
    const project = new Project(dir, home, bin, tarball, "");
    // Scripts as a user's install runs them (npm itself runs on NODE: project.bin is first on PATH).
    const r = await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", ...words], { cwd: dir, env: env(project) });
    if (r.code !== 0) throw new Error(`npm install ${words.join(" ")} failed:\n${r.stdout}${r.stderr}`);
    return new Project(dir, home, bin, tarball, `${r.stdout}${r.stderr}`);
  }

  /** The installed `siteops` command, as `npx siteops` runs it. */
  siteops(args: string[], extra?: NodeJS.ProcessEnv): Promise<RunResult> {
    return run(NODE, [path.join(this.dir, "node_modules/siteops/bin/siteops.js"), ...args], { cwd: this.dir, env: env(this, extra) });
  }

  /** Starts `siteops ...` and leaves it running; `kill()` stops it. */
  spawnSiteops(args: string[]): Started {
    return start(NODE, [path.join(this.dir, "node_modules/siteops/bin/siteops.js"), ...args], { cwd: this.dir, env: env(this) });
  }

  /** Writes a file into the project and runs it (TypeScript through tsx, as `npx tsx file` does). */
  run(file: string, source: string, extra?: NodeJS.ProcessEnv): Promise<RunResult> {
    writeFileSync(path.join(this.dir, file), source);
    const args = /\.m?ts$/.test(file) ? ["--import", TSX_LOADER, file] : [file];
    return run(NODE, args, { cwd: this.dir, env: env(this, extra) });
  }

  /** Any other program (terraform) in the project, with its PATH and HOME. */
  exec(cmd: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<RunResult> {
    return run(cmd, args, { cwd: options.cwd ?? this.dir, env: env(this, options.env) });
  }

  /** Typechecks these files of the project as a strict NodeNext app, without skipLibCheck. */
  typecheck(files: string[]): Promise<RunResult> {
    const tsconfig = {
      compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: false, noEmit: true, types: ["node"] },
      files,
    };
    writeFileSync(path.join(this.dir, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
    return run(process.execPath, [TSC, "-p", "tsconfig.json"], { cwd: this.dir, env: env(this) });
  }

  remove(): void {
    removeDir(this.dir);
  }
}
