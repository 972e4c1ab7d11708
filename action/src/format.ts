// How errors read in the log, the annotations and the job summary (sizes and durations: src/format.ts, shared
// with the CLI).

import {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  OperationFailedError,
  PermissionDeniedError,
  WaitTimeoutError,
} from "../../src/index.js";
import { apiErrorPhrase, formatDuration, maskSecrets } from "../../src/format.js";

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

/** One line saying what failed and, where it helps, what to change. `secrets` never appear in it. */
export function errorLine(err: unknown, secrets: readonly string[] = []): string {
  return hide(describe(err), secrets);
}

function describe(err: unknown): string {
  if (err instanceof AuthenticationError) return `${apiLine(err)} Check 'api-token': it is missing, wrong or revoked.`;
  if (err instanceof PermissionDeniedError) return `${apiLine(err)} The token's user needs the owner or admin role for this.`;
  if (err instanceof APIError) return apiLine(err);
  if (err instanceof APIUserAbortError) return "Cancelled: the workflow run was cancelled while waiting; what was started carries on in the service.";
  if (err instanceof WaitTimeoutError) return `${err.message} Raise 'timeout-minutes', or set 'wait: false'.`;
  if (err instanceof APIConnectionError) return `Cannot reach the Site Operations service: ${err.message}`;
  if (err instanceof OperationFailedError) return err.message;
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

function apiLine(err: APIError): string {
  const request = err.requestId ? ` Request id: ${err.requestId}.` : "";
  return `Site Operations API ${err.status}: ${apiErrorPhrase(err)}.${request}`;
}

/** Replaces every occurrence of a secret with ***, as the runner's log masking does. */
function hide(text: string, secrets: readonly string[]): string {
  return maskSecrets(text, secrets, "***");
}
