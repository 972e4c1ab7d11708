// Issue 48 item 1: the vulnerability policy file (`siteops vulns apply --policy FILE`, the action's 'policy-file')
// is read as shard files are (common/user-file.ts): never through a link at its path, a regular file only (a FIFO
// refused at once, not waited on), capped, and for the CLI this user's or root's and not writable by anyone; a
// path through a linked folder into /proc reads as nothing. An error names the file and the place and the type of
// what is there, never the document's text: a link to /proc/self/environ committed in a pull request printed the
// step's environment. The built CLI and the bundled action, as users run them.
import { chmodSync, chownSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, useTestBed } from "../cli/helpers.js";
import { TOKEN, useActionEmulator } from "../action/fixture.js";
import { runAction } from "../action/run-action.js";
import { isRoot, systemUser } from "./local-users.js";

const bed = useTestBed();
/** What must never reach an error: a secret in a file a policy path could reach, and one in the environment. */
const SECRET = "s3cret-value-7f1c";
const ENV_SECRET = "env-secret-4b2e9a";
// 30 s: a CLI stuck on a FIFO is killed (and fails its test) within the test's own time.
const apply = (file: string) =>
  runCli(["vulns", "apply", "--policy", file, "--dry-run"], { env: { ...bed.env, SITEOPS_TEST_SECRET: ENV_SECRET }, timeoutMs: 30_000 });

function expectRefused(run: { code: number | null; stderr: string; stdout: string }, file: string, problem: RegExp | string): void {
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr.trim().split("\n")).toHaveLength(1);
  expect(run.stderr).toContain(`--policy ${file}: `);
  if (typeof problem === "string") expect(run.stderr).toContain(problem);
  else expect(run.stderr).toMatch(problem);
  for (const text of [run.stderr, run.stdout]) {
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(ENV_SECRET);
  }
}

describe("siteops vulns apply --policy: how the file is read", () => {
  it("refuses a link at the path, to a secret or to /proc/self/environ, and prints neither", async () => {
    const secret = path.join(bed.box.dir, "secret.txt");
    writeFileSync(secret, `${SECRET}\n`);
    const link = path.join(bed.box.dir, "link.yml");
    symlinkSync(secret, link);
    expectRefused(await apply(link), link, "is a symbolic link");
    const environ = path.join(bed.box.dir, "environ.yml");
    symlinkSync("/proc/self/environ", environ);
    expectRefused(await apply(environ), environ, "is a symbolic link");
  });

  it("a path through a linked folder into /proc reads as nothing: no environment in the error", async () => {
    const proc = path.join(bed.box.dir, "proc");
    symlinkSync("/proc/self", proc);
    const file = path.join(proc, "environ");
    expectRefused(await apply(file), file, "the policy: must be a mapping with an accept list (got null)");
  });

  it("a document that is not a policy is named by its type and place, never quoted (YAML and JSON)", async () => {
    const yml = path.join(bed.box.dir, "plain.yml");
    writeFileSync(yml, `${SECRET}\n`);
    expectRefused(await apply(yml), yml, `the policy: must be a mapping with an accept list (got a string of ${SECRET.length} characters)`);
    const json = path.join(bed.box.dir, "plain.json");
    writeFileSync(json, `${SECRET}\n`);
    expectRefused(await apply(json), json, "not valid JSON: Unexpected character");
    // A key is the place: named when it reads as one (`acept`), else by its length.
    writeFileSync(json, `{"accept": [], "TOKEN=${SECRET}": 1}`);
    expectRefused(await apply(json), json, /: a key of \d+ characters: is not a key of a policy/);
    writeFileSync(json, JSON.stringify({ accept: [{ cve: SECRET, reason: SECRET, justification: "x", expires: SECRET }] }));
    expectRefused(await apply(json), json, "accept[0].cve: must look like CVE-2024-12345");
    writeFileSync(json, JSON.stringify({ accept: [{ cve: "CVE-2024-1234", reason: "not_used", justification: "x", expires: SECRET }] }));
    expectRefused(await apply(json), json, "accept[0].expires: must be a date (2026-12-31) or a date-time with a zone");
    writeFileSync(yml, `accept:\n  - cve: CVE-2024-1234\n    reason: ${SECRET}\n`);
    expectRefused(await apply(yml), yml, "accept[0].reason: must be one of fix_started, inaccurate, no_bandwidth, not_used, tolerable_risk (got a string of");
    writeFileSync(yml, `accept: *${SECRET}\n`);
    expectRefused(await apply(yml), yml, "not valid YAML: Unresolved alias (the anchor must be set before the alias)");
  });

  it("a FIFO is refused at once as not a file (the CLI never waits on it)", async () => {
    const fifo = path.join(bed.box.dir, "policy.yml.fifo");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    // Before the fix the read blocked for good and SIGTERM did not end it: runCli's timeout would kill it.
    expectRefused(await apply(fifo), fifo, "not a file");
  });

  it("refuses a directory, a file over 2 MB and a file any user can write", async () => {
    expectRefused(await apply(bed.box.dir), bed.box.dir, "not a file");
    const big = path.join(bed.box.dir, "big.yml");
    writeFileSync(big, `# ${"x".repeat(3 * 1024 * 1024)}\naccept: []\n`);
    expectRefused(await apply(big), big, "larger than 2 MB: not read");
    const open = path.join(bed.box.dir, "open.yml");
    writeFileSync(open, "accept: []\n");
    chmodSync(open, 0o666);
    expectRefused(await apply(open), open, "can be written by any user (mode 0666)");
    chmodSync(open, 0o644);
    const ok = await apply(open);
    expect(ok.code, ok.stderr).toBe(0);
  });

  it.skipIf(!isRoot)("refuses a file another user owns (real users, as root)", async () => {
    const other = systemUser("siteops-attacker");
    const dir = path.join(bed.box.dir, "shared");
    mkdirSync(dir);
    const file = path.join(dir, "policy.yml");
    writeFileSync(file, "accept: []\n");
    chownSync(file, other.uid, other.gid);
    expectRefused(await apply(file), file, `belongs to another user (uid ${other.uid})`);
  });
});

describe("the action's 'policy-file': read as the CLI reads it", () => {
  const fx = useActionEmulator();

  it("a link to /proc/self/environ is refused naming the input; the step's environment is not in the log", async () => {
    const link = path.join(fx.dir, "policy-environ.yml");
    symlinkSync("/proc/self/environ", link);
    const r = await runAction(
      { "api-token": TOKEN, "base-url": fx.emu.url, command: "vulnerabilities", site: "all", "policy-file": link, "sarif-file": path.join(fx.dir, "p.sarif") },
      { SITEOPS_TEST_SECRET: ENV_SECRET },
    );
    expect(r.code).toBe(1);
    expect(r.errors.join("\n")).toContain(`'policy-file' ${JSON.stringify(link)}: is a symbolic link`);
    expect(r.visible).not.toContain(ENV_SECRET);
    expect(r.stderr).not.toContain(ENV_SECRET);
  });

  it("a document that is not a policy is named by its type, never quoted", async () => {
    const file = path.join(fx.dir, "policy-plain.yml");
    writeFileSync(file, `${SECRET}\n`);
    const r = await runAction({
      "api-token": TOKEN,
      "base-url": fx.emu.url,
      command: "vulnerabilities",
      site: "all",
      "policy-file": file,
      "sarif-file": path.join(fx.dir, "p.sarif"),
    });
    expect(r.code).toBe(1);
    expect(r.errors.join("\n")).toContain(`the policy: must be a mapping with an accept list (got a string of ${SECRET.length} characters)`);
    expect(r.visible).not.toContain(SECRET);
    expect(r.stderr).not.toContain(SECRET);
  });
});
