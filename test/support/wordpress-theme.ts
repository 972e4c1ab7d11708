// A themed WordPress front page and its assets, for the visual tests (issue 50): what test/support/wordpress-sites.ts
// serves for a site whose `look` is set. The page carries everything that makes two screenshots of an unchanged
// page differ when a capture does not wait or freeze: web fonts (a text font that swaps in, an icon font that
// blocks, both answered late), a hero image and lazy images below the fold (answered late; some `loading="lazy"`,
// some swapped in by a script when scrolled near, as lazysizes does), CSS animations (a spinner, a sliding
// carousel, a transition), a focused input's caret, and a clock that shows the time to the millisecond (masked
// with `--visual-ignore .site-clock`). Looks after an upgrade break it as upgrades do:
//
//   theme               the page as it is
//   stylesheet-dropped  the theme's stylesheet no longer linked (a theme that enqueues its style on a hook the
//                       new version renamed): the page falls back to the browser's defaults
//   block-moved         the content block moved down by 2 % of the page's height (a plugin's notice above it)
//   hero-hidden         the hero image answers 404 (its box stays, empty): a hero gone
//   footer-version      the footer names the new version: a small real change that must not fail the gate
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PNG } from "pngjs";

export type WordPressLook = "theme" | "stylesheet-dropped" | "block-moved" | "hero-hidden" | "footer-version";

/** The selector of the clock each themed page shows (the time to the millisecond): the mask a test gives. */
export const CLOCK_SELECTOR = ".site-clock";

const THEME = "/wp-content/themes/siteops-test";
const UPLOADS = "/wp-content/uploads";

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const PARAGRAPH =
  "Welcome to WordPress. This is your first post. Edit or delete it, then start writing! Agencies run hundreds of these sites, and each one answers 200 after an upgrade whether its theme still loads or not.";

/** The front page of a site in `look`. */
export function themedPage(title: string, wpVersion: string, look: WordPressLook, now: Date): string {
  const t = escapeHtml(title);
  const stylesheet =
    look === "stylesheet-dropped" ? "" : `<link rel='stylesheet' id='siteops-test-style-css' href='${THEME}/style.css?ver=1.4' media='all' />\n`;
  const shift =
    look === "block-moved"
      ? `<script>document.querySelector(".entry-content").style.marginTop = Math.round(0.02 * document.documentElement.scrollHeight) + "px";</script>\n`
      : "";
  const footer = look === "footer-version" ? `Proudly powered by WordPress ${escapeHtml(wpVersion)}` : "Proudly powered by WordPress";
  const posts = Array.from(
    { length: 4 },
    (_, i) => `<article class="post"><h2 class="wp-block-post-title"><a href="/post-${i + 1}/">Post number ${i + 1}</a></h2>
<p>${PARAGRAPH}</p><p>${PARAGRAPH.split(" ").reverse().join(" ")}</p></article>`,
  ).join("\n");
  const gallery = Array.from({ length: 6 }, (_, i) =>
    i % 2 === 0
      ? `<img class="gallery-item" loading="lazy" src="${UPLOADS}/gallery-${i + 1}.png" width="300" height="200" alt="Gallery ${i + 1}">`
      : `<img class="gallery-item lazyload" data-src="${UPLOADS}/gallery-${i + 1}.png" src="data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==" width="300" height="200" alt="Gallery ${i + 1}">`,
  ).join("\n");
  return `<!DOCTYPE html>
<html lang="en-US">
<head>
<meta charset="UTF-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>${t} &#8211; Just another WordPress site</title>
<meta name="generator" content="WordPress ${escapeHtml(wpVersion)}" />
${stylesheet}<style id='global-styles-inline-css'>body{margin:0}</style>
</head>
<body class="home blog wp-embed-responsive">
<header class="site-header"><p class="site-title"><span class="dashicons" aria-hidden="true">&#xea60;</span><a href="/" rel="home">${t}</a></p>
<nav class="menu"><a href="/">Home</a><a href="/shop/">Shop</a><a href="/about/">About</a></nav>
<time class="site-clock" datetime="${now.toISOString()}">${now.toISOString().replace("T", " ").replace("Z", "")}</time></header>
<figure class="hero"><img src="${UPLOADS}/hero.png" width="1200" height="400" alt="Hero image" fetchpriority="high"></figure>
<div class="notices"><div class="spinner" aria-hidden="true"></div><div class="carousel"><span>Summer sale</span><span>Free shipping</span><span>New arrivals</span></div>
<form class="search" role="search"><input type="search" name="s" value="search" autofocus aria-label="Search"></form></div>
<main class="wp-block-group"><div class="entry-content">
${posts}
<div class="gallery">
${gallery}
</div>
</div></main>
<footer class="site-footer"><p class="has-text-align-center">${footer}</p></footer>
${shift}<script>
const lazy = new IntersectionObserver((entries, observer) => {
  for (const e of entries) if (e.isIntersecting) { e.target.src = e.target.dataset.src; e.target.classList.remove("lazyload"); observer.unobserve(e.target); }
}, { rootMargin: "100px" });
document.querySelectorAll("img.lazyload").forEach((img) => lazy.observe(img));
setTimeout(() => document.body.classList.add("ready"), 50);
</script>
</body>
</html>
`;
}

/** The theme's stylesheet: web fonts, layout, colours, the animations. */
const STYLE = `@font-face { font-family: "SiteOps Serif"; src: url("${THEME}/fonts/serif.ttf") format("truetype"); font-display: swap; }
@font-face { font-family: "SiteOps Icons"; src: url("${THEME}/fonts/icons.ttf") format("truetype"); font-display: block; }
body { font-family: "SiteOps Serif", sans-serif; color: #1e1e1e; background: #f6f3ee; line-height: 1.6; }
a { color: #8a3b12; }
.site-header { display: flex; flex-wrap: wrap; align-items: center; gap: 24px; padding: 24px 5vw; background: #1e1e1e; color: #f6f3ee; }
.site-header a { color: #f6f3ee; text-decoration: none; }
.site-title { font-size: 28px; margin: 0; font-weight: bold; }
.dashicons { font-family: "SiteOps Icons"; font-size: 32px; vertical-align: middle; margin-right: 8px; color: #f0b429; }
.menu { display: flex; gap: 16px; }
.site-clock { margin-left: auto; font-family: monospace; }
.hero { margin: 0; }
.hero img { display: block; width: 100%; height: auto; background: #ddd; }
.notices { display: flex; align-items: center; gap: 24px; padding: 16px 5vw; background: #fff; overflow: hidden; }
.spinner { width: 24px; height: 24px; border: 4px solid #ddd; border-top-color: #8a3b12; border-radius: 50%; animation: spin 0.8s linear infinite; }
.carousel { display: flex; gap: 48px; white-space: nowrap; animation: slide 3s linear infinite; }
.carousel span { transition: color 2s; color: #8a3b12; }
.ready .carousel span { color: #1e1e1e; }
.search input { font: inherit; padding: 4px 8px; }
@keyframes spin { to { transform: rotate(360deg); } }
@keyframes slide { from { transform: translateX(0); } to { transform: translateX(-120px); } }
main { max-width: 960px; margin: 0 auto; padding: 32px 5vw; }
.post { background: #fff; padding: 16px 24px; margin-bottom: 24px; border-left: 6px solid #8a3b12; }
.gallery { display: grid; grid-template-columns: repeat(auto-fill, minmax(240px, 1fr)); gap: 16px; }
.gallery img { width: 100%; height: auto; display: block; background: #ddd; }
.site-footer { padding: 24px; background: #1e1e1e; color: #f6f3ee; }
`;

interface Asset {
  type: string;
  body: () => Buffer;
  /** The most it is held back, in ms (a random share of it each time): late fonts and images. */
  delayMs: number;
}

let images: Map<string, Buffer> | undefined;

/** A PNG of `width` x `height`: a two-colour gradient with a band, from `seed`. */
function picture(width: number, height: number, seed: number): Buffer {
  const png = new PNG({ width, height });
  const hue = (n: number) => (seed * 73 + n) % 256;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const band = Math.abs(y - height / 2) < height / 10;
      png.data[i] = band ? 250 : hue(Math.floor((x / width) * 200));
      png.data[i + 1] = band ? 240 : hue(80 + Math.floor((y / height) * 120));
      png.data[i + 2] = band ? 220 : 255 - hue(seed * 31);
      png.data[i + 3] = 255;
    }
  return PNG.sync.write(png);
}

function imagesOnce(): Map<string, Buffer> {
  if (!images) {
    images = new Map([[`${UPLOADS}/hero.png`, picture(1200, 400, 1)]]);
    for (let i = 1; i <= 6; i++) images.set(`${UPLOADS}/gallery-${i}.png`, picture(300, 200, i + 1));
  }
  return images;
}

const require = createRequire(import.meta.url);

/** A text font: Liberation Serif (fonts-liberation, which Debian's chromium brings), else DejaVu Serif. */
function textFont(): Buffer {
  const found = ["/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"].find((f) =>
    existsSync(f),
  );
  if (!found) throw new Error("test/support/wordpress-theme: no serif TrueType font (apt-get install fonts-liberation)");
  return readFileSync(found);
}

/** An icon font: the codicons playwright-core ships (U+EA60 is a glyph of it). */
function iconFont(): Buffer {
  const dir = path.join(path.dirname(require.resolve("playwright-core/package.json")), "lib", "vite", "traceViewer");
  return readFileSync(path.join(dir, "codicon.DCmgc-ay.ttf"));
}

/** The theme's files and uploads, by path (without the query). `look` decides which answer 404. */
export function themeAsset(pathname: string, look: WordPressLook): Asset | undefined {
  if (pathname === `${THEME}/style.css`) return { type: "text/css; charset=UTF-8", body: () => Buffer.from(STYLE), delayMs: 60 };
  if (pathname === `${THEME}/fonts/serif.ttf`) return { type: "font/ttf", body: textFont, delayMs: 400 };
  if (pathname === `${THEME}/fonts/icons.ttf`) return { type: "font/ttf", body: iconFont, delayMs: 300 };
  if (look === "hero-hidden" && pathname === `${UPLOADS}/hero.png`) return undefined;
  const image = imagesOnce().get(pathname);
  return image ? { type: "image/png", body: () => image, delayMs: 250 } : undefined;
}
