// Visual checks on demand (`siteops visual capture|compare`): a baseline of sites' pages taken into a folder, with a
// manifest of what was taken and how (visual.json); later the same pages taken again with the same rules (paths,
// viewports, masks: the baseline's, so both shots are alike but for the sites), compared, and reported.

import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { VisualBrowser } from "./browser.js";
import { ownDir, pageFiles, pageStems, siteFolder, writeArtifact } from "./artifacts.js";
import type { SiteCheck, Viewport, VisualSettings, VisualSite } from "../src/fleet.js";
import type { VisualRun } from "./model.js";
import { indexReport } from "./report.js";
import { type Before, createLimiter, judgeSite, type Shot, shootSite, shotKey } from "./site-check.js";

/** The manifest's file name in a baseline or a comparison folder. */
const MANIFEST = "visual.json";

/** A baseline's manifest: what was captured, how, and each page's picture or why there is none. */
export interface BaselineManifest {
  version: 1;
  kind: "baseline";
  captured_at: string;
  browser: string;
  paths: string[];
  viewports: Viewport[];
  ignore: string[];
  sites: {
    id: string;
    name: string;
    url: string;
    pages: { path: string; viewport: string; file: string | null; size: [number, number] | null; status: number | null; error: string | null }[];
  }[];
}

/** A baseline folder that cannot be read: `message` says which and why. */
export class BaselineError extends Error {
  override readonly name = "BaselineError";
}

/** Progress of a capture or comparison: a site's shots taken (and, comparing, judged). */
export type VisualProgress = { type: "site.shot"; site: VisualSite; shots: readonly Shot[] } | { type: "site.judged"; check: SiteCheck };

interface RunOptions {
  browser: VisualBrowser;
  signal?: AbortSignal | undefined;
  onProgress?: (event: VisualProgress) => void;
}

/** Takes a baseline of `sites` into `dir`: each page's picture and the manifest. Resolves with the manifest; a page
 * that could not be taken is in it with its error. */
export async function captureBaseline(sites: readonly VisualSite[], settings: VisualSettings, dir: string, options: RunOptions): Promise<BaselineManifest> {
  ownDir(dir);
  const limit = createLimiter(settings.concurrency);
  const capturedAt = new Date().toISOString();
  const entries = await Promise.all(
    sites.map(async (site) => {
      const shots = await shootSite(options.browser, site, settings, limit, options.signal);
      ownDir(path.join(dir, siteFolder(site.id)));
      const pages = shots.map((shot) => {
        const file = pageFiles(site.id, shot.stem, shot.viewport.name).baseline;
        if (shot.capture) writeArtifact(path.join(dir, file), shot.capture.png);
        return {
          path: shot.path,
          viewport: shot.viewport.name,
          file: shot.capture ? file : null,
          size: shot.capture ? ([shot.capture.width, shot.capture.height] as [number, number]) : null,
          status: shot.capture?.status ?? null,
          error: shot.error ?? null,
        };
      });
      options.onProgress?.({ type: "site.shot", site, shots });
      return { id: site.id, name: site.name, url: site.url, pages };
    }),
  );
  const manifest: BaselineManifest = {
    version: 1,
    kind: "baseline",
    captured_at: capturedAt,
    browser: options.browser.version,
    paths: [...settings.paths],
    viewports: [...settings.viewports],
    ignore: [...settings.ignore],
    sites: entries,
  };
  writeArtifact(path.join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");

/** The baseline in `dir`, checked enough to be used: its rules and sites. */
export function readBaseline(dir: string): BaselineManifest {
  const file = path.join(dir, MANIFEST);
  if (!existsSync(file)) throw new BaselineError(`${dir} holds no baseline (no ${MANIFEST}): take one with siteops visual capture --out ${dir}`);
  let doc: Partial<BaselineManifest>;
  try {
    doc = JSON.parse(readFileSync(file, "utf8")) as Partial<BaselineManifest>;
  } catch (err) {
    throw new BaselineError(`${file} is not JSON (${(err as Error).message})`);
  }
  const viewportsOk =
    Array.isArray(doc.viewports) &&
    doc.viewports.every((v) => v && typeof v.name === "string" && Number.isInteger(v.width) && Number.isInteger(v.height) && typeof v.mobile === "boolean");
  const sitesOk =
    Array.isArray(doc.sites) &&
    doc.sites.every((s) => s && typeof s.id === "string" && typeof s.name === "string" && typeof s.url === "string" && Array.isArray(s.pages));
  if (doc.version !== 1 || doc.kind !== "baseline" || !isStrings(doc.paths) || !isStrings(doc.ignore) || !viewportsOk || !sitesOk)
    throw new BaselineError(`${file} is not a baseline of siteops visual capture (version 1): take it again`);
  return doc as BaselineManifest;
}

/**
 * Takes the baseline's sites (or those of `siteIds`) again with its rules, compares each page with its picture in
 * the baseline, and writes before, after, diff, each site's report, the index (report.html) and the results
 * (visual.json) into `outDir`. Resolves with the run; a site fails when any page changed beyond `threshold` or
 * could not be compared.
 */
export async function compareToBaseline(
  baselineDir: string,
  outDir: string,
  limits: Pick<VisualSettings, "threshold" | "timeoutMs" | "concurrency">,
  options: RunOptions & { siteIds?: readonly string[] | undefined },
): Promise<VisualRun> {
  const baseline = readBaseline(baselineDir);
  if (path.resolve(baselineDir) === path.resolve(outDir)) throw new BaselineError("the comparison's folder must not be the baseline's: give another --out");
  const settings: VisualSettings = { paths: baseline.paths, viewports: baseline.viewports, ignore: baseline.ignore, ...limits };
  const wanted = options.siteIds ? new Set(options.siteIds) : undefined;
  const sites = baseline.sites.filter((s) => !wanted || wanted.has(s.id));
  ownDir(outDir);
  const run: VisualRun = {
    kind: "compare",
    startedAt: new Date().toISOString(),
    browser: options.browser.version,
    settings: { paths: settings.paths, viewports: settings.viewports, ignore: settings.ignore, threshold: settings.threshold },
    sites: [],
  };
  const stems = pageStems(baseline.paths);
  const limit = createLimiter(settings.concurrency);
  const checks = await Promise.all(
    sites.map(async (site) => {
      const after = await shootSite(options.browser, site, settings, limit, options.signal);
      options.onProgress?.({ type: "site.shot", site, shots: after });
      const before = new Map<string, Before>();
      for (const [i, p] of baseline.paths.entries())
        for (const v of baseline.viewports) {
          const entry = site.pages.find((page) => page.path === p && page.viewport === v.name);
          // The file's name is made again from the rules, never taken from the manifest: a manifest cannot make
          // the comparison read outside the baseline's folder.
          const file = path.join(baselineDir, pageFiles(site.id, stems[i]!, v.name).baseline);
          before.set(
            shotKey(stems[i]!, v.name),
            entry?.file && existsSync(file) ? { png: readFileSync(file) } : { error: entry?.error ?? "not in the baseline" },
          );
        }
      const check = judgeSite(run, site, before, after, outDir, {
        threshold: settings.threshold,
        writeBefore: true,
        when: { before: `in the baseline (${baseline.captured_at})`, after: "now" },
      });
      options.onProgress?.({ type: "site.judged", check });
      return check;
    }),
  );
  run.sites = checks;
  writeArtifact(path.join(outDir, "report.html"), indexReport(run));
  writeArtifact(path.join(outDir, MANIFEST), `${JSON.stringify(run, null, 2)}\n`);
  return run;
}
