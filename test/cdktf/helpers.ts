// The CDK examples (examples/cdktf, examples/cdktn) as the tests drive them: run as a user runs them (a child
// process), or their stack synthesized in-process with other lists. The examples are loaded through tsx with
// tsconfig.examples.json, which maps "siteops", "siteops/cdktf" and "siteops/cdktn" to the sources (no build
// needed); the root typecheck does not follow them there.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Construct } from "constructs";
import { tsImport } from "tsx/esm/api";
import { ROOT, TSX_LOADER } from "../support/paths.js";
import { run, type RunResult } from "../support/processes.js";

export { ROOT };
const EXAMPLES_TSCONFIG = path.join(ROOT, "tsconfig.examples.json");
export const STACK_NAME = "siteops";

/** The two CDKs: CDK for Terraform (archived upstream) and CDK Terrain, its community fork. */
export type Flavor = "cdktf" | "cdktn";
export const TITLES: Record<Flavor, string> = { cdktf: "CDKTF", cdktn: "CDK Terrain" };

export function exampleDir(flavor: Flavor): string {
  return path.join(ROOT, "examples", flavor);
}

export interface SiteSpec {
  key: string;
  name: string;
  url: string;
  wpVersion?: string;
  phpVersion?: string;
  deletionProtection?: boolean;
}

export interface WebhookSpec {
  key: string;
  url: string;
  description?: string;
  events: string[];
}

/** The part of cdktf's and cdktn's API the tests use (the two are the same here). */
interface CdkLibrary {
  App: new (props: { outdir: string }) => Construct & { synth(): void };
  LocalBackend: new (scope: Construct, props: { path: string }) => unknown;
}

interface ExampleModules {
  SiteopsStack: new (scope: Construct, id: string, props: { sites: SiteSpec[]; webhooks: WebhookSpec[] }) => Construct;
  sites: SiteSpec[];
  webhooks: WebhookSpec[];
  cdk: CdkLibrary;
}

const loaded = new Map<Flavor, Promise<ExampleModules>>();

/** An example's stack class and lists, and its CDK library, loaded once per test file. */
export function loadExample(flavor: Flavor): Promise<ExampleModules> {
  let modules = loaded.get(flavor);
  if (!modules) {
    modules = (async () => {
      const opts = { parentURL: import.meta.url, tsconfig: EXAMPLES_TSCONFIG };
      const dir = exampleDir(flavor);
      const stack = (await tsImport(pathToFileURL(path.join(dir, "stack.ts")).href, opts)) as Pick<ExampleModules, "SiteopsStack">;
      const lists = (await tsImport(pathToFileURL(path.join(dir, "sites.ts")).href, opts)) as Pick<ExampleModules, "sites" | "webhooks">;
      const cdk = (await import(flavor)) as CdkLibrary;
      return { SiteopsStack: stack.SiteopsStack, sites: lists.sites, webhooks: lists.webhooks, cdk };
    })();
    loaded.set(flavor, modules);
  }
  return modules;
}

export type TfJson = {
  provider: Record<string, unknown[]>;
  resource: Record<string, Record<string, Record<string, unknown>>>;
  data?: Record<string, Record<string, Record<string, unknown>>>;
  output: Record<string, { value: unknown; sensitive?: boolean }>;
  terraform: { required_providers: Record<string, { source: string }>; backend: { local: { path: string } } };
};

/**
 * Synthesizes an example's stack with these lists into `outdir` and returns the cdk.tf.json path. The state goes
 * to `stateFile` (the default local backend would put it in the current directory).
 */
export async function synthStack(flavor: Flavor, outdir: string, stateFile: string, lists: { sites: SiteSpec[]; webhooks: WebhookSpec[] }): Promise<string> {
  const { SiteopsStack, cdk } = await loadExample(flavor);
  const app = new cdk.App({ outdir });
  const stack = new SiteopsStack(app, STACK_NAME, lists);
  new cdk.LocalBackend(stack, { path: stateFile });
  app.synth();
  return path.join(outdir, "stacks", STACK_NAME, "cdk.tf.json");
}

export function readTfJson(file: string): TfJson {
  return JSON.parse(readFileSync(file, "utf8")) as TfJson;
}

/** Runs an example's main.ts as `npx tsx main.ts` would, in `cwd`. */
export function runExampleApp(flavor: Flavor, cwd: string, env: Record<string, string> = {}): Promise<RunResult> {
  return run(process.execPath, ["--import", TSX_LOADER, path.join(exampleDir(flavor), "main.ts")], {
    cwd,
    env: { ...process.env, TSX_TSCONFIG_PATH: EXAMPLES_TSCONFIG, CHECKPOINT_DISABLE: "1", ...env },
  });
}
