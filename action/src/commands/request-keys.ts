// The Idempotency-Key of each site's snapshot request, the same on every attempt of one step of one workflow run
// (issue 40 item 7): a re-run runs on a fresh runner with nothing of the killed attempt, so the service is what
// remembers. Its answer to a repeated key is the earlier attempt's snapshot, which the core adopts
// (snapshotFleet's `requestKey`); another run, job or step, site or request body is another key.

import type { SnapshotRequestName } from "../../../src/fleet.js";
import type { RunInfo } from "../run-info.js";

/** The key maker of this step; undefined outside a workflow run (no run id), where keys stay random. */
export function snapshotRequestKey(run: RunInfo): ((name: SnapshotRequestName) => string) | undefined {
  if (!run.repository || run.runId === undefined) return undefined;
  // Not the attempt: that is what every attempt shares. The body is in it, so that a key is never sent with
  // another body (which the service refuses), e.g. a description that names the attempt.
  const step = [run.repository, run.runId, run.job ?? "", run.step ?? ""];
  // node:crypto when the first key is made, not at start-up (test/action/build.test.ts).
  return ({ site, params, generation }) =>
    `siteops-gha-${process
      .getBuiltinModule("node:crypto")
      .createHash("sha256")
      .update(JSON.stringify([...step, site.id, params, generation]))
      .digest("base64url")}`;
}
