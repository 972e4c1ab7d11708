// The notification (--notify URL): the run's JSON report, or a Slack message, posted to a webhook.
// The JSON report is the --report document; with --notify-format slack it is a message that Slack's incoming
// webhooks (and Mattermost's, Rocket.Chat's, Discord's /slack endpoint) post as it is: the outcome, the counts,
// the failed sites with their errors, the duration.

import { clean } from "../../../common/sanitize.js";
import { formatDuration } from "../../output/format.js";
import type { Delivery } from "./delivery.js";
import { capLines, exitLine, type JobReport, type RunFacts, sitesLine } from "./run-facts.js";

/** Failed sites a Slack message lists; the rest are counted ("... and 12 more"). */
const SLACK_SITES = 20;
/** Slack shows about 4,000 characters of a message's text before "Show more". */
const SLACK_TEXT_LIMIT = 3_500;

export function jsonNotification(report: JobReport, id: string): Delivery {
  return { body: JSON.stringify(report), contentType: "application/json", id };
}

/** Text from the service or the job, as Slack's mrkdwn shows it literally (&, <, > escaped). */
export function mrkdwn(value: unknown): string {
  return clean(value).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function slackNotification(job: string, facts: RunFacts, id: string): Delivery {
  const ok = facts.exitCode === 0;
  const head = [
    `${ok ? ":white_check_mark:" : ":x:"} *siteops ${facts.command}* (job \`${mrkdwn(job)}\`) ${ok ? "succeeded" : "failed"}: ${exitLine(facts.exitCode)}, in ${formatDuration(facts.durationMs)}`,
    sitesLine(facts),
    ...(facts.visualReport ? [`visual report (before | after | diff): \`${mrkdwn(facts.visualReport)}\``] : []),
  ];
  const sites = facts.failures.map((f) => (f.site ? `• *${mrkdwn(f.site.name)}* (\`${mrkdwn(f.site.id)}\`): ${mrkdwn(f.message)}` : `• ${mrkdwn(f.message)}`));
  const text = capLines([...head, ...sites], SLACK_TEXT_LIMIT, (n) => `... and ${n} more`, head.length + SLACK_SITES).trimEnd();
  return { body: JSON.stringify({ text }), contentType: "application/json", id };
}
