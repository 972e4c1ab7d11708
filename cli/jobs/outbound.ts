// What a scheduled job tells the outside when it starts and ends: --metrics-file, --ping, --notify.
// The metrics file (Prometheus textfile), the ping (healthchecks.io / Cronitor) and the notification (a webhook:
// the JSON report or a Slack message), wired into runJob (run-job.ts); their flags are in flags.ts. All are
// checked before the run; a ping or notification that cannot be delivered is one stderr line and never changes
// the exit code. The URLs are secrets (the check's UUID, the webhook's key): read from the flag or from
// SITEOPS_PING_URL / SITEOPS_NOTIFY_URL (kept off the command line, which `ps` shows), and never printed.

import { createHash } from "node:crypto";
import { flagOrEnv, flagString, type Parsed } from "../args.js";
import type { Context } from "../context.js";
import { EXIT, UsageError } from "../exit-codes.js";
import { clean } from "../../common/sanitize.js";
import { type Delivery, deliver, parseUrl } from "./outbound/delivery.js";
import { checkMetricsPath, writeMetrics } from "./outbound/metrics-file.js";
import { jsonNotification, slackNotification } from "./outbound/notify.js";
import { OUTBOUND_FLAGS } from "./flags.js";
import { endPing, pingUrl } from "./outbound/ping.js";
import { type JobReport, runFacts } from "./outbound/run-facts.js";

/** Names of a job: letters, digits and `_ . : / -`, as a label value and in a message. */
const JOB_NAME = /^[A-Za-z0-9_.:/-]{1,100}$/;

/** The news a run of a job that tells its own (`vulns report`: the records no earlier run told about) found, told
 * instead of the run's report. */
export interface JobNews {
  /** What --notify posts after this run (`format` as --notify-format says), or undefined: nothing to tell. */
  delivery(report: JobReport, format: "json" | "slack", job: string): Delivery | undefined;
  /** The news was told: delivered, or there was no --notify (the run's output and --report told it). Not called
   * when the delivery failed, so the next run tells it again. */
  told(): void;
}

export interface JobOutbound {
  /** The run holds its lock and starts: sends the /start ping (in the background). */
  started(): void;
  /** The run ended with `report` (exit code included) and, for a job that tells its own news, the news its work
   * found (none when it failed before): writes the metrics, sends the end ping and the notification. Returns the
   * exit code, 1 instead of 0 when the metrics file could not be written. */
  finished(report: JobReport, news?: JobNews): Promise<number>;
}

/** Reads and checks the outbound flags of a job (UsageError before anything runs). */
export function jobOutbound(ctx: Context, parsed: Parsed, command: string, ownNews = false): JobOutbound {
  const job = flagString(parsed, "job-name") ?? command.replace(/\s+/g, "-");
  if (!JOB_NAME.test(job)) throw new UsageError("--job-name must be 1 to 100 letters, digits or _ . : / - (it is a Prometheus label value)");
  const metricsArg = flagString(parsed, "metrics-file");
  const metricsFile = metricsArg === undefined ? undefined : checkMetricsPath(metricsArg);
  const ping = secretUrl(ctx, parsed, "ping");
  const notify = secretUrl(ctx, parsed, "notify");
  const format = flagString(parsed, "notify-format") ?? "json";
  const on = flagString(parsed, "notify-on") ?? "failure";
  for (const flag of ["notify-format", "notify-on"])
    if (!notify && flagString(parsed, flag) !== undefined) throw new UsageError(`--${flag} needs --notify URL (or SITEOPS_NOTIFY_URL)`);

  const send = async (failed: string, url: URL, delivery: Delivery): Promise<boolean> => {
    const failure = await deliver(url, delivery);
    if (failure !== undefined) ctx.stderr.write(`siteops: ${failed}: ${clean(failure)}\n`);
    return failure === undefined;
  };
  const tell = async (report: JobReport, news: JobNews | undefined) => {
    const delivery = news?.delivery(report, format === "slack" ? "slack" : "json", job);
    if (!notify || !delivery || (await send("notification failed", notify, delivery))) news?.told();
  };
  let startPing: Promise<boolean> | undefined;
  return {
    started() {
      if (ping) startPing = send("ping failed (start)", pingUrl(ping, "start"), { body: "", contentType: "text/plain; charset=utf-8" });
    },
    async finished(report, news) {
      let code = report.exit_code;
      const facts = runFacts(report);
      if (metricsFile) {
        try {
          writeMetrics(metricsFile, job, facts);
        } catch (err) {
          ctx.stderr.write(`error: cannot write the metrics file ${metricsFile}: ${(err as Error).message}\n`);
          if (code === EXIT.OK) code = EXIT.FAILED;
        }
      }
      await startPing; // the /start ping goes before the end's, or the checker would see the run start again
      const ok = report.exit_code === EXIT.OK;
      // A job with news of its own is silent when nothing is new: an empty selection, which reads as nothing new,
      // is told as the failure it is.
      const id = notificationId(job, report.started_at);
      await Promise.all([
        ping && send(`ping failed (${ok ? "success" : "fail"})`, pingUrl(ping, ok ? "success" : "fail"), endPing(job, facts)),
        ownNews && report.exit_code !== EXIT.EMPTY
          ? tell(report, news)
          : notify &&
            (on === "always" || !ok) &&
            send("notification failed", notify, format === "slack" ? slackNotification(job, facts, id) : jsonNotification(report, id)),
      ]);
      return code;
    },
  };
}

/** --FLAG URL, else its environment variable (flags.ts); the URL joins the context's secrets. */
function secretUrl(ctx: Context, parsed: Parsed, flag: "ping" | "notify"): URL | undefined {
  const given = flagOrEnv(parsed, OUTBOUND_FLAGS.find((f) => f.name === flag)!, ctx.env);
  if (given === undefined) return undefined;
  const raw = given.value;
  const url = parseUrl(raw);
  // The key is in the path or the query: hide it alone too (a receiver's message could quote the path).
  const forms = typeof url === "string" ? [raw.trim()] : [raw.trim(), url.href, `${url.pathname}${url.search}`];
  ctx.secrets.push(...forms.filter((s) => s.length >= 8));
  if (typeof url === "string") throw new UsageError(`${given.from} ${url}`);
  return url;
}

/** A notification's id (`webhook-id`, as Standard Webhooks names it): the same for every delivery of the same
 * news, so that a receiver drops a repeat (a retry whose first answer was lost, a run killed after the receiver's
 * 200 and before it noted the news as told). `parts` are what makes the news this one. */
export function notificationId(...parts: readonly string[]): string {
  return `msg_${createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, 26)}`;
}

/** The arguments with the values of --ping and --notify hidden, for the lock's "held by" line. */
export function redactArgv(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const flag = /^--(ping|notify)(=|$)/.exec(arg);
    if (!flag) out.push(arg);
    else if (flag[2] === "=") out.push(`--${flag[1]}=***`);
    else {
      out.push(arg);
      if (i + 1 < argv.length) out.push("***");
      i++;
    }
  }
  return out;
}
