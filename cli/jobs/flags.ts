// The flags every scheduled job takes (snapshot create, snapshot prune): its lock, its report, and what it tells
// the outside when it ends (metrics file, ping, notification). Read by run-job.ts and outbound.ts.

import type { FlagSpec } from "../args.js";

/** How the run tells someone: read by outbound.ts. The URLs also come from SITEOPS_PING_URL and
 * SITEOPS_NOTIFY_URL (kept off the command line, which `ps` shows). */
const OUTBOUND_FLAGS: FlagSpec[] = [
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
    description: "ping URL/start, then URL on success or URL/fail (healthchecks.io, Cronitor); default $SITEOPS_PING_URL",
  },
  {
    name: "notify",
    type: "string",
    value: "URL",
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

/** The job flags of the job named `jobName` by default (`upgrade-rollout`): --job-name's help says so. */
export function jobFlagsFor(jobName: string): FlagSpec[] {
  return JOB_FLAGS.map((f) =>
    f.name === "job-name" ? { ...f, description: `the job's name in metrics (job_name label), pings and notifications (default ${jobName})` } : f,
  );
}

/** The job flags, in the order --help lists them: the lock and the report (run-job.ts), then the outbound ones. */
export const JOB_FLAGS: FlagSpec[] = [
  {
    name: "lock",
    type: "string",
    value: "FILE",
    description: "lock file; a second run with the same lock exits 75 (default: one per job in $XDG_RUNTIME_DIR/siteops)",
  },
  { name: "no-lock", type: "boolean", description: "run even if the same job is running" },
  { name: "report", type: "string", value: "FILE", description: "write a JSON report of the run (every site's outcome) to FILE" },
  ...OUTBOUND_FLAGS,
];
