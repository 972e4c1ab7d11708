// The CDKTF example as the tests drive it: run as a user runs it (a child process), or its stack synthesized
// in-process with other lists. The example is loaded through tsx with its own tsconfig, which maps
// "siteops/cdktf" to the generated sources (no build needed); the root typecheck does not follow it there.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { App, LocalBackend, type TerraformStack } from "cdktf";
import type { Construct } from "constructs";
import { tsImport } from "tsx/esm/api";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const EXAMPLE_DIR = path.join(ROOT, "examples/cdktf");
export const EXAMPLE_TSCONFIG = path.join(EXAMPLE_DIR, "tsconfig.json");
export const STACK_NAME = "siteops";

export interface SiteSpec {
  key: string;
  name: string;
  url: string;
  wpVersion?: string;
  phpVersion?: string;
}

export interface WebhookSpec {
  key: string;
  url: string;
  description?: string;
  events: string[];
}

interface ExampleModules {
  SiteopsStack: new (scope: Construct, id: string, props: { sites: SiteSpec[]; webhooks: WebhookSpec[] }) => TerraformStack;
  sites: SiteSpec[];
  webhooks: WebhookSpec[];
}

let loaded: Promise<ExampleModules> | undefined;

/** The example's stack class and lists, loaded once per test file. */
export function loadExample(): Promise<ExampleModules> {
  loaded ??= (async () => {
    const opts = { parentURL: import.meta.url, tsconfig: EXAMPLE_TSCONFIG };
    const stack = (await tsImport(pathToFileURL(path.join(EXAMPLE_DIR, "stack.ts")).href, opts)) as Pick<ExampleModules, "SiteopsStack">;
    const lists = (await tsImport(pathToFileURL(path.join(EXAMPLE_DIR, "sites.ts")).href, opts)) as Pick<ExampleModules, "sites" | "webhooks">;
    return { SiteopsStack: stack.SiteopsStack, sites: lists.sites, webhooks: lists.webhooks };
  })();
  return loaded;
}

export type TfJson = {
  provider: Record<string, unknown[]>;
  resource: Record<string, Record<string, Record<string, unknown>>>;
  data?: Record<string, Record<string, Record<string, unknown>>>;
  output: Record<string, { value: unknown; sensitive?: boolean }>;
  terraform: { required_providers: Record<string, { source: string }>; backend: { local: { path: string } } };
};

/**
 * Synthesizes the example stack with these lists into `outdir` and returns the cdk.tf.json path. The state goes
 * to `stateFile` (the default local backend would put it in the current directory).
 */
export async function synthStack(outdir: string, stateFile: string, lists: { sites: SiteSpec[]; webhooks: WebhookSpec[] }): Promise<string> {
  const { SiteopsStack } = await loadExample();
  const app = new App({ outdir });
  const stack = new SiteopsStack(app, STACK_NAME, lists);
  new LocalBackend(stack, { path: stateFile });
  app.synth();
  return path.join(outdir, "stacks", STACK_NAME, "cdk.tf.json");
}

export function readTfJson(file: string): TfJson {
  return JSON.parse(readFileSync(file, "utf8")) as TfJson;
}

/** Runs examples/cdktf/main.ts as `npx tsx main.ts` would, in `cwd`. */
export function runExampleApp(cwd: string, env: Record<string, string> = {}): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", pathToFileURL(path.join(ROOT, "node_modules/tsx/dist/loader.mjs")).href, path.join(EXAMPLE_DIR, "main.ts")], {
      cwd,
      env: { ...process.env, TSX_TSCONFIG_PATH: EXAMPLE_TSCONFIG, CHECKPOINT_DISABLE: "1", ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stderr }));
  });
}
