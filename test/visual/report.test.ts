// The HTML reports (visual/report.ts) need nothing but themselves: no script, no resource from elsewhere (a CSP that
// allows none), a site's images inside it; and text from the service or the user is inert in them.
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { DEFAULT_VIEWPORTS, type SiteCheck } from "../../src/fleet.js";
import type { VisualRun } from "../../visual/model.js";
import { indexReport, siteReport } from "../../visual/report.js";

const png = (() => {
  const p = new PNG({ width: 2, height: 2 });
  p.data.fill(255);
  return PNG.sync.write(p);
})();

const hostile: SiteCheck = {
  site: { id: "site_1", name: 'Shop <script>alert("x")</script>\u202e', url: "javascript:alert(1)" },
  ok: false,
  pages: [
    {
      path: "/<b>",
      viewport: "desktop",
      verdict: "failed",
      changed: 12.43,
      detail: "GET /<b> (desktop): 12.4 % changed, over the 1 % threshold",
      files: { before: "site_1/a.before.png", after: "site_1/a.after.png", diff: "site_1/a.diff.png" },
      sizes: { before: [2, 2], after: [2, 2] },
    },
    {
      path: "/",
      viewport: "mobile",
      verdict: "error",
      changed: null,
      detail: "GET / (mobile): not captured now: net::ERR_CONNECTION_REFUSED",
      files: {},
      sizes: {},
    },
  ],
  report: "site_1/report.html",
};
const plain: SiteCheck = {
  site: { id: "site_2", name: "Blog", url: "https://blog.example.test" },
  ok: true,
  pages: [{ path: "/", viewport: "desktop", verdict: "passed", changed: 0, detail: "GET / (desktop): 0 % changed", files: {}, sizes: {} }],
  report: "site_2/report.html",
};
const run: VisualRun = {
  kind: "rollout",
  startedAt: "2026-11-29T10:00:00.000Z",
  browser: "Chromium 156.0.8078.108",
  settings: { paths: ["/"], viewports: DEFAULT_VIEWPORTS, ignore: ['.clock"><script>'], threshold: 1 },
  sites: [hostile, plain],
};

/** Every URL the page would load or link: src and href attributes, and url() in its style. */
function urls(html: string): string[] {
  return [...html.matchAll(/\b(?:src|href)="([^"]*)"|url\(([^)]*)\)/g)].map((m) => m[1] ?? m[2]!);
}

describe("the reports", () => {
  it("a site's report: before | after | diff inside it as data: URLs, the share and the verdict, nothing loaded from elsewhere", () => {
    const html = siteReport(run, hostile, (file) => (file.endsWith(".png") ? png : undefined));
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">`);
    expect(html).not.toMatch(/<script|<link|@import/);
    expect(urls(html).every((u) => u.startsWith("data:image/png;base64,"))).toBe(true);
    expect(urls(html)).toHaveLength(3);
    expect(html).toMatch(/<figcaption>Before<\/figcaption><img[^>]*src="data:image\/png;base64,/);
    expect(html).toContain('<span class="failed">failed</span>, 12.4 % changed');
    expect(html).toContain("GET / (mobile): not captured now: net::ERR_CONNECTION_REFUSED");
    expect(html).toContain('<div class="missing">not taken</div>');
    // The service's text and the user's are escaped and made inert; a javascript: URL is not a link.
    expect(html).toContain("Shop &#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;\\u202e");
    expect(html).toContain("<code>/&#60;b&#62;</code>");
    expect(html).toContain("javascript:alert(1)");
    expect(html).not.toContain('href="javascript');
  });

  it("the index: each page's share and verdict, linking each site's report", () => {
    const html = indexReport(run);
    expect(html).toContain("<h1>1 of 2 sites changed beyond the threshold or not compared</h1>");
    expect(urls(html)).toEqual(["site_1/report.html", "site_2/report.html"]);
    expect(html).toMatch(/<td><code>\/&#60;b&#62;<\/code><\/td><td>desktop<\/td><td class="num">12.4 %<\/td><td><span class="failed">failed<\/span><\/td>/);
    expect(html).toContain("masked: <code>.clock&#34;&#62;&#60;script&#62;</code>");
    expect(html).not.toMatch(/<script/);
  });
});
