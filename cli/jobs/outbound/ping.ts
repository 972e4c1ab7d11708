// The pings (--ping URL): when a run starts, succeeds or fails, as healthchecks.io and Cronitor read them.
// As healthchecks.io reads it (and the self-hosted checkers that copy it): URL/start when the run starts, URL
// when it succeeds, URL/fail when it fails, the last two with a plain-text summary as the body (the failed sites
// and their first errors, at most 10 KB), which the check shows beside the ping. Cronitor's telemetry URLs
// (cronitor.link) get the same three events as ?state=run|complete|fail. The checker alerts on a failure and on
// a missing success alike, so a run that never ends is seen too.

import { clean } from "../../../common/sanitize.js";
import { formatDuration } from "../../output/format.js";
import type { Delivery } from "./delivery.js";
import { capLines, exitLine, type RunFacts, sitesLine } from "./run-facts.js";

/** The largest body a ping carries (healthchecks.io keeps the first 10 KB of a ping's body). */
const PING_BODY_LIMIT = 10_000;

/** URL with `/start` or `/fail` added to its path (a query string stays after it); for Cronitor, its `state`. */
export function pingUrl(url: URL, kind: "start" | "success" | "fail"): URL {
  const out = new URL(url.href);
  if (out.hostname === "cronitor.link") out.searchParams.set("state", { start: "run", success: "complete", fail: "fail" }[kind]);
  else if (kind !== "success") out.pathname = `${out.pathname.replace(/\/+$/, "")}/${kind}`;
  return out;
}

/** The ping at the end of a run: its summary, to URL on exit 0, else to URL/fail. */
export function endPing(job: string, facts: RunFacts): Delivery {
  const lines = [
    `siteops ${facts.command} (job ${job}): ${exitLine(facts.exitCode)} in ${formatDuration(facts.durationMs)}`,
    sitesLine(facts),
    ...facts.failures.map((f) => (f.site ? `${clean(f.site.name)} (${clean(f.site.id)}): ${clean(f.message)}` : `error: ${clean(f.message)}`)),
  ];
  return { body: capLines(lines, PING_BODY_LIMIT, (n) => `... and ${n} more`), contentType: "text/plain; charset=utf-8" };
}
