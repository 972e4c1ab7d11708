// Where `command: vulnerabilities` writes its SARIF when 'sarif-file' is not given (issue 49): in the job's
// temporary directory (RUNNER_TEMP) on a runner, and outside one (`npx @github/local-action` sets no RUNNER_TEMP)
// in a new private temporary directory; never in the workspace, where it would be left in the clone.
import { existsSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { removeDir, useTempDirs } from "../support/temp.js";
import { TOKEN, useActionEmulator } from "./fixture.js";
import { runAction } from "./run-action.js";

const fx = useActionEmulator();
const temp = useTempDirs();
const inputs = () => ({ "api-token": TOKEN, "base-url": fx.emu.url, command: "vulnerabilities", site: "all" });

describe("command: vulnerabilities without 'sarif-file'", () => {
  it("writes siteops-vulnerabilities.sarif in RUNNER_TEMP, not in the workspace", async () => {
    const [runnerTemp, workspace] = [temp("runner-temp"), temp("workspace")];
    const r = await runAction(inputs(), { RUNNER_TEMP: runnerTemp, GITHUB_WORKSPACE: workspace }, { cwd: workspace });
    expect(r.code, r.errors.join("\n")).toBe(0);
    expect(r.outputs["sarif-file"]).toBe(path.join(runnerTemp, "siteops-vulnerabilities.sarif"));
    expect(existsSync(r.outputs["sarif-file"]!)).toBe(true);
    expect(readdirSync(workspace)).toEqual([]);
  });

  it("outside a runner (no RUNNER_TEMP), in a private temporary directory of its own", async () => {
    const workspace = temp("local-action");
    const r = await runAction(inputs(), { RUNNER_TEMP: "", GITHUB_WORKSPACE: workspace }, { cwd: workspace });
    expect(r.code, r.errors.join("\n")).toBe(0);
    const file = r.outputs["sarif-file"]!;
    try {
      expect(readdirSync(workspace)).toEqual([]);
      expect(path.dirname(path.dirname(file))).toBe(tmpdir());
      expect(path.basename(path.dirname(file))).toMatch(/^siteops-/);
      expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
      expect(existsSync(file)).toBe(true);
    } finally {
      removeDir(path.dirname(file));
    }
  });
});
