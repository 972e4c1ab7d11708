// Real terraform against the emulator: builds the provider bundle once per test file, puts it in a
// filesystem mirror inside a temp dir with its own CLI config, and runs terraform there.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { cpSync, mkdirSync, rmSync, writeFileSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ProfileName, RunningEmulator, SeedFile } from "../../emulator/index.js";
import { startSeededEmulator } from "../support/emulator.js";
import { ROOT } from "../support/paths.js";
import { start, type RunResult } from "../support/processes.js";
import { removeDir, tempDir } from "../support/temp.js";

export { ROOT };
export const OWNER_TOKEN = "sot_ownerTokenForProviderTests0001";
export const MEMBER_TOKEN = "sot_memberTokenForProviderTests001";
export const OWNER_EMAIL = "owner@provider.test";
export const OWNER_PASSWORD = "correct-horse-battery";

export function defaultSeed(sites: SeedFile["accounts"][number]["sites"] = []): SeedFile {
  return {
    accounts: [
      {
        name: "Provider Tests",
        users: [
          { email: OWNER_EMAIL, password: OWNER_PASSWORD, name: "Owner", role: "owner" },
          { email: "member@provider.test", password: "member-password-1", name: "Member", role: "member" },
        ],
        api_tokens: [
          { token: OWNER_TOKEN, user_email: OWNER_EMAIL },
          { token: MEMBER_TOKEN, user_email: "member@provider.test" },
        ],
        sites,
      },
    ],
  };
}

export type { RunResult };
/** Where `Terraform.planSaved` saves its plan, in the working directory. */
export const SAVED_PLAN = "saved.tfplan";
interface Built {
  dir: string;
  version: string;
}

let built: Promise<Built> | undefined;

/** Builds the bundle and launcher into a temp dir (once per test process). */
export function buildProvider(): Promise<Built> {
  built ??= (async () => {
    const dir = tempDir("provider-build");
    const mod = (await import(pathToFileURL(path.join(ROOT, "scripts/build-provider.mjs")).href)) as {
      default(o: { root: string; outDir: string; quiet: boolean }): Promise<{ version: string }>;
    };
    const { version } = await mod.default({ root: ROOT, outDir: dir, quiet: true });
    process.on("exit", () => removeDir(dir));
    return { dir, version };
  })();
  return built;
}

export class Terraform {
  private constructor(
    readonly home: string,
    readonly work: string,
    readonly cliConfig: string,
    readonly emulator: RunningEmulator,
  ) {}

  /** `profile`: the emulator's compatibility profile (test/support/emulator.ts, PROFILES); default "default". */
  static async start(options: { seed?: SeedFile; profile?: ProfileName } = {}): Promise<Terraform> {
    const { dir, version } = await buildProvider();
    const home = tempDir("tf");
    const pkg = path.join(home, "mirror/registry.terraform.io/siteops/siteops", version, "linux_amd64");
    mkdirSync(pkg, { recursive: true });
    cpSync(dir, pkg, { recursive: true });
    const cliConfig = path.join(home, "cli.tfrc");
    writeFileSync(
      cliConfig,
      `provider_installation {
  filesystem_mirror {
    path    = ${JSON.stringify(path.join(home, "mirror"))}
    include = ["registry.terraform.io/siteops/siteops"]
  }
  direct {
    exclude = ["registry.terraform.io/siteops/siteops"]
  }
}
`,
    );
    const work = path.join(home, "work");
    mkdirSync(work);
    const emulator = await startSeededEmulator(options.seed ?? defaultSeed(), { db: ":memory:", ...(options.profile ? { profile: options.profile } : {}) });
    return new Terraform(home, work, cliConfig, emulator);
  }

  get url(): string {
    return this.emulator.url;
  }

  /** The provider block with the owner's token, plus required_providers. */
  providerBlock(extra = ""): string {
    return `terraform {
  required_providers {
    siteops = { source = "siteops/siteops" }
  }
}

provider "siteops" {
  base_url  = ${JSON.stringify(this.url)}
  api_token = ${JSON.stringify(OWNER_TOKEN)}
${extra}}
`;
  }

  write(hcl: string, file = "main.tf"): void {
    writeFileSync(path.join(this.work, file), hcl);
  }

  remove(file: string): void {
    rmSync(path.join(this.work, file), { force: true });
  }

  env(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...process.env, TF_CLI_CONFIG_FILE: this.cliConfig, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1" };
    for (const k of Object.keys(env)) if (k.startsWith("SITEOPS_") || k.startsWith("TF_LOG")) delete env[k];
    for (const [k, v] of Object.entries(extra)) {
      if (v === undefined) delete env[k];
      else env[k] = v;
    }
    return env;
  }

  /**
   * Runs terraform. `interruptOn`: once stdout shows this text, send SIGINT to terraform's whole process
   * group, as Ctrl-C in a terminal does (the provider gets it too). `onOutput`: sees stdout and stderr so far as they grow.
   */
  run(
    args: string[],
    options: { env?: Record<string, string | undefined>; interruptOn?: string; onOutput?: (stdout: string, stderr: string) => void } = {},
  ): Promise<RunResult> {
    let interrupted = false;
    const terraform = start("terraform", args, {
      cwd: this.work,
      env: this.env(options.env),
      detached: !!options.interruptOn,
      onOutput: (stdout, stderr) => {
        options.onOutput?.(stdout, stderr);
        if (options.interruptOn && !interrupted && stdout.includes(options.interruptOn)) {
          interrupted = true;
          process.kill(-terraform.child.pid!, "SIGINT");
        }
      },
    });
    return terraform.done.then(({ code, stdout, stderr }) => ({ code: code ?? -1, stdout, stderr }));
  }

  /** Runs and throws with terraform's output when the exit code is not 0. */
  async ok(args: string[], options: { env?: Record<string, string | undefined> } = {}): Promise<RunResult> {
    const r = await this.run(args, options);
    if (r.code !== 0) throw new Error(`terraform ${args.join(" ")} exited ${r.code}\n${r.stdout}\n${r.stderr}`);
    return r;
  }

  init(): Promise<RunResult> {
    return this.ok(["init", "-input=false", "-no-color"]);
  }

  apply(...extra: string[]): Promise<RunResult> {
    return this.ok(["apply", "-auto-approve", "-input=false", "-no-color", ...extra]);
  }

  /** `terraform plan -detailed-exitcode`: 0 = no changes, 2 = changes. */
  plan(...extra: string[]): Promise<RunResult> {
    return this.run(["plan", "-input=false", "-no-color", "-detailed-exitcode", ...extra]);
  }

  /**
   * `terraform plan -detailed-exitcode -out=<file>`: the plan saved for `applySaved`. A test that checks a plan and
   * then applies it applies the plan it checked, and Terraform does not plan a second time (two provider processes
   * for that apply instead of four).
   */
  planSaved(...extra: string[]): Promise<RunResult> {
    return this.plan(`-out=${SAVED_PLAN}`, ...extra);
  }

  /** `terraform apply` of the plan `planSaved` saved last. */
  applySaved(...extra: string[]): Promise<RunResult> {
    return this.ok(["apply", "-auto-approve", "-input=false", "-no-color", ...extra, SAVED_PLAN]);
  }

  /**
   * The state as `terraform show -json` reports it (its `values.root_module`). With local state, read from the
   * current workspace's state file: the same values, without a terraform process and the provider process it starts
   * for the schema. With a backend (`.terraform/terraform.tfstate` names it), from `terraform show -json`.
   */
  async state(): Promise<{ values?: { root_module?: { resources?: { address: string; values: Record<string, unknown> }[] } } }> {
    const backend = path.join(this.work, ".terraform", "terraform.tfstate");
    if (existsSync(backend) && JSON.parse(readFileSync(backend, "utf8")).backend?.type !== "local") {
      return JSON.parse((await this.ok(["show", "-json", "-no-color"])).stdout);
    }
    const file = this.stateFile();
    if (!existsSync(file)) return {};
    const raw = this.rawState();
    const key = (k: unknown) => (k === undefined ? "" : `[${JSON.stringify(k)}]`);
    const resources = raw.resources
      .filter((r) => r.module === undefined)
      .flatMap((r) => r.instances.map((i) => ({ address: `${r.mode === "data" ? "data." : ""}${r.type}.${r.name}${key(i.index_key)}`, values: i.attributes })));
    return { values: { root_module: resources.length ? { resources } : {} } };
  }

  async resource(address: string): Promise<Record<string, unknown> | undefined> {
    const s = await this.state();
    return s.values?.root_module?.resources?.find((r) => r.address === address)?.values;
  }

  /** The current workspace's state file (`terraform workspace new|select` writes `.terraform/environment`). */
  stateFile(): string {
    const chosen = path.join(this.work, ".terraform", "environment");
    const workspace = existsSync(chosen) ? readFileSync(chosen, "utf8").trim() : "default";
    return workspace === "default" ? path.join(this.work, "terraform.tfstate") : path.join(this.work, "terraform.tfstate.d", workspace, "terraform.tfstate");
  }

  rawState(): {
    resources: {
      mode?: string;
      module?: string;
      type: string;
      name: string;
      instances: { index_key?: string | number; attributes: Record<string, unknown>; private?: string; schema_version: number }[];
    }[];
  } {
    const file = this.stateFile();
    return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : { resources: [] };
  }

  async close(): Promise<void> {
    await this.emulator.close();
    removeDir(this.home);
  }
}

/** Sets or clears (rules = []) the emulator's injected faults. */
export async function faults(t: Terraform, rules: Record<string, unknown>[]): Promise<void> {
  const res = await fetch(
    `${t.url}/__emulator/faults`,
    rules.length ? { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ rules }) } : { method: "DELETE" },
  );
  if (!res.ok) throw new Error(`faults: ${res.status} ${await res.text()}`);
}

/** Talks to the emulator directly, as an out-of-band change would. */
export async function api(t: Terraform, method: string, p: string, body?: unknown, token = OWNER_TOKEN): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${t.url}${p}`, {
    method,
    headers: { authorization: `token ${token}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

export interface RecordingProxy {
  url: string;
  /** "METHOD /path?query" of every request since the last reset. */
  requests: string[];
  /** The most requests that were in flight at once since the last reset. */
  mostInFlight(): number;
  reset(): void;
  close(): Promise<void>;
}

/** A pass-through proxy in front of the emulator that records the requests the provider makes. */
export async function recordingProxy(target: string): Promise<RecordingProxy> {
  let now = 0;
  let most = 0;
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    most = Math.max(most, ++now);
    const upstream = http.request(new URL(req.url!, target), { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode!, up.headers);
      up.pipe(res);
    });
    res.on("close", () => now--);
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    mostInFlight: () => most,
    reset() {
      most = 0;
      requests.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
