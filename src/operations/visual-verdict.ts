// A visual check's verdict, as data: per page (a path in a viewport) and per site, with one phrase each that says
// why, and the share of changed pixels as people read it. A rollout's visual gate takes its pictures through
// VisualEvidence, which a part that drives a browser gives it (the CLI's and the action's: visual/gate.ts): the core
// drives no browser and compares no pixels.

import type { Site } from "../resources/sites.js";

/** Whether a page passes: its change at or below the threshold (both in percent). */
export function passes(changed: number, threshold: number): boolean {
  return changed <= threshold;
}

/** A share in percent as people read it: `0 %`, `0.004 %`, `0.35 %`, `12.4 %`. */
export function formatShare(changed: number): string {
  if (changed === 0) return "0 %";
  if (changed < 0.01) return `${Number(changed.toPrecision(1))} %`;
  if (changed < 10) return `${Number(changed.toFixed(2))} %`;
  return `${Number(changed.toFixed(1))} %`;
}

/** The site as the visual check names it (a Site of the core has these). */
export interface VisualSite {
  id: string;
  name: string;
  url: string;
}

/** `passed`: changed no more than the threshold; `failed`: more; `error`: a shot could not be taken, so nothing
 * says the page is unchanged (a failure of the gate too). */
export type PageVerdict = "passed" | "failed" | "error";

/** One page in one viewport, compared. */
export interface PageCheck {
  path: string;
  viewport: string;
  verdict: PageVerdict;
  /** The share of changed pixels, in percent (null when it could not be compared). */
  changed: number | null;
  /** `GET /shop (mobile): 12.4 % changed, over the 1 % threshold`. */
  detail: string;
  /** The images, relative to the artifacts folder (absent when not taken). */
  files: { before?: string; after?: string; diff?: string };
  /** The pictures' sizes (width x height), when taken. */
  sizes: { before?: [number, number]; after?: [number, number] };
}

/** One site's pages. */
export interface SiteCheck {
  site: VisualSite;
  /** Failed when any page failed or could not be compared. */
  ok: boolean;
  pages: PageCheck[];
  /** The site's HTML report, relative to the artifacts folder. */
  report: string;
}

/** The phrase of a compared page. */
export function pageDetail(path: string, viewport: string, changed: number, threshold: number): string {
  const share = `${formatShare(changed)} changed`;
  return `GET ${path} (${viewport}): ${passes(changed, threshold) ? share : `${share}, over the ${formatShare(threshold)} threshold`}`;
}

/** The phrase of a page that could not be captured: `GET / (desktop): not captured after the upgrade: ...`. */
export function missedDetail(path: string, viewport: string, when: string, why: string): string {
  return `GET ${path} (${viewport}): not captured ${when}: ${why}`;
}

/** The pages that failed or could not be compared, in order. */
export function failingPages(site: SiteCheck): PageCheck[] {
  return site.pages.filter((p) => p.verdict !== "passed");
}

/** Failing pages a site's phrase names; the rest are counted. */
const PAGES_NAMED = 3;

/** One phrase for a site: its failing pages' (the first three, and how many more), or that every page passed. */
export function siteDetail(site: SiteCheck): string {
  const failing = failingPages(site);
  if (!failing.length) {
    const most = Math.max(0, ...site.pages.map((p) => p.changed ?? 0));
    return `${site.pages.length} page${site.pages.length === 1 ? "" : "s"} compared, at most ${formatShare(most)} changed`;
  }
  const more = failing.length - PAGES_NAMED;
  const named = failing
    .slice(0, PAGES_NAMED)
    .map((p) => p.detail)
    .join("; ");
  return `${named}${more > 0 ? ` (and ${more} more page${more === 1 ? "" : "s"})` : ""}`;
}

/** A page that failed a rollout's visual gate, as its report, notification and job summary name it. */
export interface FailingPage {
  site: { id: string; name: string };
  path: string;
  viewport: string;
  /** The share changed, in percent (null: it could not be compared). */
  changed: number | null;
  detail: string;
  /** The site's HTML report (before | after | diff), a path. */
  report: string;
}

/** What a rollout's report says of its visual gate: the index report (null when no site was judged), the folder of
 * the pictures and reports, and each page that failed. */
export interface VisualGateReport {
  report: string | null;
  dir: string;
  failing: FailingPage[];
}

/** The gate's end in a phrase: `2 pages failed`, or that none changed beyond the threshold. */
export function visualGateLine(report: VisualGateReport): string {
  const n = report.failing.length;
  return n ? `${n} page${n === 1 ? "" : "s"} failed` : "no page changed beyond the threshold";
}

/**
 * The pictures a rollout's `visual` gate judges a site on, taken by whoever drives a browser: the site's pages shot
 * before its pipeline is opened ({@link VisualEvidence.before}) and again after it succeeded
 * ({@link VisualEvidence.after}), compared. The `siteops` CLI and the GitHub Action give one (visual/gate.ts).
 */
export interface VisualEvidence {
  /** Shoots the site's pages before its upgrade: resolves with the phrase of the first page that could not be shot
   * (`GET / (desktop): not captured before the upgrade: ...`), or null when every page was. Throws only for an
   * abort. */
  before(site: Site, signal?: AbortSignal): Promise<string | null>;
  /** Whether pictures from before the upgrade are at hand for the site (this run's, or an earlier run's kept). */
  hasBefore(site: Site): boolean;
  /** Shoots the pages again, compares each with its picture from before: the site's check. Throws only for an
   * abort. */
  after(site: Site, signal?: AbortSignal): Promise<SiteCheck>;
}
