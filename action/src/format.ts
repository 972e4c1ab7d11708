// How errors read in the log, the annotations and the job summary: the core's describeError with the action's
// advice, as sentences (sizes and durations: common/format.ts, shared with the CLI).

import { describeError, EmptySelectionError, SiteSelectionError } from "../../src/fleet.js";
import { AuthenticationError } from "../../src/index.js";
import { formatDuration } from "../../common/format.js";

/** A pipeline's state as a predicate: "succeeded", "failed", "was rolled back", "is running", "is awaiting
 * approval" (not "is succeeded"). */
export function pipelineState(status: string): string {
  const done: Record<string, string> = { succeeded: "succeeded", failed: "failed", rolled_back: "was rolled back" };
  return done[status] ?? `is ${status.replace(/_/g, " ")}`;
}

/** "Pipeline upg_1 succeeded after 3.2 s.", "... is running after ..." (an unfinished one, when not waiting). */
export function pipelineNote(pipeline: { id: string; status: string }, durationMs: number): string {
  return `Pipeline ${pipeline.id} ${pipelineState(pipeline.status)} after ${formatDuration(durationMs)}.`;
}

/** One line saying what failed and, where it helps, what to change. `secrets` never appear in it (each is
 * replaced with ***, as the runner's log masking does). */
export function errorLine(err: unknown, secrets: readonly string[] = []): string {
  if (err instanceof SiteSelectionError) return describeError(sentence(err.message), { secrets, mask: "***" });
  if (err instanceof EmptySelectionError) return `${sentence(err.message)} Set 'allow-empty: true' if that is expected.`;
  return describeError(err, {
    apiStatus: "before",
    advice: {
      authentication: (refused) =>
        refused instanceof AuthenticationError && refused.credentialSource === "SITEOPS_API_TOKEN"
          ? "Check SITEOPS_API_TOKEN: it is wrong or revoked."
          : "Check 'api-token': it is missing, wrong or revoked.",
      permission: "The token's user needs the owner or admin role for this.",
      timeout: "Raise 'timeout-minutes', or set 'wait: false'.",
    },
    aborted: "Cancelled: the workflow run was cancelled while waiting; what was started carries on in the service.",
    secrets,
    mask: "***",
  });
}

/** A message as a sentence: capitalised, ending with a full stop (or its own question mark). */
function sentence(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.?]$/.test(text) ? text : `${text}.`;
}
