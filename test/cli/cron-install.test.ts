// examples/cron/install.sh as a user runs it: siteops installed the way npm does (a `siteops` symlink to
// bin/siteops.js, `#!/usr/bin/env node`), the job installed for cron into a temporary prefix and its crontab
// line run with cron's minimal environment against the emulator; for systemd into a DESTDIR whose units
// systemd-analyze verifies as installed (nothing rewritten); the credentials file created exclusively.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { userInfo } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { OWNER_TOKEN } from "../core/helpers.js";
import { BIN, ROOT, transcripts, useTestBed } from "./helpers.js";

const CRON = path.join(ROOT, "examples/cron");
const INSTALL = path.join(CRON, "install.sh");
const bed = useTestBed();
/** The PATH of the user who installs: npm's global bin and this Node first. */
let userPath = "";

beforeAll(() => {
  const npmBin = path.join(bed.box.dir, "npm", "bin");
  mkdirSync(npmBin, { recursive: true });
  symlinkSync(BIN, path.join(npmBin, "siteops"));
  userPath = `${npmBin}:${path.dirname(process.execPath)}:/usr/bin:/bin`;
});

function install(args: string[], input = ""): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync("sh", [INSTALL, ...args], { input, encoding: "utf8", env: { PATH: userPath, HOME: bed.box.dir } });
  transcripts.push(r.stdout, r.stderr);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `sh -c COMMAND` asynchronously (the emulator answers from this process), with exactly the environment given. */
function sh(command: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("/usr/bin/env", ["-i", ...Object.entries(env).map(([k, v]) => `${k}=${v}`), "sh", "-c", command], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("close", (code: number | null) => {
      transcripts.push(output);
      resolve({ code, output });
    });
  });
}

const mode = (file: string) => statSync(file).mode & 0o777;

describe("examples/cron/install.sh", () => {
  it("--cron: the installed crontab line runs with cron's environment (PATH=/usr/bin:/bin, nothing else)", async () => {
    const root = path.join(bed.box.dir, "cron");
    const r = install(
      ["--cron", "--prefix", `${root}/usr/local`, "--sysconfdir", `${root}/etc`, "--reports", `${root}/reports`, "--base-url", bed.emu.url, "--token-stdin"],
      `${OWNER_TOKEN}\n`,
    );
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(mode(`${root}/usr/local/bin/siteops-nightly`)).toBe(0o755);
    expect(mode(`${root}/etc/siteops`)).toBe(0o700);
    expect(mode(`${root}/etc/siteops/nightly.env`)).toBe(0o600);
    expect(readFileSync(`${root}/etc/siteops/nightly.env`, "utf8")).toContain(`SITEOPS_API_TOKEN='${OWNER_TOKEN}'`);

    const line = readFileSync(`${root}/etc/cron.d/siteops-nightly`, "utf8")
      .split("\n")
      .find((l) => /^\d/.test(l))!;
    const [minute, hour, dom, month, dow, user, ...command] = line.split(" ");
    expect([minute, hour, dom, month, dow, user]).toEqual(["15", "2", "*", "*", "*", userInfo().username]);
    const job = await sh(command.join(" "), { PATH: "/usr/bin:/bin" });
    expect(job).toEqual({ code: 0, output: "" });
    const report = JSON.parse(readFileSync(`${root}/reports/snapshots.json`, "utf8")) as unknown;
    expect(report).toMatchObject({ exit_code: 0, summary: { total: 2, completed: 2 } });
    expect(existsSync(`${root}/reports/prune.json`)).toBe(true);
  });

  it("the credentials file is never replaced, nor written through a symlink; nothing is installed then", () => {
    const root = path.join(bed.box.dir, "again");
    mkdirSync(`${root}/etc/siteops`, { recursive: true, mode: 0o700 });
    symlinkSync(`${root}/stolen`, `${root}/etc/siteops/nightly.env`);
    const args = ["--cron", "--prefix", `${root}/usr`, "--sysconfdir", `${root}/etc`, "--reports", `${root}/reports`, "--token-stdin"];
    const r = install(args, `${OWNER_TOKEN}\n`);
    expect(r).toMatchObject({ status: 2, stdout: "", stderr: `install.sh: ${root}/etc/siteops/nightly.env exists: edit it, or remove it and run again\n` });
    expect(existsSync(`${root}/stolen`)).toBe(false);
    expect(existsSync(`${root}/usr/bin/siteops-nightly`)).toBe(false);
  });

  it("a usage mistake is one line naming the option, exit 2", () => {
    expect(install(["--cron", "--systemd"])).toMatchObject({ status: 2, stderr: "install.sh: give one of --cron and --systemd, not both\n" });
    expect(install(["--systemd", "--prefix", "usr"])).toMatchObject({ status: 2, stderr: "install.sh: --prefix must be an absolute path: usr\n" });
    expect(install(["--cron", "--siteops", "/nonexistent/siteops"])).toMatchObject({
      status: 2,
      stderr: "install.sh: --siteops: /nonexistent/siteops is not an executable file\n",
    });
  });

  it("--destdir: what it reports installed, created or kept is named under DESTDIR, where it is", () => {
    const root = path.join(bed.box.dir, "staged");
    for (const schedule of ["--cron", "--systemd"]) {
      const r = install([schedule, "--destdir", root]);
      expect(r.status, r.stderr).toBe(0);
      const named = [...r.stdout.matchAll(/^(?:installed|created|kept) ([^\s:]+)/gm)].map((m) => m[1]!);
      expect(named.length, r.stdout).toBeGreaterThanOrEqual(2);
      for (const file of named) {
        expect(file.startsWith(`${root}/`), r.stdout).toBe(true);
        expect(existsSync(file), file).toBe(true);
      }
    }
  });

  // Skipped where systemd-analyze is missing, except in CI (.ci/run installs it).
  const ci = process.env.CI === "true";
  it.skipIf(!ci && Boolean(spawnSync("systemd-analyze", ["--version"]).error))(
    "--systemd into a DESTDIR: systemd-analyze verifies the installed units as they are",
    () => {
      const root = path.join(bed.box.dir, "image");
      const r = install(["--systemd", "--destdir", root]);
      // Less the warning that this siteops or node is under /home, /root or /tmp (cron-install-systemd-paths.test.ts).
      expect(r.stderr.replace(/^install\.sh: warning: the systemd unit cannot run .*\n/, "")).toBe("");
      expect(r.status).toBe(0);
      // The default prefix changes nothing in the units: they are the shipped files.
      for (const unit of ["siteops-nightly.service", "siteops-nightly.timer"]) {
        expect(readFileSync(`${root}/etc/systemd/system/${unit}`, "utf8")).toBe(readFileSync(path.join(CRON, unit), "utf8"));
      }
      expect(mode(`${root}/etc/siteops/nightly.env`)).toBe(0o600);
      // The image's own systemd units (sysinit.target ...), as on the machine the image is for.
      mkdirSync(`${root}/usr/lib/systemd`, { recursive: true });
      const cp = spawnSync("cp", ["-a", existsSync("/usr/lib/systemd/system") ? "/usr/lib/systemd/system" : "/lib/systemd/system", `${root}/usr/lib/systemd/`]);
      expect(cp.status, String(cp.stderr)).toBe(0);
      const verify = spawnSync(
        "systemd-analyze",
        ["verify", `--root=${root}`, "/etc/systemd/system/siteops-nightly.service", "/etc/systemd/system/siteops-nightly.timer"],
        { encoding: "utf8" },
      );
      expect(verify.stderr).toBe("");
      expect(verify.status).toBe(0);
    },
  );
});
