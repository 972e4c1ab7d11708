// What a visual check found, as data: per page (a path in a viewport) and per site, with one phrase each that says
// why. The reports (report.ts), the CLI's output and the rollout's gate all read these; none of them judges again.

import { formatShare, passes } from "./share.js";
import type { Viewport } from "./settings.js";

/** What to capture and how to judge it. */
export interface VisualSettings {
  /** Paths of each site's URL. */
  paths: readonly string[];
  viewports: readonly Viewport[];
  /** CSS selectors masked in every shot. */
  ignore: readonly string[];
  /** The share of a page that may change, in percent. */
  threshold: number;
  /** One page's time, load to picture, in ms. */
  timeoutMs: number;
  /** Pages captured at a time. */
  concurrency: number;
}

/** The site as the visual check names it (a Site of the core has these). */
export interface VisualSite {
  id: string;
  name: string;
  url: string;
}

/** `passed`: changed no more than the threshold; `failed`: more; `error`: a shot could not be taken, so nothing
 * says the page is unchanged (a failure of the gate too). */
type PageVerdict = "passed" | "failed" | "error";

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

/** A whole run: what the index report and visual.json show. */
export interface VisualRun {
  /** `compare` (against a baseline) or `rollout` (before and after each site's upgrade). */
  kind: "compare" | "rollout";
  startedAt: string;
  browser: string;
  settings: Omit<VisualSettings, "concurrency" | "timeoutMs">;
  sites: SiteCheck[];
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

/** One phrase for a site: its first failing page's, and how many more failed; or that every page passed. */
export function siteDetail(site: SiteCheck): string {
  const failing = failingPages(site);
  if (!failing.length) {
    const most = Math.max(0, ...site.pages.map((p) => p.changed ?? 0));
    return `${site.pages.length} page${site.pages.length === 1 ? "" : "s"} compared, at most ${formatShare(most)} changed`;
  }
  const more = failing.length - 1;
  return `${failing[0]!.detail}${more ? ` (and ${more} more page${more === 1 ? "" : "s"})` : ""}`;
}
