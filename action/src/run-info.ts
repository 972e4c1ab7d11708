// The GitHub run the action executes in (from @actions/github's context, i.e. the runner's GITHUB_* variables),
// and the default snapshot description and approval comment that record it.

import { context } from "@actions/github";

export interface RunInfo {
  /** owner/name */
  repository: string | undefined;
  sha: string | undefined;
  /** https://github.com/owner/name/actions/runs/123, with /attempts/N on a re-run: where this attempt's log is. */
  runUrl: string | undefined;
  /** The run's id, the same on every attempt (GITHUB_RUN_ID); its attempt (GITHUB_RUN_ATTEMPT), 1 at first. */
  runId: number | undefined;
  attempt: number;
  /** The job's id in the workflow (GITHUB_JOB) and the step's (GITHUB_ACTION: its `id:`, or a name the runner
   * makes unique within the job). */
  job: string | undefined;
  step: string | undefined;
  actor: string | undefined;
  workflow: string | undefined;
  eventName: string | undefined;
}

export function runInfo(env: NodeJS.ProcessEnv = process.env): RunInfo {
  // context.repo throws without GITHUB_REPOSITORY and a payload; the variable is all we need.
  const repository = env.GITHUB_REPOSITORY || undefined;
  const runId = Number.isFinite(context.runId) && context.runId > 0 ? context.runId : undefined;
  const attempt = Number.isFinite(context.runAttempt) && context.runAttempt > 1 ? context.runAttempt : 1;
  const server = (context.serverUrl || "https://github.com").replace(/\/+$/, "");
  return {
    repository,
    sha: context.sha || undefined,
    runUrl: repository && runId ? `${server}/${repository}/actions/runs/${runId}${attempt > 1 ? `/attempts/${attempt}` : ""}` : undefined,
    runId,
    attempt,
    job: context.job || undefined,
    step: env.GITHUB_ACTION || undefined,
    actor: context.actor || undefined,
    workflow: context.workflow || undefined,
    eventName: context.eventName || undefined,
  };
}

/** "GitHub Actions: owner/repo@abc1234, run https://github.com/owner/repo/actions/runs/123". The run's URL without
 * its attempt: every attempt asks for the same snapshot (one body, one key: commands/request-keys.ts). */
export function defaultDescription(run: RunInfo): string {
  const where = run.repository ? `${run.repository}${run.sha ? `@${run.sha.slice(0, 7)}` : ""}` : "a workflow";
  const workflow = run.workflow ? ` (${run.workflow})` : "";
  const runUrl = run.runUrl?.replace(/\/attempts\/\d+$/, "");
  return `GitHub Actions: ${where}${workflow}${runUrl ? `, run ${runUrl}` : ""}`;
}

/** "Approved by @octocat in owner/repo (Upgrade), run https://github.com/owner/repo/actions/runs/123" */
export function defaultComment(run: RunInfo): string {
  const who = run.actor ? `@${run.actor}` : "a GitHub Actions workflow";
  const where = run.repository ? ` in ${run.repository}${run.workflow ? ` (${run.workflow})` : ""}` : "";
  return `Approved by ${who}${where}${run.runUrl ? `, run ${run.runUrl}` : ""}`;
}

/** Scheduled workflow runs create `scheduled` snapshots; everything else is `manual`. */
export function snapshotTrigger(run: RunInfo): "scheduled" | "manual" {
  return run.eventName === "schedule" ? "scheduled" : "manual";
}
