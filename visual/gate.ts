// The visual gate of a rollout: each site's pages shot before its pipeline is opened and again after it succeeded,
// compared, and the site judged. The pictures from before are kept in the artifacts folder
// (DIR/<site>/<page>@<viewport>.before.png) as they are taken, so a rerun of a stopped rollout given the same folder
// compares with the pictures taken before the upgrade, not with the upgraded site. One browser serves the whole run;
// `concurrency` pages are shot at a time across every site in flight.

import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ownDir, pageFiles, pageStems, siteFolder, writeArtifact } from "./artifacts.js";
import type { VisualBrowser } from "./browser.js";
import { failingPages, missedDetail, type SiteCheck, type VisualEvidence, type VisualGateReport, type VisualSettings, type VisualSite } from "../src/fleet.js";
import type { VisualRun } from "./model.js";
import { indexReport } from "./report.js";
import { type Before, createLimiter, judgeSite, shootSite, shotKey } from "./site-check.js";

/** A rollout's visual gate, for one run: the core's VisualEvidence (before, hasBefore, after), and its end. */
export interface VisualGate extends VisualEvidence {
  /** Writes the index (DIR/report.html) and DIR/visual.json of the sites judged so far (none judged: nothing is
   * written, `report` is null), and says what the rollout's report, notification and summary name: the pages that
   * failed, each with its site's report. */
  finish(): VisualGateReport;
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
      let first: string | null = null;
      for (const shot of shots) {
        if (shot.capture) writeArtifact(beforeFile(site, shot.stem, shot.viewport.name), shot.capture.png);
        else {
          errors.set(shotKey(shot.stem, shot.viewport.name), shot.error ?? "no picture");
          first ??= missedDetail(shot.path, shot.viewport.name, "before the upgrade", shot.error ?? "no picture");
        }
      }
      missed.set(site.id, errors);
      return first;
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
    finish() {
      const sites = [...judged.values()];
      const failing = sites.flatMap((check) =>
        failingPages(check).map((p) => ({
          site: { id: check.site.id, name: check.site.name },
          path: p.path,
          viewport: p.viewport,
          changed: p.changed,
          detail: p.detail,
          report: path.join(dir, check.report),
        })),
      );
      if (!sites.length) return { report: null, dir, failing };
      run.sites = sites;
      const index = path.join(dir, "report.html");
      writeArtifact(index, indexReport(run));
      writeArtifact(path.join(dir, "visual.json"), `${JSON.stringify(run, null, 2)}\n`);
      return { report: index, dir, failing };
    },
  };
}
