// One page captured as a picture that is the same every time the page is the same: a fresh browser context (no
// cookie, cache or storage of an earlier capture), the page loaded and let settle (lazy images made to load by
// scrolling, its network quiet, every image decoded, web fonts loaded), then the full page shot with CSS animations
// and transitions stopped (finite ones finished, infinite ones back at their start), the text caret hidden and each
// masked element painted over in one colour. What a capture does not freeze, a mask hides (`--visual-ignore`).
// A page whose address, or a redirect hop's, the guarded proxy refused (guarded-proxy.ts) is not captured: its
// capture fails naming the refusal, as the HTTP gate's does.

import type { Page, Request } from "playwright-core";
import type { VisualBrowser } from "./browser.js";
import type { Viewport } from "../src/fleet.js";

/** What a capture needs besides the page's URL. */
export interface CaptureOptions {
  viewport: Viewport;
  /** CSS selectors painted over in both shots. */
  ignore: readonly string[];
  /** The whole capture's time, load to picture, in ms. */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

/** A page's picture. */
export interface Capture {
  /** The full page as PNG. */
  png: Buffer;
  width: number;
  height: number;
  /** The HTTP status of the page (null when none was seen, e.g. a page served from a service worker). */
  status: number | null;
  /** How long the capture took, in ms. */
  ms: number;
}

/** The mask colour: magenta, rare on real pages, so a masked area reads as masked in the images. */
const MASK_COLOR = "#FF00FF";

/** A phone's user agent for the mobile viewport (Chrome on Android), so sites that serve phones other markup do. */
const MOBILE_USER_AGENT =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 siteops-visual";

/** The longest wait for the network to go quiet: a page that polls never does, and is captured anyway. */
const NETWORK_QUIET_MS = 5_000;
/** How long nothing must have been in flight, begun or ended for the network to count as quiet: the time an answer's
 * script takes to ask for what it loads next, with room for Chromium's word of a request to reach this process on a
 * busy machine. Playwright's `networkidle` waits 500 ms after the last answer, which came just before `load`, however
 * quiet the page already is; this waits for the page's own requests, timed from their ends. */
const QUIET_MS = 250;
/** The most times the page is scrolled through: again only while the scroll brought more page (taller, more images
 * or frames), as infinite scrolls and blocks loaded when seen do. */
const SCROLL_PASSES = 3;
/** The longest wait for images and fonts after the scroll. */
const ASSETS_MS = 10_000;

/** The URL of `path` on the site at `siteUrl` (a path is taken below the site's own path, as the http gate does). */
export function pageUrl(siteUrl: string, path: string): string {
  return new URL(path.replace(/^\/+/, ""), siteUrl.endsWith("/") ? siteUrl : `${siteUrl}/`).href;
}

/** Captures `url` in `viewport`. Throws when the page cannot be loaded or captured within the time. */
export async function capturePage(browser: VisualBrowser, url: string, options: CaptureOptions): Promise<Capture> {
  const begin = performance.now();
  const deadline = Date.now() + options.timeoutMs;
  const left = () => Math.max(1, deadline - Date.now());
  const { viewport } = options;
  const context = await browser.browser.newContext({
    viewport: { width: viewport.width, height: viewport.height },
    deviceScaleFactor: 1,
    isMobile: viewport.mobile,
    hasTouch: viewport.mobile,
    ...(viewport.mobile ? { userAgent: MOBILE_USER_AGENT } : {}),
    // A page's own "prefers-reduced-motion" styles stop what CSS cannot be told to stop from outside.
    reducedMotion: "reduce",
    colorScheme: "light",
    locale: "en-US",
    timezoneId: "UTC",
    serviceWorkers: "block",
  });
  // One bound over the whole capture, whatever step it is in: at the deadline the context closes, and the step
  // under way fails with it.
  let phase = "loading";
  let timedOut = false;
  const close = () => void context.close().catch(() => {});
  const timer = setTimeout(() => {
    timedOut = true;
    close();
  }, options.timeoutMs);
  options.signal?.addEventListener("abort", close, { once: true });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(options.timeoutMs);
    const network = watchNetwork(page);
    // The main frame's latest navigation request: each redirect hop is a request of its own.
    let last = url;
    page.on("request", (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) last = request.url();
    });
    // What the guarded proxy says of it: a refusal fails the page whatever was shown; a failed connection when the
    // page failed to load (a tunnel that could not be made) or is the proxy's own 502 answer.
    const proxied = (failed: boolean) => {
      const problem = browser.proxyProblem(last);
      const hop = last === url ? "" : ` (redirected to ${new URL(last).origin})`;
      if (problem?.refused) throw new Error(`refused${hop}: ${problem.why}`);
      if (problem && failed) throw new Error(`${problem.why} at ${last}`);
    };
    const response = await page.goto(url, { waitUntil: "load", timeout: left() }).catch((err: unknown) => {
      proxied(true);
      throw err;
    });
    proxied(response?.status() === 502);
    phase = "waiting for it to settle";
    await settle(page, network, left);
    phase = "shooting it";
    proxied(false);
    const png = await page.screenshot({
      fullPage: true,
      animations: "disabled",
      caret: "hide",
      scale: "css",
      mask: options.ignore.map((selector) => page.locator(selector)),
      maskColor: MASK_COLOR,
      timeout: left(),
    });
    const { width, height } = pngSize(png);
    return { png, width, height, status: response?.status() ?? null, ms: Math.round(performance.now() - begin) };
  } catch (err) {
    if (timedOut || (err as Error).name === "TimeoutError")
      throw new Error(`the page took longer than its ${Math.round(options.timeoutMs / 1000)} s (${phase})`, { cause: err });
    throw err;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", close);
    await context.close().catch(() => {});
  }
}

/** The page's requests as this process hears of them: what is in flight, and when one last began or ended. */
interface Network {
  /** Resolves once nothing has been in flight, begun or ended for `stillMs`, or after `maxMs` (a page that polls). */
  quiet(stillMs: number, maxMs: number): Promise<void>;
}

/** Follows `page`'s requests, every frame's, from now on. Event streams (EventSource) never end and are left out,
 * as Playwright's `networkidle` leaves them out. */
function watchNetwork(page: Page): Network {
  const inFlight = new Set<Request>();
  let changedAt = performance.now();
  let wake: (() => void) | undefined;
  const changed = () => {
    changedAt = performance.now();
    wake?.();
  };
  page.on("request", (request) => {
    if (request.resourceType() === "eventsource") return;
    inFlight.add(request);
    changed();
  });
  const ended = (request: Request) => {
    if (inFlight.delete(request)) changed();
  };
  page.on("requestfinished", ended);
  page.on("requestfailed", ended);
  return {
    async quiet(stillMs, maxMs) {
      const deadline = performance.now() + maxMs;
      for (;;) {
        const now = performance.now();
        // Waits for the next change, or for the quiet to last long enough (none in flight), or for the deadline.
        const until = inFlight.size > 0 ? deadline : Math.min(changedAt + stillMs, deadline);
        if (until <= now) return;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, until - now);
          function done() {
            clearTimeout(timer);
            wake = undefined;
            resolve();
          }
          wake = done;
        });
      }
    },
  };
}

/**
 * Lets the page reach the state it rests in: `loading="lazy"` images and iframes made eager and the page scrolled
 * through a screen at a time (images and blocks that load when scrolled near, as lazysizes and themes' own
 * observers do) and back to the top; the network quiet (what load, the scroll and the page's scripts asked for
 * answered, QUIET_MS without a request); scrolled again while that made the page longer or gave it images; every
 * image loaded and decoded; web fonts loaded. Each wait is bounded: a page that never rests is captured as it is at
 * the deadline. No wait is a fixed time: each ends when what it waits for happened.
 */
async function settle(page: Page, network: Network, left: () => number): Promise<void> {
  for (let pass = 0; pass < SCROLL_PASSES; pass++) {
    const before = await page.evaluate<string>(SCROLL_THROUGH);
    await network.quiet(QUIET_MS, Math.min(NETWORK_QUIET_MS, left()));
    if ((await page.evaluate<string>(SHAPE)) === before) break;
  }
  await page.evaluate(`(${IMAGES_AND_FONTS})(${Math.min(ASSETS_MS, left())})`).catch(() => {});
}

// The scripts settle() runs in the page, as source text: a function of this module would be serialised as the
// compiler wrote it, with the helpers a bundler or test runner adds (esbuild's __name) that the page lacks.

/** What the page has that a scroll may bring more of: its height, its images and frames. */
const SHAPE = `document.documentElement.scrollHeight + " " + document.images.length + " " + document.querySelectorAll("iframe").length`;

/** Lazy images and iframes made eager; the page scrolled through a screen at a time, then back to the top. Resolves
 * with the page's SHAPE when the scroll began. */
const SCROLL_THROUGH = `(async () => {
  const shape = ${SHAPE};
  for (const el of document.querySelectorAll('img[loading="lazy"], iframe[loading="lazy"]')) el.setAttribute("loading", "eager");
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const step = Math.max(200, window.innerHeight);
  for (let y = 0; y < document.documentElement.scrollHeight && y < 50000; y += step) {
    window.scrollTo(0, y);
    await frame();
  }
  window.scrollTo(0, 0);
  await frame();
  return shape;
})()`;

/** Every image loaded (or failed) and decoded, and the web fonts loaded; at most \`ms\`. */
const IMAGES_AND_FONTS = `async (ms) => {
  const images = Array.from(document.images, async (img) => {
    if (!img.complete)
      await new Promise((resolve) => {
        img.addEventListener("load", resolve, { once: true });
        img.addEventListener("error", resolve, { once: true });
      });
    await img.decode().catch(() => {});
  });
  await Promise.race([Promise.all([...images, document.fonts.ready]), new Promise((resolve) => setTimeout(resolve, ms))]);
}`;

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
