// Issue 39 item 6: trying the README's scheduled job by hand does not steal the night. The README's
// `snapshot create` line, run as written, then the nightly job's command (examples/cron/siteops-nightly.sh's)
// within the window: the night snapshots every site itself, adopting nothing of the trial.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { ROOT, runCli, useTestBed } from "./helpers.js";

const bed = useTestBed();

it("the README's trial run neither adopts nor is adopted by tonight's run", async () => {
  const line = readFileSync(path.join(ROOT, "README.md"), "utf8")
    .split("\n")
    .find((l) => l.startsWith("siteops snapshot create --all"))!;
  // The report, written relative to the README's folder, into the sandbox instead.
  const trial = line
    .split("#")[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map((arg, i, all) => (all[i - 1] === "--report" ? path.join(bed.box.dir, arg) : arg));
  const r = await runCli(trial, { env: bed.env });
  expect(r.code, r.stderr).toBe(0);

  const nightly = readFileSync(path.join(ROOT, "examples/cron/siteops-nightly.sh"), "utf8");
  expect(nightly).toContain("siteops snapshot create --all --trigger scheduled");
  const night = await runCli(["snapshot", "create", "--all", "--trigger", "scheduled", "--json=outcome,adopted"], { env: bed.env });
  expect(night.code, night.stderr).toBe(0);
  const records = JSON.parse(night.stdout) as { outcome: string; adopted: boolean }[];
  expect(records.length).toBeGreaterThan(0);
  expect(records).toEqual(records.map(() => ({ outcome: "completed", adopted: false })));
});
