// examples/cron/install.sh --systemd (issue 39 item 9): the unit's ProtectHome=yes and PrivateTmp=yes hide
// /home, /root, /run/user, /tmp and /var/tmp from the job, so a siteops or node installed there (nvm, a user's
// npm prefix) cannot start under it. install.sh says so in one line with the fix, naming the real path behind a
// link; nothing for --cron, nor when both live elsewhere. Stand-in `siteops` and `node` scripts: only their
// paths matter here (cron-install.test.ts runs the real ones).
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { removeDir, tempDir } from "../support/temp.js";
import { ROOT } from "./helpers.js";

const INSTALL = path.join(ROOT, "examples/cron/install.sh");
const HIDDEN = /^\/(home|root|run\/user|tmp|var\/tmp)\//;
/** Under /tmp: hidden from the unit. */
const inTmp = tempDir("install-paths");
/** Beside the repository (.tmp/, ignored by git): visible to the unit unless the clone itself is in a home. */
mkdirSync(path.join(ROOT, ".tmp"), { recursive: true });
const outside = mkdtempSync(path.join(ROOT, ".tmp", "install-paths-"));
const outsideVisible = !HIDDEN.test(`${realpathSync(outside)}/`);
afterAll(() => {
  removeDir(inTmp);
  removeDir(outside);
});

/** An executable stand-in at `dir/name` that prints a version. */
function stub(dir: string, name: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, "#!/bin/sh\necho 0.1.0\n");
  chmodSync(file, 0o755);
  return file;
}

function install(schedule: string, siteops: string, nodeDir: string): { status: number | null; stdout: string; stderr: string } {
  const destdir = mkdtempSync(path.join(inTmp, "dest-"));
  return spawnSync("sh", [INSTALL, schedule, "--destdir", destdir, "--siteops", siteops], {
    encoding: "utf8",
    env: { PATH: `${nodeDir}:/usr/bin:/bin`, HOME: inTmp },
  });
}

const warning = (hidden: string) =>
  `install.sh: warning: the systemd unit cannot run ${hidden}: ProtectHome=yes and PrivateTmp=yes hide /home, /root, /tmp from it; install Node.js and siteops outside them (a system Node.js, then npm install --global), or use --cron\n`;

it("--systemd with siteops and node under /tmp: one warning line naming both, with the fix; installed all the same", () => {
  const siteops = stub(path.join(inTmp, "npm/bin"), "siteops");
  const node = stub(path.join(inTmp, "nvm/bin"), "node");
  const r = install("--systemd", siteops, path.dirname(node));
  expect(r.status, r.stderr).toBe(0);
  expect(r.stderr).toBe(warning(`siteops (${realpathSync(siteops)}) and node (${realpathSync(node)})`));
  expect(r.stdout).toMatch(/installed .*siteops-nightly\.service and \.timer/);
});

it("--cron with the same paths: no warning (cron runs the job as the user, who sees them)", () => {
  const r = install("--cron", stub(path.join(inTmp, "npm/bin"), "siteops"), path.dirname(stub(path.join(inTmp, "nvm/bin"), "node")));
  expect(r.status, r.stderr).toBe(0);
  expect(r.stderr).toBe("");
});

it.runIf(outsideVisible)("--systemd: a siteops linked from outside into /tmp is named by its real path; node outside is not named", () => {
  const real = stub(path.join(inTmp, "prefix/lib"), "siteops.js");
  const link = path.join(outside, "bin", "siteops");
  mkdirSync(path.dirname(link), { recursive: true });
  symlinkSync(real, link);
  const node = stub(path.join(outside, "node/bin"), "node");
  const r = install("--systemd", link, path.dirname(node));
  expect(r.status, r.stderr).toBe(0);
  expect(r.stderr).toBe(warning(`siteops (${realpathSync(real)})`));
});

it.runIf(outsideVisible)("--systemd with siteops and node outside /home, /root and /tmp: no warning", () => {
  const siteops = stub(path.join(outside, "usr/bin"), "siteops");
  const node = stub(path.join(outside, "usr/node/bin"), "node");
  const r = install("--systemd", siteops, path.dirname(node));
  expect(r.status, r.stderr).toBe(0);
  expect(r.stderr).toBe("");
});
