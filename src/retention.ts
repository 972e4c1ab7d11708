// Which snapshots of a site a retention policy keeps, decided the way restic's `forget` decides it: newest
// first, each --keep-* rule keeps the newest snapshot of each of its last N periods (hours, days, ISO weeks,
// months, years; "last" counts snapshots), a rule with periods left over also keeps the oldest snapshot,
// and every kept snapshot says which rules kept it. On top of restic, for a service whose snapshots run and
// fail: a snapshot still running is never deleted, and a failed one counts for no rule. Every rule keeps the
// newest completed snapshot (it opens every period, and keepWithin is measured from it), so a site is never
// left without one. Pure: `siteops snapshot prune` and `so.operations.pruneSnapshots` decide with this, then
// delete.

import { SiteOpsError } from "./errors.js";

/** Counts per rule; -1 keeps every period ("unlimited"). Absent or 0: the rule is off. */
export interface RetentionPolicy {
  keepLast?: number;
  keepHourly?: number;
  keepDaily?: number;
  keepWeekly?: number;
  keepMonthly?: number;
  keepYearly?: number;
  /** Keep every snapshot made less than this long before the site's newest completed one (restic's
   * --keep-within; the CLI's --older-than). `label` is how reasons name it ("30d"). */
  keepWithin?: { ms: number; label: string };
}

/** What the policy reads of a snapshot. */
export interface RetentionCandidate {
  id: string;
  status: string;
  created_at: string;
}

export interface RetentionDecision<T extends RetentionCandidate> {
  snapshot: T;
  keep: boolean;
  /** Why it is kept ("daily snapshot", "still running", ...) or deleted ("failed", "no rule keeps it"). */
  reasons: string[];
}

export interface RetentionOptions {
  /** Calendar periods in this zone: "local" (the process's TZ, as restic does) or "utc". Default "local". */
  timeZone?: "local" | "utc";
}

export class RetentionPolicyError extends SiteOpsError {
  override readonly code: string = "INVALID_RETENTION_POLICY";
}

type Bucket = (parts: DateParts, index: number) => number;
interface DateParts {
  year: number;
  month: number;
  day: number;
  hour: number;
}

const RULES: { key: keyof Omit<RetentionPolicy, "keepWithin">; reason: string; bucket: Bucket }[] = [
  { key: "keepLast", reason: "last snapshot", bucket: (_, index) => index },
  { key: "keepHourly", reason: "hourly snapshot", bucket: (d) => ((d.year * 100 + d.month) * 100 + d.day) * 100 + d.hour },
  { key: "keepDaily", reason: "daily snapshot", bucket: (d) => (d.year * 100 + d.month) * 100 + d.day },
  { key: "keepWeekly", reason: "weekly snapshot", bucket: isoWeek },
  { key: "keepMonthly", reason: "monthly snapshot", bucket: (d) => d.year * 100 + d.month },
  { key: "keepYearly", reason: "yearly snapshot", bucket: (d) => d.year },
];

const RUNNING = new Set(["requested", "in_progress"]);

/** True when no rule is set: applying it would delete everything, so callers refuse it. */
export function isEmptyPolicy(policy: RetentionPolicy): boolean {
  return RULES.every((r) => !policy[r.key]) && !policy.keepWithin;
}

/**
 * Decides, for every snapshot of one site, whether the policy keeps it. Returns the decisions newest first.
 * Throws RetentionPolicyError for an empty policy or a negative count other than -1.
 */
export function applyRetention<T extends RetentionCandidate>(
  snapshots: readonly T[],
  policy: RetentionPolicy,
  options: RetentionOptions = {},
): RetentionDecision<T>[] {
  for (const rule of RULES) {
    const n = policy[rule.key];
    if (n !== undefined && (!Number.isInteger(n) || n < -1)) throw new RetentionPolicyError(`${rule.key} must be a whole number >= 0, or -1 for unlimited`);
  }
  if (isEmptyPolicy(policy)) throw new RetentionPolicyError("the retention policy keeps nothing: give at least one keep rule");
  const utc = options.timeZone === "utc";
  const decisions = snapshots
    .map((snapshot, order) => ({ snapshot, order, time: Date.parse(snapshot.created_at) }))
    .sort((a, b) => b.time - a.time || a.order - b.order)
    .map(({ snapshot, time }): RetentionDecision<T> & { time: number } => ({ snapshot, time, keep: false, reasons: [] }));

  const completed = decisions.filter((d) => d.snapshot.status === "completed");
  const newest = completed[0]?.time;
  const within = policy.keepWithin && newest !== undefined ? newest - policy.keepWithin.ms : undefined;

  const counters = RULES.map((rule) => ({ ...rule, left: policy[rule.key] ?? 0, last: Number.NaN, reason: rule.reason }));
  completed.forEach((decision, index) => {
    const parts = dateParts(decision.time, utc);
    for (const counter of counters) {
      if (counter.left === 0) continue;
      const value = counter.bucket(parts, index);
      const oldest = index === completed.length - 1;
      // As restic: a rule with periods left also keeps the oldest snapshot, for the longest history.
      if (value !== counter.last || oldest) {
        decision.keep = true;
        decision.reasons.push(value === counter.last ? `oldest ${counter.reason}` : counter.reason);
        counter.last = value;
        if (counter.left > 0) counter.left--;
      }
    }
  });

  for (const decision of decisions) {
    const status = decision.snapshot.status;
    if (within !== undefined && decision.time > within) {
      decision.keep = true;
      decision.reasons.unshift(`within ${policy.keepWithin!.label}`);
    }
    if (RUNNING.has(status) || (status !== "completed" && status !== "failed")) {
      decision.keep = true;
      decision.reasons = [RUNNING.has(status) ? "still running" : `status ${status}`];
    } else if (status === "failed" && !decision.keep) {
      decision.reasons = ["failed"];
    } else if (!decision.keep) {
      decision.reasons = ["no rule keeps it"];
    }
  }
  return decisions.map(({ snapshot, keep, reasons }) => ({ snapshot, keep, reasons }));
}

function dateParts(ms: number, utc: boolean): DateParts {
  const d = new Date(ms);
  return utc
    ? { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours() }
    : { year: d.getFullYear(), month: d.getMonth() + 1, day: d.getDate(), hour: d.getHours() };
}

/** YYYYWW of the ISO 8601 week (weeks start on Monday; week 1 holds the year's first Thursday). */
function isoWeek(d: DateParts): number {
  const date = new Date(Date.UTC(d.year, d.month - 1, d.day));
  const weekday = date.getUTCDay() || 7;
  date.setUTCDate(date.getUTCDate() + 4 - weekday); // the Thursday of this week decides its year
  const year = date.getUTCFullYear();
  const week = Math.floor((date.getTime() - Date.UTC(year, 0, 1)) / 86_400_000 / 7) + 1;
  return year * 100 + week;
}
