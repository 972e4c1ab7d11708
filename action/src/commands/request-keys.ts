// The Idempotency-Key of each site's create request (a snapshot, a rollout's pipeline), the same on every attempt
// of one step of one workflow run (issue 40 item 7): a re-run runs on a fresh runner with nothing of the killed or
// failed attempt, so the service is what remembers. Its answer to a repeated key is the earlier attempt's snapshot
// or pipeline, which the core adopts (snapshotFleet's and rolloutUpgrade's `requestKey`); another run, job or
// step, site or request body is another key.

import type { PipelineRequestName, SnapshotRequestName } from "../../../src/fleet.js";
import type { RunInfo } from "../run-info.js";

/** The key maker of this step over what names one request; undefined outside a workflow run (no run id), where
 * keys stay random. */
function stepKey(run: RunInfo): ((...request: unknown[]) => string) | undefined {
  if (!run.repository || run.runId === undefined) return undefined;
  // Not the attempt: that is what every attempt shares. The body is in it, so that a key is never sent with
  // another body (which the service refuses), e.g. a description that names the attempt.
  const step = [run.repository, run.runId, run.job ?? "", run.step ?? ""];
  // node:crypto when the first key is made, not at start-up (test/action/build.test.ts).
  return (...request) =>
    `siteops-gha-${process
      .getBuiltinModule("node:crypto")
      .createHash("sha256")
      .update(JSON.stringify([...step, ...request]))
      .digest("base64url")}`;
}

/** Snapshot requests' keys: the site, the body and the generation (one more for each earlier snapshot that failed
 * or was deleted). */
export function snapshotRequestKey(run: RunInfo): ((name: SnapshotRequestName) => string) | undefined {
  const key = stepKey(run);
  return key && (({ site, params, generation }) => key(site.id, params, generation));
}

/** A rollout's pipeline requests' keys: the site and the body. No generation: a pipeline that failed or rolled
 * back is judged again on a re-run, never reopened; the next workflow run opens a new one. */
export function pipelineRequestKey(run: RunInfo): ((name: PipelineRequestName) => string) | undefined {
  const key = stepKey(run);
  return key && (({ site, params }) => key("pipeline", site.id, params));
}
