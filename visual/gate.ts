// The visual gate of a rollout: each site's pages shot before its pipeline is opened and again after it succeeded,
// compared, and the site judged. The pictures from before are kept in the artifacts folder
// (DIR/<site>/<page>@<viewport>.before.png) as they are taken, so a rerun of a stopped rollout given the same folder
// compares with the pictures taken before the upgrade, not with the upgraded site. One browser serves the whole run;
// `concurrency` pages are shot at a time across every site in flight.

import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ownDir, pageFiles, pageStems, siteFolder, writeArtifact } from "./artifacts.js";
import type { VisualBrowser } from "./browser.js";
import type { SiteCheck, VisualSettings, VisualSite } from "../src/fleet.js";
import type { VisualRun } from "./model.js";
import { indexReport } from "./report.js";
import { type Before, createLimiter, judgeSite, shootSite, shotKey } from "./site-check.js";

/** A rollout's visual gate, for one run. */
export interface VisualGate {
  /** Shoots the site's pages before its upgrade; a page that cannot be shot is remembered with why. Throws only
   * for an abort. */
  before(site: VisualSite, signal?: AbortSignal): Promise<void>;
  /** Whether pictures from before the upgrade are at hand for the site (taken by this run, or by an earlier run
   * into the same folder). */
  hasBefore(site: VisualSite): boolean;
  /** Shoots the pages again, compares each with its picture from before, writes after, diff and the site's report:
   * the site's check. Throws only for an abort. */
  after(site: VisualSite, signal?: AbortSignal): Promise<SiteCheck>;
  /** Writes the index (DIR/report.html) and DIR/visual.json of the sites judged so far; returns the index's path. */
  writeIndex(): string;
  readonly dir: string;
}

/** The gate over `browser`, writing into `dir` (made when missing). */
export function createVisualGate(browser: VisualBrowser, settings: VisualSettings, dir: string): VisualGate {
  ownDir(dir);
  const limit = createLimiter(settings.concurrency);
  const stems = pageStems(settings.paths);
  const missed = new Map<string, Map<string, string>>();
  const judged = new Map<string, SiteCheck>();
  const run: VisualRun = {
    kind: "rollout",
    startedAt: new Date().toISOString(),
    browser: browser.version,
    settings: { paths: settings.paths, viewports: settings.viewports, ignore: settings.ignore, threshold: settings.threshold },
    sites: [],
  };
  const beforeFile = (site: VisualSite, stem: string, viewport: string) => path.join(dir, pageFiles(site.id, stem, viewport).before);
  const each = <T>(fn: (stem: string, viewport: string) => T): T[] => stems.flatMap((stem) => settings.viewports.map((v) => fn(stem, v.name)));

  return {
    dir,
    async before(site, signal) {
      const shots = await shootSite(browser, site, settings, limit, signal);
      ownDir(path.join(dir, siteFolder(site.id)));
      const errors = new Map<string, string>();
      for (const shot of shots) {
        if (shot.capture) writeArtifact(beforeFile(site, shot.stem, shot.viewport.name), shot.capture.png);
        else errors.set(shotKey(shot.stem, shot.viewport.name), shot.error ?? "no picture");
      }
      missed.set(site.id, errors);
    },
    hasBefore(site) {
      return each((stem, viewport) => existsSync(beforeFile(site, stem, viewport))).some(Boolean);
    },
    async after(site, signal) {
      const after = await shootSite(browser, site, settings, limit, signal);
      const before = new Map<string, Before>();
      for (const [key, file] of each((stem, viewport) => [shotKey(stem, viewport), beforeFile(site, stem, viewport)] as const)) {
        const why = missed.get(site.id)?.get(key);
        before.set(key, existsSync(file) && why === undefined ? { png: readFileSync(file) } : { error: why ?? "no picture was taken before its upgrade" });
      }
      const check = judgeSite(run, site, before, after, dir, {
        threshold: settings.threshold,
        writeBefore: false,
        when: { before: "before the upgrade", after: "after the upgrade" },
      });
      judged.set(site.id, check);
      return check;
    },
    writeIndex() {
      run.sites = [...judged.values()];
      const index = path.join(dir, "report.html");
      writeArtifact(index, indexReport(run));
      writeArtifact(path.join(dir, "visual.json"), `${JSON.stringify(run, null, 2)}\n`);
      return index;
    },
  };
}
