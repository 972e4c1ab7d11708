// The permissions a job that runs github/codeql-action/upload-sarif must have (scripts/workflow-permissions.mjs,
// applied to examples/workflows/ by check-action and to the guides' workflow blocks by test/docs): security-events:
// write, contents: read and actions: read, from the workflow or from the job's own block, which replaces it.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script, no declarations
import { uploadSarifPermissionProblems } from "../../scripts/workflow-permissions.mjs";
import { ROOT } from "../support/paths.js";

const job = (permissions: string) =>
  `on: push\n${permissions}jobs:\n  report:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: github/codeql-action/upload-sarif@v4\n`;

describe("upload-sarif's permissions", () => {
  it("holds in every example workflow", () => {
    const dir = path.join(ROOT, "examples/workflows");
    for (const file of readdirSync(dir)) expect(uploadSarifPermissionProblems(readFileSync(path.join(dir, file), "utf8")), file).toEqual([]);
  });

  it("names the job and what it lacks", () => {
    expect(uploadSarifPermissionProblems(job("permissions:\n  contents: read\n  security-events: write\n"))).toEqual([
      "job report runs upload-sarif without actions: read in its permissions",
    ]);
    expect(uploadSarifPermissionProblems(job(""))).toEqual([
      "job report runs upload-sarif without security-events: write, contents: read, actions: read in its permissions",
    ]);
    expect(uploadSarifPermissionProblems(job("permissions:\n  contents: write\n  security-events: write\n  actions: read\n"))).toEqual([]);
    expect(uploadSarifPermissionProblems(job("permissions: write-all\n"))).toEqual([]);
  });

  it("reads a job's own block instead of the workflow's", () => {
    const text = job("permissions:\n  contents: read\n  security-events: write\n  actions: read\n").replace(
      "    runs-on:",
      "    permissions:\n      security-events: write\n    runs-on:",
    );
    expect(uploadSarifPermissionProblems(text)).toEqual(["job report runs upload-sarif without contents: read, actions: read in its permissions"]);
  });
});
