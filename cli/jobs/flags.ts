// The flags every scheduled job takes (snapshot create and prune, vulns report, upgrade rollout): its lock, its
// report, and what it tells the outside when it ends (metrics file, ping, notification). Read by run-job.ts and
// outbound.ts. A flag with an environment variable (`env`) is given when the variable is set, everywhere alike.

import { type FlagSpec, flagOrEnv, type Parsed } from "../args.js";

/** How the run tells someone: read by outbound.ts. The URLs also come from SITEOPS_PING_URL and
 * SITEOPS_NOTIFY_URL (kept off the command line, which `ps` shows). */
export const OUTBOUND_FLAGS: FlagSpec[] = [
  {
    name: "metrics-file",
    type: "string",
    value: "FILE",
    description: "write the run's Prometheus metrics to FILE (*.prom, for node_exporter's textfile collector)",
  },
  {
    name: "job-name",
    type: "string",
    value: "NAME",
    description: "the job's name in metrics (job_name label), pings and notifications (default: the command, snapshot-create or snapshot-prune)",
  },
  {
    name: "ping",
    type: "string",
    value: "URL",
    env: "SITEOPS_PING_URL",
    description: "ping URL/start, then URL on success or URL/fail (healthchecks.io, Cronitor); default $SITEOPS_PING_URL",
  },
  {
    name: "notify",
    type: "string",
    value: "URL",
    env: "SITEOPS_NOTIFY_URL",
    description: "post the run's JSON report (or a Slack message) to URL; default $SITEOPS_NOTIFY_URL",
  },
  {
    name: "notify-format",
    type: "string",
    value: "FORMAT",
    choices: ["json", "slack"],
    description: "what --notify posts: the run's JSON report, or a Slack message (default json)",
  },
  {
    name: "notify-on",
    type: "string",
    value: "WHEN",
    choices: ["failure", "always"],
    description: "when --notify posts: after a failed run (exit code not 0), or after every run (default failure)",
  },
];

/** The lock's flags (run-job.ts): every job's, and all `vulns apply` takes of a job. */
export const LOCK_FLAGS: FlagSpec[] = [
  {
    name: "lock",
    type: "string",
    value: "FILE",
    description: "lock file; a second run with the same lock exits 75 (default: one per job in $XDG_RUNTIME_DIR/siteops)",
  },
  { name: "no-lock", type: "boolean", description: "run even if the same job is running" },
];

/** The job flags, in the order --help lists them: the lock and the report (run-job.ts), then the outbound ones. */
export const JOB_FLAGS: FlagSpec[] = [
  ...LOCK_FLAGS,
  { name: "report", type: "string", value: "FILE", description: "write a JSON report of the run (every site's outcome) to FILE" },
  ...OUTBOUND_FLAGS,
];

/** The job flags of the job named `jobName` by default (`upgrade-rollout`): --job-name's help says so. */
export function jobFlagsFor(jobName: string): FlagSpec[] {
  return JOB_FLAGS.map((f) =>
    f.name === "job-name" ? { ...f, description: `the job's name in metrics (job_name label), pings and notifications (default ${jobName})` } : f,
  );
}

/** Whether any of `flags` is given, on the command line or through its environment variable: what turns a job on
 * for a command that is not always one (`vulns report`). */
export function anyFlagGiven(parsed: Parsed, flags: readonly FlagSpec[], env: NodeJS.ProcessEnv): boolean {
  return flags.some((f) => (f.type === "string" ? flagOrEnv(parsed, f, env) !== undefined : parsed.flags[f.name] !== undefined));
}
