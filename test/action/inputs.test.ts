// parseInputs: the typed object each command gets, defaults, environment fallbacks and the problems named.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InputError, parseInputs, type InputSource } from "../../action/src/inputs.js";
import { splitSites } from "../../action/src/input-selection.js";
import { removeDir, tempDir } from "../support/temp.js";

const TOKEN = "sot_inputsTestToken0000000001";
const dir = tempDir("inputs");
afterAll(() => removeDir(dir));

function source(inputs: Record<string, string>, env: NodeJS.ProcessEnv = {}): InputSource & { masked: string[] } {
  const masked: string[] = [];
  return { get: (name) => inputs[name] ?? "", mask: (s) => masked.push(s), env, masked };
}

function problems(inputs: Record<string, string>, env: NodeJS.ProcessEnv = {}): string[] {
  try {
    parseInputs(source(inputs, env));
  } catch (err) {
    if (err instanceof InputError) return err.problems;
    throw err;
  }
  throw new Error("parseInputs accepted the inputs");
}

const base = { "api-token": TOKEN, "base-url": "https://siteops.example.com/" };

describe("parseInputs", () => {
  it("gives snapshot its defaults and masks the token first", () => {
    const s = source({ ...base, command: "snapshot", site: "Blog" });
    const { inputs, warnings } = parseInputs(s);
    expect(s.masked).toEqual([TOKEN]);
    expect(warnings).toEqual([]);
    expect(inputs).toEqual({
      command: "snapshot",
      apiToken: TOKEN,
      apiTokenSource: "'api-token'",
      baseUrl: "https://siteops.example.com",
      wait: true,
      timeoutMs: 30 * 60_000,
      pollIntervalMs: undefined,
      sites: { all: false, refs: ["Blog"] },
      allowEmpty: false,
      description: undefined,
      uploadFile: undefined,
      concurrency: 4,
    });
  });

  it("takes the token and base URL from SITEOPS_API_TOKEN and SITEOPS_BASE_URL", () => {
    const { inputs } = parseInputs(source({ command: "Snapshot", site: "all" }, { SITEOPS_API_TOKEN: TOKEN, SITEOPS_BASE_URL: "http://127.0.0.1:4747" }));
    expect(inputs).toMatchObject({ command: "snapshot", apiToken: TOKEN, baseUrl: "http://127.0.0.1:4747", sites: { all: true } });
  });

  it("splits site lists on newlines and commas, drops blanks and repeats", () => {
    expect(splitSites("Blog\n  Shop , site_0123456789abcdef\n\n")).toEqual(["Blog", "Shop", "site_0123456789abcdef"]);
    const { inputs } = parseInputs(source({ ...base, command: "snapshot", site: "Blog\nShop\nBlog", concurrency: "8" }));
    expect(inputs).toMatchObject({ sites: { all: false, refs: ["Blog", "Shop"] }, concurrency: 8 });
  });

  it("reads upgrade and approve inputs", () => {
    expect(
      parseInputs(source({ ...base, command: "upgrade", site: "Blog", "php-version": "8.3", "require-approval": "False", "timeout-minutes": "2.5" })).inputs,
    ).toMatchObject({ command: "upgrade", site: "Blog", wpVersion: undefined, phpVersion: "8.3", requireApproval: false, timeoutMs: 150_000 });
    expect(parseInputs(source({ ...base, command: "approve", site: "Blog", "pipeline-id": "upg_abc", wait: "FALSE" })).inputs).toMatchObject({
      command: "approve",
      pipelineId: "upg_abc",
      comment: undefined,
      wait: false,
    });
  });

  it("accepts an upload file for one site and refuses it for several", () => {
    const file = path.join(dir, "dump.sql");
    writeFileSync(file, "data");
    expect(parseInputs(source({ ...base, command: "snapshot", site: "Blog", "upload-file": file })).inputs).toMatchObject({ uploadFile: file });
    expect(problems({ ...base, command: "snapshot", site: "Blog, Shop", "upload-file": file })).toEqual([
      "'upload-file' needs exactly one site: the same data cannot be the snapshot of several sites",
    ]);
    expect(problems({ ...base, command: "snapshot", site: "Blog", "upload-file": dir })).toEqual([`'upload-file' ${JSON.stringify(dir)} is not a file`]);
  });

  it("warns about inputs the command ignores", () => {
    const { warnings } = parseInputs(source({ ...base, command: "approve", site: "Blog", "pipeline-id": "upg_a", "wp-version": "6.7", concurrency: "2" }));
    expect(warnings).toEqual([
      "Input 'concurrency' is ignored by the approve command (it is read by snapshot, vulnerabilities, rollout).",
      "Input 'wp-version' is ignored by the approve command (it is read by upgrade, rollout).",
    ]);
  });

  it("names each malformed input", () => {
    expect(problems({ ...base, command: "deploy" })).toEqual([`'command' must be one of snapshot, upgrade, approve, vulnerabilities, rollout (got "deploy")`]);
    expect(problems({ ...base, "base-url": "siteops.example.com", command: "snapshot", site: "all, Blog" })).toEqual([
      "'base-url' has no scheme: use https://siteops.example.com (or http:// for a local emulator)",
      "'site' is 'all' or a list of sites, not both",
    ]);
    expect(problems({ ...base, "base-url": "https://user:pw@siteops.example.com", command: "snapshot", site: "Blog", concurrency: "2.5" })).toEqual([
      "'base-url' must not contain credentials: give the API token instead",
      `'concurrency' must be a whole number from 1 to 64 (got "2.5")`,
    ]);
    expect(problems({ ...base, command: "upgrade", site: "all", "require-approval": "yes" })).toEqual([
      "'site' must be one site for the upgrade command (lists and 'all' are for snapshot, vulnerabilities and rollout)",
      "the upgrade command needs 'wp-version' or 'php-version' (or both)",
      `'require-approval' must be true or false (got "yes")`,
    ]);
    expect(problems({ ...base, command: "approve", "pipeline-id": "upg/../x" })).toEqual([
      "'site' is required by the approve command: a site id or an exact site name",
      `'pipeline-id' must be a pipeline id such as upg_... (got "upg/../x")`,
    ]);
    expect(problems({ ...base, command: "snapshot", site: "Blog" }, { SITEOPS_POLL_INTERVAL_MS: "fast" })).toEqual([
      `SITEOPS_POLL_INTERVAL_MS must be a whole number of milliseconds from 1 to 600000 (got "fast")`,
    ]);
  });

  it("never echoes the token in a problem", () => {
    const err = (() => {
      try {
        parseInputs(source({ "api-token": `${TOKEN} extra`, command: "snapshot" }));
      } catch (e) {
        return e as Error;
      }
      throw new Error("accepted");
    })();
    expect(err.message).toContain("'api-token' must not contain whitespace");
    expect(err.message).not.toContain(TOKEN);
  });
});
