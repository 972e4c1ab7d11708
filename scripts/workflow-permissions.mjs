// What a workflow must grant GITHUB_TOKEN where it runs github/codeql-action/upload-sarif: `security-events:
// write` (to write the alerts), `contents: read` and, on a private repository, `actions: read` (upload-sarif reads
// the run it belongs to; without it, a 403 warning and no upload). A job's own `permissions:` replaces the
// workflow's, as GitHub applies them. Used by scripts/check-action.mjs for examples/workflows/ and by test/docs for
// the workflow blocks of the guides.
import { parse } from "yaml";

const UPLOAD_SARIF_NEEDS = { "security-events": "write", contents: "read", actions: "read" };
/** A grant that covers `read` too. */
const covers = (granted, needed) => granted === needed || (needed === "read" && granted === "write");

/** One line per job that uploads SARIF without a permission it needs; [] when none. */
export function uploadSarifPermissionProblems(text) {
  const workflow = parse(text) ?? {};
  const problems = [];
  for (const [name, job] of Object.entries(workflow.jobs ?? {})) {
    if (!(job?.steps ?? []).some((s) => typeof s?.uses === "string" && s.uses.startsWith("github/codeql-action/upload-sarif@"))) continue;
    const granted = job.permissions ?? workflow.permissions;
    if (granted === "write-all") continue;
    const missing = Object.entries(UPLOAD_SARIF_NEEDS).filter(([scope, level]) => !covers(granted?.[scope], level));
    if (missing.length) {
      problems.push(`job ${name} runs upload-sarif without ${missing.map(([scope, level]) => `${scope}: ${level}`).join(", ")} in its permissions`);
    }
  }
  return problems;
}
