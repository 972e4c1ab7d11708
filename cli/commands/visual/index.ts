// `siteops visual capture|compare`: screenshots of sites' pages on demand, outside a rollout (an update made
// elsewhere, a theme change). `capture` takes a baseline of the selected sites' --check-path pages into a folder;
// `compare` takes them again with the baseline's rules, compares, writes before | after | diff and the reports, and
// exits 1 when a page changed beyond --visual-threshold. The engine (visual/) is loaded only when they run.

import { flagList, flagString, type Parsed } from "../../args.js";
import type { Site } from "../../../src/index.js";
import { failingPages, siteDetail } from "../../../src/fleet.js";
import type { Context } from "../../context.js";
import { EXIT, UsageError } from "../../exit-codes.js";
import { createProgress } from "../../output/progress.js";
import { clean } from "../../../common/sanitize.js";
import { defineCommand } from "../../runner.js";
import { SELECTION_FLAGS, selectionOf, selectSites } from "../../sites.js";
import type { LeafSpec } from "../../spec.js";
import {
  loadVisual,
  startBrowser,
  thresholdOf,
  VISUAL_BROWSER_FLAGS,
  VISUAL_RULE_FLAGS,
  VISUAL_THRESHOLD_FLAG,
  visualLimits,
  visualSettings,
} from "../../visual.js";
import { CAPTURE_JSON_FIELDS, captureRecords, COMPARE_JSON_FIELDS, compareRecords, printCaptured, printCompared } from "./records.js";

const DEFAULT_BASELINE = "visual-baseline";
const DEFAULT_COMPARE_OUT = "visual-compare";

const CONCURRENCY_FLAG = { name: "concurrency", short: "c", type: "string" as const, value: "N", description: "pages shot at a time, 1 to 32 (default 4)" };

const capture: LeafSpec = {
  name: "capture",
  summary: "take a baseline: screenshots of the selected sites' pages into a folder",
  description:
    "Shoots each --check-path of each selected site in each --viewport (desktop and mobile by default): the full\n" +
    "page, once the network is quiet, lazy images loaded, web fonts in, animations and carets frozen, each\n" +
    "--visual-ignore selector painted over. Writes DIR/<site>/<page>@<viewport>.png and DIR/visual.json (what was\n" +
    "taken and how: siteops visual compare takes the pages again the same way). Needs Chrome or Chromium on the\n" +
    "machine (--browser) and playwright-core installed beside siteops; no browser is downloaded.\n" +
    "Exit codes: 0 every page taken, 1 a page could not be taken (the others were), 2 usage or no browser.",
  flags: [
    ...SELECTION_FLAGS,
    { name: "check-path", type: "string", multiple: true, value: "PATH", description: "a path of each site's URL to shoot (repeatable; default /)" },
    ...VISUAL_RULE_FLAGS,
    { name: "out", short: "o", type: "string", value: "DIR", description: `the baseline's folder (default ${DEFAULT_BASELINE})` },
    ...VISUAL_BROWSER_FLAGS,
    CONCURRENCY_FLAG,
  ],
  jsonFields: CAPTURE_JSON_FIELDS,
  examples: [
    "siteops visual capture --all --check-path / --check-path /shop --visual-ignore .site-clock --out baseline/",
    "siteops visual capture --site Blog --viewport desktop --browser /usr/bin/chromium",
  ],
  async run(ctx, parsed) {
    const selection = selectionOf(parsed);
    const settings = visualSettings(parsed, flagList(parsed, "check-path"), { concurrency: true });
    const dir = flagString(parsed, "out") ?? DEFAULT_BASELINE;
    const engine = await loadVisual();
    const browser = await startBrowser(ctx, flagString(parsed, "browser"), engine);
    const progress = createProgress(ctx.stderr, ctx.quiet);
    try {
      const sites = await selectSites(await ctx.client(), selection, ctx.signal);
      const manifest = await engine.captureBaseline(sites.map(visualSite), settings, dir, {
        browser,
        signal: ctx.signal,
        onProgress: (event) => {
          if (event.type !== "site.shot") return;
          const missed = event.shots.filter((s) => s.error);
          for (const shot of missed)
            progress.event(
              `${clean(event.site.name)} (${clean(event.site.id)}): GET ${clean(shot.path)} (${shot.viewport.name}): not taken: ${clean(shot.error)}`,
              "error",
            );
          progress.event(`${clean(event.site.name)}: ${event.shots.length - missed.length} of ${event.shots.length} pages taken`);
        },
      });
      progress.close();
      const records = captureRecords(manifest, dir);
      printCaptured(ctx, records, dir);
      return records.some((r) => r.error !== null) ? EXIT.FAILED : EXIT.OK;
    } finally {
      progress.close();
      await browser.close();
    }
  },
};

const compare: LeafSpec = {
  name: "compare",
  summary: "shoot the baseline's pages again, compare, report; exit 1 when a page changed beyond the threshold",
  description:
    "Takes the pages of a baseline (siteops visual capture) again with its rules (paths, viewports, masks), compares\n" +
    "each with its picture in the baseline (a perceptual pixel diff that leaves out anti-aliasing) and writes\n" +
    "DIR/<site>/<page>@<viewport>.before.png, .after.png, .diff.png, each site's report DIR/<site>/report.html\n" +
    "(self-contained: before | after | diff side by side), the index DIR/report.html and DIR/visual.json.\n" +
    "Without a selection, every site of the baseline is compared (no API request); --site, --all, ... narrow it.\n" +
    "Exit codes: 0 every page within --visual-threshold, 1 a page changed beyond it or could not be compared,\n" +
    "2 usage, no browser or no baseline.",
  flags: [
    { name: "baseline", short: "b", type: "string", value: "DIR", description: `the baseline's folder (default ${DEFAULT_BASELINE})` },
    { name: "out", short: "o", type: "string", value: "DIR", description: `where the images and reports go (default ${DEFAULT_COMPARE_OUT})` },
    VISUAL_THRESHOLD_FLAG,
    ...SELECTION_FLAGS.map((f) => ({ ...f, description: `${f.description} (among the baseline's; default: all of them)` })),
    ...VISUAL_BROWSER_FLAGS,
    CONCURRENCY_FLAG,
  ],
  jsonFields: COMPARE_JSON_FIELDS,
  examples: ["siteops visual compare --baseline baseline/ --out compare/", "siteops visual compare --baseline baseline/ --site Blog --visual-threshold 0.5"],
  async run(ctx, parsed) {
    const baselineDir = flagString(parsed, "baseline") ?? DEFAULT_BASELINE;
    const out = flagString(parsed, "out") ?? DEFAULT_COMPARE_OUT;
    const limits = { threshold: thresholdOf(parsed), ...visualLimits(parsed, { concurrency: true }) };
    const engine = await loadVisual();
    const baseline = readBaselineOrExit(engine, baselineDir);
    const browser = await startBrowser(ctx, flagString(parsed, "browser"), engine);
    const progress = createProgress(ctx.stderr, ctx.quiet);
    try {
      const siteIds = await narrowed(ctx, parsed, baseline.sites);
      const run = await engine.compareToBaseline(baselineDir, out, limits, {
        browser,
        siteIds,
        signal: ctx.signal,
        onProgress: (event) => {
          if (event.type !== "site.judged") return;
          const { check } = event;
          const name = `${clean(check.site.name)} (${clean(check.site.id)})`;
          if (check.ok) progress.event(`${name}: passed: ${clean(siteDetail(check))}`);
          else for (const page of failingPages(check)) progress.event(`${name}: ${clean(page.detail)}`, "error");
        },
      });
      progress.close();
      const records = compareRecords(run, out);
      printCompared(ctx, records, run, out);
      return run.sites.every((s) => s.ok) ? EXIT.OK : EXIT.FAILED;
    } finally {
      progress.close();
      await browser.close();
    }
  },
};

type Engine = Awaited<ReturnType<typeof loadVisual>>;

function readBaselineOrExit(engine: Engine, dir: string) {
  try {
    return engine.readBaseline(dir);
  } catch (err) {
    if (err instanceof engine.BaselineError) throw new UsageError(`--baseline: ${err.message}`);
    throw err;
  }
}

/** The baseline's sites a selection names (undefined: no selection, all of them); a selected site without a
 * baseline is a usage error, before anything is shot. */
async function narrowed(ctx: Context, parsed: Parsed, baseline: readonly { id: string }[]): Promise<string[] | undefined> {
  const given = SELECTION_FLAGS.some((f) => parsed.flags[f.name] !== undefined);
  if (!given) return undefined;
  const sites = await selectSites(await ctx.client(), selectionOf(parsed), ctx.signal);
  const known = new Set(baseline.map((s) => s.id));
  const missing = sites.filter((s) => !known.has(s.id));
  if (missing.length)
    throw new UsageError(
      `no baseline of ${missing
        .slice(0, 3)
        .map((s) => `${clean(s.name)} (${clean(s.id)})`)
        .join(", ")}${missing.length > 3 ? ` and ${missing.length - 3} more` : ""}: take one with siteops visual capture`,
    );
  return sites.map((s) => s.id);
}

const visualSite = (site: Site) => ({ id: site.id, name: site.name, url: site.url });

export default defineCommand({
  name: "visual",
  summary: "screenshots of sites' pages: take a baseline, compare with it later",
  subcommands: [capture, compare],
});
