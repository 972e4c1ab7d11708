// The HTML reports of a visual check. Each is one file that needs nothing else to be read: no script, no style or
// font from elsewhere, and a Content-Security-Policy that allows none; a site's report holds its images inside it
// (data: URLs), so it can be mailed or attached as it is, and the index links each site's. Text from the service
// (a site's name) and from the user (paths, selectors) is made inert (common/sanitize.ts) and escaped.

import { clean } from "../common/sanitize.js";
import { formatShare, type PageCheck, type SiteCheck, siteDetail } from "../src/fleet.js";
import type { VisualRun } from "./model.js";

function html(value: unknown): string {
  return clean(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const CSS = `body{font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#1f2328;background:#fff}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:32px 0 8px}p.meta{color:#59636e;margin:0 0 16px}
table{border-collapse:collapse;margin:8px 0}th,td{text-align:left;padding:4px 10px;border-bottom:1px solid #d1d9e0}
td.num{text-align:right;font-variant-numeric:tabular-nums}.passed{color:#1a7f37}.failed,.error{color:#d1242f;font-weight:600}
.shots{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:12px;align-items:start}
figure{margin:0}figcaption{font-weight:600;margin-bottom:4px}figure img{width:100%;height:auto;border:1px solid #d1d9e0;display:block}
.missing{padding:24px;border:1px dashed #d1d9e0;color:#59636e}`;

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(title)}</title>
<style>${CSS}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

function verdictCell(verdict: string): string {
  return `<span class="${verdict}">${verdict}</span>`;
}

function meta(run: VisualRun): string {
  const { settings } = run;
  const masks = settings.ignore.length ? `; masked: ${settings.ignore.map((s) => `<code>${html(s)}</code>`).join(", ")}` : "";
  return `<p class="meta">${html(run.startedAt)} · ${html(run.browser)} · viewports ${settings.viewports.map((v) => `${html(v.name)} ${v.width}×${v.height}`).join(", ")} · threshold ${formatShare(settings.threshold)}${masks}</p>`;
}

/** The index: every site and page, with the share changed and the verdict, linking each site's report. */
export function indexReport(run: VisualRun): string {
  const pages = run.sites.flatMap((s) => s.pages);
  const failed = run.sites.filter((s) => !s.ok);
  const sites = `${run.sites.length} site${run.sites.length === 1 ? "" : "s"}`;
  const heading = failed.length
    ? `${failed.length} of ${sites} changed beyond the threshold or not compared`
    : `${sites} unchanged (${pages.length} page${pages.length === 1 ? "" : "s"})`;
  const rows = run.sites
    .flatMap((s) =>
      s.pages.map(
        (p, i) =>
          `<tr>${i === 0 ? `<td rowspan="${s.pages.length}"><a href="${html(s.report)}">${html(s.site.name)}</a><br><small>${html(s.site.id)}</small></td>` : ""}<td><code>${html(p.path)}</code></td><td>${html(p.viewport)}</td><td class="num">${p.changed === null ? "" : formatShare(p.changed)}</td><td>${verdictCell(p.verdict)}</td></tr>`,
      ),
    )
    .join("\n");
  return page(
    `siteops visual: ${heading}`,
    `<h1>${html(heading)}</h1>
${meta(run)}
<table>
<thead><tr><th>Site</th><th>Path</th><th>Viewport</th><th>Changed</th><th>Verdict</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`,
  );
}

function figure(caption: string, png: Buffer | undefined, size: [number, number] | undefined): string {
  if (!png) return `<figure><figcaption>${caption}</figcaption><div class="missing">not taken</div></figure>`;
  const dims = size ? ` width="${size[0]}" height="${size[1]}"` : "";
  return `<figure><figcaption>${caption}</figcaption><img alt="${caption}"${dims} loading="lazy" src="data:image/png;base64,${png.toString("base64")}"></figure>`;
}

/** One site's report: each page's before | after | diff side by side, the share changed and the verdict.
 * `image` reads an image by its path relative to the artifacts folder. */
export function siteReport(run: VisualRun, site: SiteCheck, image: (file: string) => Buffer | undefined): string {
  const section = (p: PageCheck) => {
    const read = (file: string | undefined) => (file ? image(file) : undefined);
    return `<section>
<h2><code>${html(p.path)}</code> · ${html(p.viewport)}: ${verdictCell(p.verdict)}${p.changed === null ? "" : `, ${formatShare(p.changed)} changed`}</h2>
<p>${html(p.detail)}</p>
<div class="shots">
${figure("Before", read(p.files.before), p.sizes.before)}
${figure("After", read(p.files.after), p.sizes.after)}
${figure("Diff", read(p.files.diff), p.sizes.before && p.sizes.after ? [Math.max(p.sizes.before[0], p.sizes.after[0]), Math.max(p.sizes.before[1], p.sizes.after[1])] : undefined)}
</div>
</section>`;
  };
  return page(
    `siteops visual: ${site.site.name}`,
    `<h1>${html(site.site.name)}: ${site.ok ? '<span class="passed">passed</span>' : '<span class="failed">failed</span>'}</h1>
<p class="meta">${/^https?:\/\//i.test(site.site.url) ? `<a href="${html(site.site.url)}">${html(site.site.url)}</a>` : html(site.site.url)} · ${html(site.site.id)} · ${html(siteDetail(site))}</p>
${meta(run)}
${site.pages.map(section).join("\n")}`,
  );
}
