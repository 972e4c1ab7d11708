// The evidence a rollout judges each upgraded site on, one gate at a time: the pipeline's outcome (a rollback is a
// failure), the site's health check taken after the upgrade, HTTP requests to paths of the site itself (a status
// below 400, no WordPress fatal-error page, within a response-time budget), and screenshots of those paths before
// and after, compared (the pictures taken by whoever drives a browser: VisualEvidence, visual-verdict.ts). Each
// gate answers a GateCheck that says why in one phrase; none throws for a site that failed, only for an abort or a
// credential failure. The HTTP gate never reaches a link-local address or a cloud metadata service, and a check
// path stays on the site's origin and under its path (site-requests.ts).

import { refusedHost } from "../../common/addresses.js";
import { APIUserAbortError, PaginationError, WaitTimeoutError } from "../errors.js";
import type { HealthCheck, HealthChecks } from "../resources/health-checks.js";
import type { UpgradePipeline } from "../resources/upgrade-pipelines.js";
import { checkPathProblem, getSite, guardedLookup, type HttpGateLookup, REFUSED_ADDRESS, type SiteAnswer } from "./site-requests.js";
import { formatShare, type PageCheck, type SiteCheck, siteDetail } from "./visual-verdict.js";
import { waitUntil } from "./wait.js";

/** What a rollout may judge a site on. The pipeline's outcome always counts; the others can be left out. */
export type RolloutGate = "pipeline" | "health" | "http" | "visual";
/** Every gate, in the order they are judged. */
export const ROLLOUT_GATES: readonly RolloutGate[] = ["pipeline", "health", "http", "visual"];
/** The gates judged unless the rollout names its own: all but `visual`, which needs a browser on the machine. */
export const DEFAULT_ROLLOUT_GATES: readonly RolloutGate[] = ["pipeline", "health", "http"];

/** One gate's verdict on one site. */
export interface GateCheck {
  gate: RolloutGate;
  ok: boolean;
  /** Why, in one phrase about this site: `pipeline upg_1 was rolled back: ...`, `GET / answered 500 in 35 ms`. */
  detail: string;
  /** Why, in the phrase every site judged alike shares (no ids, times or hosts): `pipeline rolled back: ...`,
   * `GET / answered 500`; what a summary of many sites says once. */
  reason: string;
  /** `http`: the path asked for. */
  path?: string;
  /** `http`: the status answered (null when none came). */
  status?: number | null;
  /** `http`: how long the answer took, in ms. */
  ms?: number;
  /** `visual`: each page in each viewport, compared (its share changed, its verdict, its images). */
  pages?: PageCheck[];
  /** `visual`: the site's HTML report (before | after | diff), relative to the folder the pictures are kept in. */
  report?: string;
}

/** How long an HTTP check may take unless `checkBudgetMs` says otherwise. */
export const DEFAULT_CHECK_BUDGET_MS = 5_000;
/** How much of a page is read to look for a fatal error. */
const BODY_LIMIT = 1 << 20;
/** What a WordPress site shows when PHP fails: WordPress 5.2+'s fatal-error handler (with a 500, or a 200 from a
 * drop-in or a caching layer), older WordPress's, and PHP's own message when display_errors is on. */
export const FATAL_ERROR_MARKERS: readonly string[] = [
  "There has been a critical error on this website",
  "The site is experiencing technical difficulties",
  "<b>Fatal error</b>:",
  "PHP Fatal error:",
];

/** The pipeline gate: succeeded passes; failed, rolled back and any other final state the service names fail. */
export function judgePipeline(pipeline: UpgradePipeline): GateCheck {
  const ok = pipeline.status === "succeeded";
  const why = !ok && pipeline.error ? `: ${pipeline.error}` : "";
  const what = pipeline.status === "rolled_back" ? "rolled back" : pipeline.status;
  return {
    gate: "pipeline",
    ok,
    detail: `pipeline ${pipeline.id} ${pipeline.status === "rolled_back" ? "was rolled back" : what}${why}`,
    reason: `pipeline ${what}${why}`,
  };
}

/** A check's time: `checked_at` (the emulator's), else `created_at`; NaN when it has neither (never evidence). */
function checkedAt(check: HealthCheck): number {
  const raw = (check as { checked_at?: unknown }).checked_at ?? (check as { created_at?: unknown }).created_at;
  return typeof raw === "string" ? Date.parse(raw) : Number.NaN;
}

/** Statuses of a health check that mean healthy: the spec's word for a site, and the emulator's for a check. */
const HEALTHY = new Set(["healthy", "passed"]);

/**
 * The health gate: the newest health check of the site dated at or after `since` (the pipeline's completion),
 * waited for up to `waitMs`; healthy when its status is `healthy` or `passed`, anything else is not. Checks are
 * read from the first `pages` pages (the spec shows no order of the listing).
 */
export async function judgeHealth(
  healthChecks: HealthChecks,
  siteId: string,
  since: string,
  options: { waitMs: number; pollInterval?: number | undefined; signal?: AbortSignal | undefined; pages?: number },
): Promise<GateCheck> {
  const from = Date.parse(since);
  const newest = async (): Promise<HealthCheck | undefined> => {
    let best: HealthCheck | undefined;
    try {
      for await (const check of healthChecks.list(siteId, { per_page: 100 }, { signal: options.signal, maxPages: options.pages ?? 3 })) {
        const at = checkedAt(check);
        if (at >= from && (!best || at > checkedAt(best))) best = check;
      }
    } catch (err) {
      // A long history past `pages`: judged on the checks read.
      if (!(err instanceof PaginationError)) throw err;
    }
    return best;
  };
  try {
    const check = await waitUntil(newest, (c) => c !== undefined, {
      waitTimeout: options.waitMs,
      pollInterval: options.pollInterval,
      signal: options.signal,
      key: (c) => c?.id ?? "",
      describe: () => `no health check of ${siteId} since ${since}`,
    });
    const status = String(check!.status);
    return {
      gate: "health",
      ok: HEALTHY.has(status),
      detail: `health check ${check!.id} after the upgrade: ${status}`,
      reason: `health check after the upgrade: ${status}`,
    };
  } catch (err) {
    if (err instanceof WaitTimeoutError)
      return {
        gate: "health",
        ok: false,
        detail: `no health check since the upgrade (${since}) within the wait`,
        reason: "no health check since the upgrade within the wait",
      };
    throw err;
  }
}

/** Redirects the HTTP gate follows at most (as fetch does). */
const MAX_REDIRECTS = 20;
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * The HTTP gate for one path: GET `path` on the site's own URL (resolved under the site's path, never another
 * origin), with its own HTTP client (not the API client: the site is not the service), following redirects one at
 * a time, each hop's host and each address it resolves to checked (never link-local or a metadata service; a
 * refusal is a failed check, made before any connection to it). Passes with a status below 400, no fatal-error
 * page in the first 1 MB of the body, and an answer within `budgetMs`. Never throws but for the caller's abort.
 */
export async function checkHttp(
  siteUrl: string,
  path: string,
  options: { budgetMs?: number; signal?: AbortSignal | undefined; lookup?: HttpGateLookup | undefined } = {},
): Promise<GateCheck> {
  const budgetMs = options.budgetMs ?? DEFAULT_CHECK_BUDGET_MS;
  const base: Omit<GateCheck, "ok" | "detail" | "reason"> = { gate: "http", path, status: null };
  const problem = checkPathProblem(path);
  if (problem) return { ...base, ok: false, detail: `GET ${path}: the check path ${problem}`, reason: `GET ${path}: the check path ${problem}` };
  let site: URL;
  let url: URL;
  try {
    site = new URL(siteUrl.endsWith("/") ? siteUrl : `${siteUrl}/`);
    url = new URL(path.replace(/^\/+/, ""), site);
  } catch {
    return { ...base, ok: false, detail: `the site's URL ${JSON.stringify(siteUrl)} is not a URL`, reason: "the site's URL is not a URL" };
  }
  if (url.origin !== site.origin || !url.pathname.startsWith(site.pathname))
    return {
      ...base,
      ok: false,
      detail: `GET ${path}: resolves outside the site (${url.origin}${url.pathname})`,
      reason: `GET ${path}: resolves outside the site`,
    };
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), budgetMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timer.signal]) : timer.signal;
  const begin = performance.now();
  const took = () => Math.round(performance.now() - begin);
  const lookup = guardedLookup(options.lookup);
  let answer: SiteAnswer | undefined;
  try {
    for (let hop = 0; ; hop++) {
      const redirected = hop ? ` (redirected to ${url.origin})` : "";
      const refused = refusedHost(url.hostname);
      if (refused)
        return {
          ...base,
          ms: took(),
          ok: false,
          detail: `GET ${path}: refused${redirected}: ${refused}`,
          reason: `GET ${path}: refused${hop ? " (redirected)" : ""}: ${refused}`,
        };
      if (url.protocol !== "http:" && url.protocol !== "https:")
        return {
          ...base,
          ms: took(),
          ok: false,
          detail: `GET ${path}: redirected to a ${url.protocol} URL, not followed`,
          reason: `GET ${path}: redirected to a ${url.protocol} URL, not followed`,
        };
      if (url.username || url.password)
        return {
          ...base,
          ms: took(),
          ok: false,
          detail: `GET ${path}: refused${redirected}: a URL with a user name or password (not sent)`,
          reason: `GET ${path}: refused${redirected}: a URL with a user name or password (not sent)`,
        };
      answer = await getSite(url, lookup, signal);
      if (!REDIRECTS.has(answer.status) || answer.location === undefined) break;
      answer.drop();
      if (hop >= MAX_REDIRECTS)
        return {
          ...base,
          status: answer.status,
          ms: took(),
          ok: false,
          detail: `GET ${path}: more than ${MAX_REDIRECTS} redirects`,
          reason: `GET ${path}: more than ${MAX_REDIRECTS} redirects`,
        };
      url = new URL(answer.location, url);
    }
    const body = await answer.text(BODY_LIMIT);
    const ms = took();
    const fatal = FATAL_ERROR_MARKERS.find((m) => body.includes(m));
    const said = `GET ${path} answered ${answer.status}`;
    const answered = { ...base, status: answer.status, ms };
    if (answer.status >= 400) return { ...answered, ok: false, detail: `${said} in ${ms} ms`, reason: said };
    if (fatal)
      return {
        ...answered,
        ok: false,
        detail: `${said} in ${ms} ms with a fatal-error page ("${fatal}")`,
        reason: `${said} with a fatal-error page ("${fatal}")`,
      };
    if (ms > budgetMs)
      return {
        ...answered,
        ok: false,
        detail: `${said} in ${ms} ms, over the ${budgetMs} ms budget`,
        reason: `GET ${path} answered over the ${budgetMs} ms budget`,
      };
    return { ...answered, ok: true, detail: `${said} in ${ms} ms`, reason: said };
  } catch (err) {
    answer?.drop();
    if (options.signal?.aborted) throw new APIUserAbortError("The rollout was aborted.", { cause: options.signal.reason });
    const none = `GET ${path}: no answer within the ${budgetMs} ms budget`;
    if (timer.signal.aborted) return { ...base, ms: took(), ok: false, detail: none, reason: none };
    const code = (err as { code?: unknown }).code;
    if (code === REFUSED_ADDRESS) {
      const refused = `GET ${path}: refused: ${(err as Error).message}`;
      return { ...base, ms: took(), ok: false, detail: refused, reason: refused };
    }
    const { why, unreachable } = connectionFailure(typeof code === "string" ? code : undefined, (err as Error).message);
    const hint = unreachable
      ? `; where the sites cannot be reached from this machine, judge them without the http gate (gates ${DEFAULT_ROLLOUT_GATES.filter((g) => g !== "http").join(",")})`
      : "";
    return { ...base, ms: took(), ok: false, detail: `GET ${url.href}: ${why}${hint}`, reason: `GET ${path}: ${why}${hint}` };
  } finally {
    clearTimeout(timeout);
  }
}

/** Connection failures by their code: what it means in words, and whether it says the site cannot be reached from
 * here at all (a runner outside the sites' network), not that the site is broken. */
const CONNECTION_FAILURES: Record<string, { why: string; unreachable: boolean }> = {
  ENOTFOUND: { why: "its host name does not resolve from here", unreachable: true },
  EAI_AGAIN: { why: "its host name could not be resolved from here", unreachable: true },
  ECONNREFUSED: { why: "nothing accepts connections at its address", unreachable: true },
  EHOSTUNREACH: { why: "its host cannot be reached from here", unreachable: true },
  ENETUNREACH: { why: "its network cannot be reached from here", unreachable: true },
  UND_ERR_CONNECT_TIMEOUT: { why: "no connection to it within the time allowed", unreachable: true },
  ECONNRESET: { why: "the connection was reset", unreachable: false },
};

function connectionFailure(code: string | undefined, message: string): { why: string; unreachable: boolean } {
  const known = code ? CONNECTION_FAILURES[code] : undefined;
  if (known) return { why: `${known.why} (${code})`, unreachable: known.unreachable };
  return { why: code ?? message, unreachable: false };
}

/** The visual gate's verdict on a site from its pages compared: it fails when any page changed beyond the
 * threshold or could not be compared. `reason` names the first failing page without its share (what every site that
 * broke alike shares). */
export function judgeVisual(check: SiteCheck, threshold: number): GateCheck {
  const first = check.pages.find((p) => p.verdict !== "passed");
  const reason = !first
    ? "no page changed beyond the visual threshold"
    : first.verdict === "failed"
      ? `GET ${first.path} (${first.viewport}) changed beyond the ${formatShare(threshold)} threshold`
      : `GET ${first.path} (${first.viewport}) could not be compared`;
  return { gate: "visual", ok: check.ok, detail: siteDetail(check), reason, pages: check.pages, report: check.report };
}
