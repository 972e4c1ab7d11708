// A site's pages shot (each path in each viewport) and, given earlier shots, judged: each page compared, its
// images and the site's report written. What the capture and compare commands and the rollout's gate share.

import path from "node:path";
import type { VisualBrowser } from "./browser.js";
import { type Capture, capturePage, pageUrl } from "./capture.js";
import { comparePngs } from "./compare.js";
import { ownDir, pageFiles, pageStems, siteFolder, writeArtifact } from "./artifacts.js";
import { missedDetail, type PageCheck, pageDetail, passes, type SiteCheck, type Viewport, type VisualSettings, type VisualSite } from "../src/fleet.js";
import type { VisualRun } from "./model.js";
import { siteReport } from "./report.js";

/** One page in one viewport, as shot (or why not). */
export interface Shot {
  path: string;
  viewport: Viewport;
  /** The file stem of the path (artifacts.ts). */
  stem: string;
  capture?: Capture;
  /** Why it was not taken, in one phrase. */
  error?: string;
}

/** At most `n` tasks at a time across every caller (pages of sites in flight together share the browser). */
export function createLimiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

/** The key of a page in a viewport among a site's shots. */
export const shotKey = (stem: string, viewport: string): string => `${stem}@${viewport}`;

/** A failure as one phrase: the first line of playwright's message, without its call log and the call it names
 * (`page.goto: `). */
function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return (text.split("\n").find((l) => l.trim() !== "") ?? text).replace(/^[a-zA-Z]+\.[a-zA-Z.]+: /, "").trim();
}

/** Shoots every path of `site` in every viewport, `limit` deciding how many at a time. Never throws for a page
 * (its shot carries the error); throws only when `signal` aborted. */
export async function shootSite(
  browser: VisualBrowser,
  site: VisualSite,
  settings: VisualSettings,
  limit: <T>(task: () => Promise<T>) => Promise<T>,
  signal?: AbortSignal,
): Promise<Shot[]> {
  const stems = pageStems(settings.paths);
  const jobs = settings.paths.flatMap((p, i) => settings.viewports.map((viewport) => ({ path: p, viewport, stem: stems[i]! })));
  return Promise.all(
    jobs.map((job) =>
      limit(async (): Promise<Shot> => {
        signal?.throwIfAborted();
        try {
          const capture = await capturePage(browser, pageUrl(site.url, job.path), {
            viewport: job.viewport,
            ignore: settings.ignore,
            timeoutMs: settings.timeoutMs,
            signal,
          });
          return { ...job, capture };
        } catch (err) {
          signal?.throwIfAborted();
          return { ...job, error: firstLine(err) };
        }
      }),
    ),
  );
}

/** What a page looked like before: its picture, or why there is none. */
export interface Before {
  png?: Buffer;
  error?: string;
}

/**
 * Judges a site: each shot after compared with its picture before (`before`, by shotKey); the images written
 * under `dir` (before too when `writeBefore`: a baseline kept elsewhere), and the site's report. A page with no
 * picture on either side is an `error`, not a pass.
 */
export function judgeSite(
  run: VisualRun,
  site: VisualSite,
  before: ReadonlyMap<string, Before>,
  after: readonly Shot[],
  dir: string,
  options: { threshold: number; writeBefore: boolean; when: { before: string; after: string } },
): SiteCheck {
  ownDir(path.join(dir, siteFolder(site.id)));
  const images = new Map<string, Buffer>();
  const put = (file: string, data: Buffer): string => {
    writeArtifact(path.join(dir, file), data);
    images.set(file, data);
    return file;
  };
  const pages = after.map((shot): PageCheck => {
    const files = pageFiles(site.id, shot.stem, shot.viewport.name);
    const was = before.get(shotKey(shot.stem, shot.viewport.name));
    const check: PageCheck = { path: shot.path, viewport: shot.viewport.name, verdict: "error", changed: null, detail: "", files: {}, sizes: {} };
    if (was?.png) {
      check.files.before = options.writeBefore ? put(files.before, was.png) : files.before;
      images.set(files.before, was.png);
      check.sizes.before = [was.png.readUInt32BE(16), was.png.readUInt32BE(20)];
    }
    if (shot.capture) {
      check.files.after = put(files.after, shot.capture.png);
      check.sizes.after = [shot.capture.width, shot.capture.height];
    }
    if (!was?.png) check.detail = missedDetail(shot.path, shot.viewport.name, options.when.before, was?.error ?? "no picture");
    else if (!shot.capture) check.detail = missedDetail(shot.path, shot.viewport.name, options.when.after, shot.error ?? "no picture");
    else {
      const comparison = comparePngs(was.png, shot.capture.png);
      check.changed = comparison.changed;
      check.verdict = passes(comparison.changed, options.threshold) ? "passed" : "failed";
      check.detail = pageDetail(shot.path, shot.viewport.name, comparison.changed, options.threshold);
      check.files.diff = put(files.diff, comparison.diff);
    }
    return check;
  });
  const result: SiteCheck = {
    site: { id: site.id, name: site.name, url: site.url },
    ok: pages.every((p) => p.verdict === "passed"),
    pages,
    report: path.posix.join(siteFolder(site.id), "report.html"),
  };
  writeArtifact(
    path.join(dir, result.report),
    siteReport(run, result, (file) => images.get(file)),
  );
  return result;
}
