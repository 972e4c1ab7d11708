// Loopback HTTP servers that answer as WordPress sites do after an upgrade, one per site, for the tests of a
// rollout's HTTP checks (issue 42 item 5): what a site's URL serves is chosen per site, and per path.
//
//   const sites = await startWordPressSites(["healthy", "fatal", "error500", "slow"]);
//   sites[1].url                       // "http://127.0.0.1:41234": the emulator takes it as a site's URL
//   sites.seedSites("Shop")            // [{ name: "Shop 1", url, wp_version }, ...] for a SeedFile's `sites`
//   sites[0].behaviour = "fatal";      // from the next request on
//   sites[0].paths.set("/shop", "error500");
//   sites[2].requests                  // [{ method: "GET", path: "/" }]: what the site was asked, in order
//   await sites.close();               // also cuts the answers a "slow" site still holds back
//
// Behaviours (default "healthy"):
//   healthy   200, a WordPress front page (`<meta name="generator" content="WordPress 6.8">`, the version given)
//   fatal     200 with WordPress's fatal-error page: the markup of wp_die() as WP_Fatal_Error_Handler's
//             display_default_error_template() calls it ("There has been a critical error on this website.").
//             WordPress sends it with 500, but a page already under way when the fatal struck has sent its
//             200 (a theme or plugin printed first), and page caches and some proxies store and serve it as 200
//   error500  500 with the same page, as WordPress sends it when the fatal struck before any output
//   slow      the healthy page after `slowMs` (default 30 s: longer than any check's budget in the tests)
//
// Looks (the visual tests, issue 50): a site given `look` serves a themed front page on every path, with its
// stylesheet, web fonts and images (test/support/wordpress-theme.ts), in place of the plain healthy page; once
// `upgradedWhen()` says the service upgraded the site, it serves `lookAfterUpgrade` instead (a stylesheet dropped,
// a block moved, a hero gone, or the same look: a site whose upgrade changed nothing visible).
//
//   const [shop] = await startWordPressSites(1, { look: "theme", lookAfterUpgrade: "stylesheet-dropped" });
//   shop.upgradedWhen = async () => (await so.sites.get(id)).wp_version === "6.8";
//
// Loopback URLs: the emulator accepts any absolute http(s) URL with a host (emulator/site-urls.ts), so
// `http://127.0.0.1:PORT` is a site's URL as is, each port another site (test/emulator/
// pipeline-outcomes-wordpress-sites.test.ts creates sites on them through the API and a seed); the `minimal`
// profile stores it as `http://127.0.0.1:PORT/`. Each server listens on 127.0.0.1 port 0. A hostname such as
// `site-1.localhost` is not needed, and would not resolve everywhere (glibc without systemd-resolved does not).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { themeAsset, themedPage, type WordPressLook } from "./wordpress-theme.js";

export type WordPressBehaviour = "healthy" | "fatal" | "error500" | "slow";

export interface WordPressSiteOptions {
  behaviour?: WordPressBehaviour;
  /** Behaviours of given paths (`/shop`), over `behaviour`; matched on the path without its query. */
  paths?: Record<string, WordPressBehaviour>;
  /** How long a "slow" site holds its answer back, in ms. Default 30,000. */
  slowMs?: number;
  /** The WordPress version the healthy page names. Default "6.8". */
  wpVersion?: string;
  /** The site's title on its pages. Default "WordPress Site". */
  title?: string;
  /** A themed page with assets (wordpress-theme.ts) in place of the plain healthy page. */
  look?: WordPressLook;
  /** The look once `upgradedWhen()` is true. Default: `look`. */
  lookAfterUpgrade?: WordPressLook;
}

export interface WordPressSite {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  readonly url: string;
  /** What the site serves; change it at any time (the next request sees it). */
  behaviour: WordPressBehaviour;
  /** Per-path behaviours, over `behaviour`. */
  readonly paths: Map<string, WordPressBehaviour>;
  slowMs: number;
  wpVersion: string;
  look: WordPressLook | undefined;
  lookAfterUpgrade: WordPressLook | undefined;
  /** Whether the service upgraded the site (asked at each request of a page or asset when the site has a look). */
  upgradedWhen: (() => boolean | Promise<boolean>) | undefined;
  /** Every request, in the order it arrived (path with its query). */
  readonly requests: { method: string; path: string }[];
  close(): Promise<void>;
}

/** Sites started together: an array with their seed entries and one close. */
export interface WordPressSites extends Array<WordPressSite> {
  /** Create bodies for a SeedFile account's `sites` (or POST /sites): `<prefix> 1`, `<prefix> 2`, ... on these
   * URLs, at WordPress `wpVersion` (default "6.5": below the versions a test upgrades to). */
  seedSites(prefix?: string, wpVersion?: string): { name: string; url: string; wp_version: string }[];
  close(): Promise<void>;
}

const DEFAULT_SLOW_MS = 30_000;

/** The wp_die() page of WP_Fatal_Error_Handler (its default template, en_US). */
export const FATAL_ERROR_PAGE = `<!DOCTYPE html>
<html lang="en-US">
<head>
	<meta http-equiv="Content-Type" content="text/html; charset=utf-8" />
	<meta name="viewport" content="width=device-width">
	<meta name='robots' content='max-image-preview:large, noindex, follow' />
	<title>WordPress &rsaquo; Error</title>
	<style type="text/css">
		html { background: #f1f1f1; }
		body { background: #fff; border: 1px solid #ccd0d4; color: #444; font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Oxygen-Sans, Ubuntu, Cantarell, "Helvetica Neue", sans-serif; margin: 2em auto; padding: 1em 2em; max-width: 700px; -webkit-box-shadow: 0 1px 1px rgba(0, 0, 0, .04); box-shadow: 0 1px 1px rgba(0, 0, 0, .04); }
		#error-page { margin-top: 50px; }
		#error-page .wp-die-message, #error-page p { font-size: 14px; line-height: 1.5; margin: 25px 0 20px; }
		a { color: #0073aa; }
	</style>
</head>
<body id="error-page">
	<div class="wp-die-message"><p>There has been a critical error on this website.</p><p><a href="https://wordpress.org/support/article/faq-troubleshooting/">Learn more about troubleshooting WordPress.</a></p></div>
</body>
</html>
`;

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A theme's front page as WordPress renders one (generator tag, body classes, a post). */
function healthyPage(title: string, wpVersion: string, path: string): string {
  const t = escapeHtml(title);
  return `<!DOCTYPE html>
<html lang="en-US">
<head>
<meta charset="UTF-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<meta name='robots' content='max-image-preview:large' />
<title>${t} &#8211; Just another WordPress site</title>
<link rel="alternate" type="application/rss+xml" title="${t} &raquo; Feed" href="/feed/" />
<meta name="generator" content="WordPress ${escapeHtml(wpVersion)}" />
</head>
<body class="${path === "/" ? "home blog" : "page"} wp-embed-responsive">
<div class="wp-site-blocks"><header class="wp-block-template-part"><p class="wp-block-site-title"><a href="/" rel="home">${t}</a></p></header>
<main class="wp-block-group"><h2 class="wp-block-post-title"><a href="/hello-world/">Hello world!</a></h2>
<div class="entry-content wp-block-post-content"><p>Welcome to WordPress. This is your first post. Edit or delete it, then start writing!</p></div></main>
<footer class="wp-block-template-part"><p class="has-text-align-center">Proudly powered by <a href="https://wordpress.org" rel="nofollow">WordPress</a></p></footer></div>
</body>
</html>
`;
}

/** One loopback WordPress site. */
export async function startWordPressSite(options: WordPressSiteOptions = {}): Promise<WordPressSite> {
  const title = options.title ?? "WordPress Site";
  const held = new Set<NodeJS.Timeout>();
  let site!: WordPressSite;
  const lookNow = async (): Promise<WordPressLook | undefined> =>
    site.look && site.upgradedWhen && (await site.upgradedWhen()) ? (site.lookAfterUpgrade ?? site.look) : site.look;
  const later = (ms: number, then: () => void): void => {
    const timer = setTimeout(() => {
      held.delete(timer);
      then();
    }, ms);
    held.add(timer);
  };
  const healthy = async (path: string): Promise<string> => {
    const look = await lookNow();
    return look ? themedPage(title, site.wpVersion, look, new Date()) : healthyPage(title, site.wpVersion, path);
  };
  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = req.url ?? "/";
    site.requests.push({ method: req.method ?? "GET", path });
    const pathname = path.split("?")[0]!;
    const behaviour = site.paths.get(pathname) ?? site.behaviour;
    const send = (status: number, body: string | Buffer, type = "text/html; charset=UTF-8"): void => {
      res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body), "x-powered-by": "PHP/8.3.14" });
      res.end(req.method === "HEAD" ? undefined : body);
    };
    if (site.look && pathname.startsWith("/wp-content/")) {
      const asset = themeAsset(pathname, (await lookNow())!);
      // Fonts and images come late, each by a random share of its most: a capture that does not wait differs.
      if (asset) later(Math.random() * asset.delayMs, () => send(200, asset.body(), asset.type));
      else send(404, "Not Found", "text/plain");
      return;
    }
    if (behaviour === "fatal") send(200, FATAL_ERROR_PAGE);
    else if (behaviour === "error500") send(500, FATAL_ERROR_PAGE);
    else if (behaviour === "slow") {
      const page = await healthy(path);
      later(site.slowMs, () => send(200, page));
    } else send(200, await healthy(path));
  };
  const server: Server = createServer((req, res) => {
    // upgradedWhen() asks the emulator, which a test may have closed already: the page fails, the test goes on.
    answer(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(503).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  site = {
    url: `http://127.0.0.1:${port}`,
    behaviour: options.behaviour ?? "healthy",
    paths: new Map(Object.entries(options.paths ?? {})),
    slowMs: options.slowMs ?? DEFAULT_SLOW_MS,
    wpVersion: options.wpVersion ?? "6.8",
    look: options.look,
    lookAfterUpgrade: options.lookAfterUpgrade,
    upgradedWhen: undefined,
    requests: [],
    async close() {
      for (const t of held) clearTimeout(t);
      held.clear();
      server.closeAllConnections(); // a client still waiting on a "slow" answer sees its connection end
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return site;
}

/** One site per behaviour (or `n` healthy sites), each on its own port; `options` apply to all. */
export async function startWordPressSites(
  behaviours: readonly WordPressBehaviour[] | number,
  options: Omit<WordPressSiteOptions, "behaviour"> = {},
): Promise<WordPressSites> {
  const list = typeof behaviours === "number" ? Array.from({ length: behaviours }, () => "healthy" as const) : behaviours;
  const sites = (await Promise.all(list.map((behaviour, i) => startWordPressSite({ title: `Site ${i + 1}`, ...options, behaviour })))) as WordPressSites;
  sites.seedSites = (prefix = "Site", wpVersion = "6.5") => sites.map((s, i) => ({ name: `${prefix} ${i + 1}`, url: s.url, wp_version: wpVersion }));
  sites.close = async () => {
    await Promise.all(sites.map((s) => s.close()));
  };
  return sites;
}
