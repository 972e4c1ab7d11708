// The visual check's noise and sensitivity, measured in Chromium on the themed stand-ins (issue 50 item 4):
// unchanged pages (web fonts answered late, lazy images, CSS animations and a transition, a focused input, a clock
// masked by its selector) shot again and again differ by nothing: 0 failures in 20 comparisons (50 with
// VISUAL_NOISE_RETAKES=5, BENCHMARKS.md's figure), and 0 % changed
// in each; the same pages with the clock unmasked do differ (the measure is not blind). Each breakage an upgrade
// brings is seen in both viewports at the default threshold: a stylesheet dropped, a block moved by 2 % of the
// page's height, a hero image gone; a footer naming the new version stays under it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, type VisualBrowser } from "../../visual/browser.js";
import { type Capture, capturePage } from "../../visual/capture.js";
import { comparePngs } from "../../visual/compare.js";
import { DEFAULT_VIEWPORTS, DEFAULT_VISUAL_THRESHOLD, passes, type Viewport } from "../../src/fleet.js";
import { createLimiter } from "../../visual/site-check.js";
import { CHROMIUM, haveChromium } from "../support/chromium.js";
import { startWordPressSites, type WordPressSites } from "../support/wordpress-sites.js";
import { CLOCK_SELECTOR, type WordPressLook } from "../support/wordpress-theme.js";

const SITES = 5;
/** Per page and viewport: 5 sites x 2 viewports x 2 = 20 comparisons in npm test; VISUAL_NOISE_RETAKES=5 makes the 50
 * BENCHMARKS.md reports (minutes of Chromium on two cores, so not in every run). */
const RETAKES = Number(process.env.VISUAL_NOISE_RETAKES ?? 2);
const TIMEOUT_MS = 120_000; // the machine is shared: a page's time is not what is measured here

describe.runIf(haveChromium("test/visual"))("noise and sensitivity of the visual check (Chromium)", () => {
  let browser: VisualBrowser;
  let sites: WordPressSites;
  const limit = createLimiter(2);
  const shoot = (url: string, viewport: Viewport, ignore: readonly string[] = [CLOCK_SELECTOR]): Promise<Capture> =>
    limit(() => capturePage(browser, `${url}/`, { viewport, ignore, timeoutMs: TIMEOUT_MS }));

  beforeAll(async () => {
    [browser, sites] = await Promise.all([launchBrowser(CHROMIUM), startWordPressSites(SITES, { look: "theme" })]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await sites?.close();
  });

  it(
    `finds 0 false failures in ${SITES * DEFAULT_VIEWPORTS.length * RETAKES} comparisons of unchanged pages, each 0 % changed`,
    async () => {
      const pages = sites.flatMap((site) => DEFAULT_VIEWPORTS.map((viewport) => ({ site, viewport })));
      const shares = await Promise.all(
        pages.map(async ({ site, viewport }) => {
          const first = await shoot(site.url, viewport);
          const again = await Promise.all(Array.from({ length: RETAKES }, () => shoot(site.url, viewport)));
          return again.map((shot) => comparePngs(first.png, shot.png).changed);
        }),
      );
      const all = shares.flat();
      expect(all).toHaveLength(SITES * DEFAULT_VIEWPORTS.length * RETAKES);
      expect(all.filter((changed) => !passes(changed, DEFAULT_VISUAL_THRESHOLD))).toEqual([]);
      expect(Math.max(...all)).toBe(0);
      // Every asset was asked for on each shot: the pages were loaded, not taken from a cache.
      for (const site of sites) expect(site.requests.filter((r) => r.path.includes("/fonts/serif.ttf")).length).toBe(DEFAULT_VIEWPORTS.length * (RETAKES + 1));
    },
    30 * 60_000,
  );

  it(
    "sees the clock when it is not masked: the measure is not blind to a small change",
    async () => {
      const [site] = sites;
      for (const viewport of DEFAULT_VIEWPORTS) {
        const a = await shoot(site!.url, viewport, []);
        const b = await shoot(site!.url, viewport, []);
        const changed = comparePngs(a.png, b.png).changed;
        expect(changed).toBeGreaterThan(0);
        expect(changed).toBeLessThan(DEFAULT_VISUAL_THRESHOLD);
      }
    },
    5 * 60_000,
  );

  /** The share changed per viewport when a site's look goes from the theme to `look`. */
  async function upgradeTo(look: WordPressLook): Promise<Record<string, number>> {
    const [site] = await startWordPressSites(1, { look: "theme", lookAfterUpgrade: look });
    let upgraded = false;
    site!.upgradedWhen = () => upgraded;
    try {
      const out: Record<string, number> = {};
      for (const viewport of DEFAULT_VIEWPORTS) {
        upgraded = false;
        const before = await shoot(site!.url, viewport);
        upgraded = true;
        const after = await shoot(site!.url, viewport);
        out[viewport.name] = comparePngs(before.png, after.png).changed;
      }
      return out;
    } finally {
      await site!.close();
    }
  }

  it.each(["stylesheet-dropped", "block-moved", "hero-hidden"] as const)(
    "detects %s in both viewports at the default threshold",
    async (look) => {
      const changed = await upgradeTo(look);
      console.log(
        `test/visual: ${look}: ${Object.entries(changed)
          .map(([v, c]) => `${v} ${c.toFixed(3)} %`)
          .join(", ")}`,
      );
      for (const viewport of DEFAULT_VIEWPORTS)
        expect([viewport.name, passes(changed[viewport.name]!, DEFAULT_VISUAL_THRESHOLD)]).toEqual([viewport.name, false]);
    },
    5 * 60_000,
  );

  it(
    "lets a footer that names the new version through: a small real change under the threshold",
    async () => {
      const changed = await upgradeTo("footer-version");
      for (const viewport of DEFAULT_VIEWPORTS) {
        expect(changed[viewport.name]).toBeGreaterThan(0);
        expect(passes(changed[viewport.name]!, DEFAULT_VISUAL_THRESHOLD)).toBe(true);
      }
    },
    5 * 60_000,
  );
});
