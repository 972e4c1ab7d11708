// Issue 38 item 9, the output side: a bidirectional or invisible character in service text (a real service may
// hold what the emulator refuses) is printed by the CLI as a visible escape (`\u202e`, `\u{e0041}`), in its
// tables and record views, and `--json` keeps the exact value with the character escaped; `siteops export
// terraform|cdktn` never writes one raw into a .tf or .ts file, and the escaped literal still means the same text
// (terraform reads the HCL back; the TypeScript literal is evaluated). Refusal on input: invisible-characters.test.ts.
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Site, WebhookEndpoint } from "../../src/index.js";
import { renderCdktn } from "../../provider/export/cdktn.js";
import { fleetEntries } from "../../provider/export/fleet.js";
import { renderTerraform } from "../../provider/export/terraform.js";
import { siteFields } from "../../wire/generated/fields.js";
import { useTestBed } from "../cli/helpers.js";
import { CLI_FROM_SOURCE } from "../support/paths.js";
import { run } from "../support/processes.js";
import { removeDir, tempDir } from "../support/temp.js";
import { recordOf } from "../support/wire-records.js";

/** Every class of the policy (docs/design.md, "Input: control and invisible characters"), and a ZWJ emoji. */
const NAME = "Blog\u202eevil\u202a\u2068x\u2069\u200e\u200f\u061c\u200b\u2060\ufeff\u180e\u{e0041}\ud800 \u{1f468}\u200d\u{1f469}";
const SHOWN = "Blog\\u202eevil\\u202a\\u2068x\\u2069\\u200e\\u200f\\u061c\\u200b\\u2060\\ufeff\\u180e\\u{e0041}\\ud800 \u{1f468}\u200d\u{1f469}";
/** What no output may hold raw: the set the API refuses in text. */
const RAW = /[\u061c\u180e\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}\ud800-\udfff]/u;
/** What generated code may not hold raw: RAW, and ZWNJ and ZWJ. */
const RAW_IN_CODE = /[\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}\ud800-\udfff]/u;

describe("the CLI prints them escaped", () => {
  const bed = useTestBed();
  let proxy: Server;
  let blogId: string;
  beforeAll(async () => {
    blogId = (await bed.emu.so.sites.list()).data.find((s) => s.name === "Blog")!.id;
    // A service that holds such a name: the emulator's answers with the Blog's name replaced.
    proxy = createServer((req, res) => {
      void (async () => {
        const upstream = await fetch(`${bed.emu.url}${req.url}`, { headers: { authorization: req.headers.authorization ?? "" } });
        const body = (await upstream.text()).replaceAll('"name":"Blog"', `"name":${JSON.stringify(NAME)}`);
        const headers: Record<string, string> = {};
        upstream.headers.forEach((v, k) => {
          if (!["content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive"].includes(k)) headers[k] = v;
        });
        res.writeHead(upstream.status, headers).end(body);
      })().catch((err: Error) => res.destroy(err));
    });
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
    bed.env.SITEOPS_BASE_URL = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => proxy.close(r));
  });

  // From the sources, so that the check holds what common/sanitize.ts says now, built or not.
  const cli = (...args: string[]) => run(process.execPath, [...CLI_FROM_SOURCE, ...args], { env: bed.env, timeoutMs: 50_000 });

  it("in a list's lines and a record's rows, as visible escapes; a ZWJ emoji as it is", async () => {
    for (const args of [
      ["sites", "list"],
      ["sites", "get", blogId],
    ]) {
      const r = await cli(...args);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(SHOWN);
      expect(r.stdout).not.toMatch(RAW);
    }
  });

  it("in --json, escaped in the JSON text, the value exact", async () => {
    const r = await cli("sites", "get", blogId, "--json");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(RAW);
    expect(r.stdout).toContain("\\u202e");
    expect((JSON.parse(r.stdout) as { name: string }).name).toBe(NAME);
  });
});

describe("siteops export escapes them in the code it writes", () => {
  const site = recordOf<Site>(siteFields, {
    id: "site_01A",
    name: NAME,
    url: "https://blog.example.com",
    wp_version: "6.4",
    php_version: "8.2",
    status: "healthy",
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:00:00Z",
  });
  const hook: WebhookEndpoint = {
    id: "we_01A",
    url: "https://hooks.example.com/x",
    description: `Pay\u200cments ${NAME}`,
    enabled_events: ["*"],
    status: "enabled",
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:00:00Z",
  };
  const entries = fleetEntries({ sites: [site], webhookEndpoints: [hook] });
  /** What Terraform holds of a string: UTF-8, so a lone surrogate is U+FFFD. */
  const inTerraform = (text: string) => text.replace(/[\ud800-\udfff]/gu, "\ufffd");

  it("terraform: no raw character in either form; terraform reads the same text back", async () => {
    const blocks = renderTerraform(entries, { form: "blocks", withProvider: true });
    expect(blocks).not.toMatch(RAW_IN_CODE);
    expect(blocks).toContain("Blog\\u202eevil");
    expect(blocks).toContain("\\U000e0041");
    const map = renderTerraform(entries);
    expect(map).not.toMatch(RAW_IN_CODE);

    // The map form's locals, applied by terraform (no provider needed), and read back as JSON.
    const locals = map.slice(map.indexOf("locals {"), map.indexOf("\n}\n", map.indexOf("locals {")) + 3);
    const dir = tempDir("invisible-tf");
    try {
      writeFileSync(path.join(dir, "main.tf"), `${locals}\noutput "sites" {\n  value = local.sites\n}\n`);
      const env = { PATH: process.env.PATH, HOME: dir, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1" };
      for (const args of [
        ["init", "-input=false", "-no-color"],
        ["apply", "-auto-approve", "-input=false", "-no-color"],
      ]) {
        const r = await run("terraform", args, { cwd: dir, env, timeoutMs: 60_000 });
        expect(r.code, r.stderr).toBe(0);
      }
      const out = await run("terraform", ["output", "-json", "sites"], { cwd: dir, env, timeoutMs: 60_000 });
      expect(out.code, out.stderr).toBe(0);
      const sites = JSON.parse(out.stdout) as Record<string, { id: string; name: string }>;
      expect(Object.values(sites).map((s) => [s.id, s.name])).toEqual([["site_01A", inTerraform(NAME)]]);
    } finally {
      removeDir(dir);
    }
  }, 120_000);

  it("cdktn: no raw character in the TypeScript; each literal evaluates to the exact text", () => {
    const source = renderCdktn(entries);
    expect(source).not.toMatch(RAW_IN_CODE);
    expect(source).toContain("\\u{e0041}");
    const literal = (name: string) => {
      const start = source.indexOf(`export const ${name}: `);
      return runInNewContext(`(${source.slice(source.indexOf("= ", start) + 2, source.indexOf(";\n", start))})`) as Record<string, unknown>[];
    };
    expect(literal("sites")[0]).toMatchObject({ id: "site_01A", name: NAME });
    expect(literal("webhookEndpoints")[0]).toMatchObject({ id: "we_01A", description: hook.description });
  });
});
