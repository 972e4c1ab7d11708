// What a visual check is asked to do, and its defaults: the viewports, the threshold, the masks, the time a page may
// take, each read and checked here. The core's because a rollout's options are declared in it once for the CLI and
// the action; pure, so checking a flag or an input loads nothing of the engine (visual/: the browser, the pixel
// diff), which is loaded only when a visual gate or command runs.

/** A browser window a page is captured in. */
export interface Viewport {
  /** `desktop`, `mobile`, or `WIDTHxHEIGHT` for one given by size; part of the image files' names. */
  name: string;
  width: number;
  height: number;
  /** A phone: the meta viewport honoured, touch events, a phone's user agent (WordPress's wp_is_mobile() and
   * themes that serve phones other markup see one). */
  mobile: boolean;
}

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

/** A laptop's window: the width most WordPress themes lay out their desktop design at. */
const DESKTOP: Viewport = { name: "desktop", width: 1280, height: 800, mobile: false };
/** A current phone's CSS viewport (390 x 844: iPhone 12 to 15, the most common width in 2025's statistics). */
const MOBILE: Viewport = { name: "mobile", width: 390, height: 844, mobile: true };
export const DEFAULT_VIEWPORTS: readonly Viewport[] = [DESKTOP, MOBILE];

/**
 * The share of a page's pixels that may change before the page fails, in percent, unless `--visual-threshold`
 * says otherwise. Measured (test/visual/noise.test.ts; docs/design.md, section 11): unchanged pages with web fonts,
 * lazy images, animations and a masked clock differ by 0 % in 50 comparisons; the clock unmasked changes 0.005 %,
 * a footer naming the new version 0.002 %; the breakages change 2.37 % (a hero image gone, on a phone) to 66 % (the
 * stylesheet dropped). 1 % sits far above the small real changes and 2.4 times below the smallest breakage.
 */
export const DEFAULT_VISUAL_THRESHOLD = 1;

/** How long one page may take to load, settle and be captured unless `--visual-timeout` says otherwise. */
export const DEFAULT_PAGE_TIMEOUT_MS = 30_000;

/** Pages captured at a time unless `--concurrency` says otherwise (each is a browser tab with its own context). */
export const DEFAULT_VISUAL_CONCURRENCY = 4;

/** The most paths a site is captured on (Pantheon Autopilot allows ten; each path is a capture per viewport). */
export const MAX_VISUAL_PATHS = 25;

/** A flag's or input's value refused: `message` names what was wrong, the caller names the flag. */
export class VisualSettingsError extends Error {
  override readonly name = "VisualSettingsError";
}

/** `desktop`, `mobile`, or `WIDTHxHEIGHT` (a desktop window of that size; `mobile:WIDTHxHEIGHT` for a phone). */
export function parseViewport(text: string): Viewport {
  const word = text.trim().toLowerCase();
  if (word === DESKTOP.name) return DESKTOP;
  if (word === MOBILE.name) return MOBILE;
  const m = /^(mobile:)?(\d{2,5})x(\d{2,5})$/.exec(word);
  const width = Number(m?.[2]);
  const height = Number(m?.[3]);
  if (!m || width < 200 || width > 4000 || height < 200 || height > 4000)
    throw new VisualSettingsError(
      `must be desktop, mobile or WIDTHxHEIGHT between 200 and 4000 (mobile:WIDTHxHEIGHT for a phone), not ${JSON.stringify(text)}`,
    );
  return { name: `${m[1] ? "mobile-" : ""}${width}x${height}`, width, height, mobile: Boolean(m[1]) };
}

/** Viewports from a list (comma-separated words allowed); the defaults when it is empty. */
export function parseViewports(values: readonly string[]): Viewport[] {
  const words = values.flatMap((v) => v.split(",")).filter((v) => v.trim() !== "");
  if (!words.length) return [...DEFAULT_VIEWPORTS];
  const out = new Map<string, Viewport>();
  for (const w of words) {
    const v = parseViewport(w);
    out.set(v.name, v);
  }
  return [...out.values()];
}

/** A percentage: `1`, `0.5`, `2.5%`, between 0 and 100. */
export function parseThreshold(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*%?\s*$/.exec(text);
  const value = Number(m?.[1]);
  if (!m || !(value >= 0 && value <= 100))
    throw new VisualSettingsError(`must be a share of the page in percent, such as 1 or 0.5%, not ${JSON.stringify(text)}`);
  return value;
}

/** A CSS selector to mask: refused when empty or multi-line (the browser checks the rest when it uses it). */
export function parseSelector(text: string): string {
  const selector = text.trim();
  if (!selector || /[\r\n]/.test(selector) || selector.length > 500)
    throw new VisualSettingsError(`must be one CSS selector such as .site-clock, not ${JSON.stringify(text)}`);
  return selector;
}

/** A path of the site to capture: it starts with `/` and has no space (as the http gate's --check-path). */
export function parsePagePath(text: string): string {
  if (!text.startsWith("/") || /\s/.test(text)) throw new VisualSettingsError(`must be a path starting with /, not ${JSON.stringify(text)}`);
  return text;
}
