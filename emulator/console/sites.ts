// /sites: every site of the account with its status, versions and open vulnerabilities by severity, 100 a page;
// filtered by status, searched by name or URL and sorted by name, status or version on the server (a GET form and
// header links, so every view is a link and works without script), which holds at 10,000 sites.
import type { FastifyInstance } from "fastify";
import type { SiteStatus } from "../../wire/sites.js";
import { listSites, searchSites, SITE_SORTS, type SiteQuery, type SiteSort } from "../services/sites.js";
import { listRecords } from "../services/vulnerability-records.js";
import type { Console } from "./ui.js";
import { badge, html, page, time } from "./html.js";

const SEVERITIES = ["critical", "high", "medium", "low"] as const;
/** The console lists this many sites per page. */
const SITES_PER_PAGE = 100;

export function openVulnerabilities(ui: Console, siteId: string): Record<(typeof SEVERITIES)[number], number> {
  const counts = { critical: 0, high: 0, medium: 0, low: 0 };
  const open = listRecords(ui.ctx, siteId, "open");
  for (const r of open.rows(open.count(), 0)) counts[r.severity] += 1;
  return counts;
}

export function vulnerabilityCells(counts: Record<(typeof SEVERITIES)[number], number>): ReturnType<typeof html> {
  return html`${SEVERITIES.map((s) => html`<td>${counts[s] ? html`<span class="badge s-${s}">${counts[s]}</span>` : html`<span class="muted">0</span>`}</td>`)}`;
}

type Query = { page?: string; status?: string; q?: string; sort?: string; dir?: string };

const STATUSES: readonly SiteStatus[] = ["healthy", "degraded", "down", "maintenance", "unknown"];
/** The status filter's choices: every status, the two that need a person, then each status. */
const STATUS_CHOICES: [string, string][] = [
  ["", "All statuses"],
  ["degraded,down", "Needs attention (degraded or down)"],
  ...STATUSES.map((s) => [s, s] as [string, string]),
];
/** The sortable columns, by the header that sorts them. */
const SORTABLE: [SiteSort, string][] = [
  ["name", "Site"],
  ["status", "Status"],
  ["wp_version", "WordPress"],
  ["php_version", "PHP"],
];
const MAX_SEARCH = 200;

/** The query as a SiteQuery, or the one line that says what is wrong with it. */
function siteQuery(q: Query): SiteQuery | string {
  const statuses = [
    ...new Set(
      (q.status ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  const unknown = statuses.filter((s) => !(STATUSES as readonly string[]).includes(s));
  if (unknown.length) return `Unknown status ${unknown.map((s) => JSON.stringify(s)).join(", ")}: use ${STATUSES.join(", ")}.`;
  const text = (q.q ?? "").trim();
  if (text.length > MAX_SEARCH) return `Search for at most ${MAX_SEARCH} characters.`;
  if (q.sort && !(SITE_SORTS as readonly string[]).includes(q.sort)) return `Unknown sort "${q.sort}": use ${SITE_SORTS.join(", ")}.`;
  if (q.dir && q.dir !== "asc" && q.dir !== "desc") return 'Sort direction is "asc" or "desc".';
  return { statuses: statuses as SiteStatus[], text, sort: (q.sort as SiteSort | undefined) ?? null, descending: q.dir === "desc" };
}

export function registerSitesRoutes(c: FastifyInstance, ui: Console): void {
  c.get<{ Querystring: Query }>("/sites", (req, reply) => {
    const user = ui.user(req, reply);
    if (!user) return reply;
    const parsed = siteQuery(req.query);
    const error = typeof parsed === "string" ? parsed : undefined;
    const query: SiteQuery = typeof parsed === "string" ? { statuses: [], text: "", sort: null, descending: false } : parsed;
    const all = listSites(ui.ctx, user.accountId).count();
    const filtered = query.statuses.length > 0 || query.text !== "";
    const source = searchSites(ui.ctx, user.accountId, query);
    const total = source.count();
    const pages = Math.max(1, Math.ceil(total / SITES_PER_PAGE));
    const current = Math.min(Math.max(1, Number.parseInt(req.query.page ?? "1", 10) || 1), pages);
    const sites = source.rows(SITES_PER_PAGE, (current - 1) * SITES_PER_PAGE);
    // A link to this list with some of its parameters changed (a new filter or sort starts at page 1).
    const state = { status: query.statuses.join(","), q: query.text, sort: query.sort ?? "", dir: query.descending ? "desc" : "" };
    const link = (change: Partial<typeof state> & { page?: number }): string => {
      const params = Object.entries({ ...state, ...change }).filter(([k, v]) => v !== "" && !(k === "page" && v === 1));
      return params.length ? `/sites?${new URLSearchParams(params.map(([k, v]) => [k, String(v)] as [string, string])).toString()}` : "/sites";
    };
    const header = ([sort, label]: [SiteSort, string]) => {
      const on = query.sort === sort;
      const aria = on ? html` aria-sort="${query.descending ? "descending" : "ascending"}"` : "";
      const next = on && !query.descending ? "desc" : "";
      return html`<th scope="col"${aria}><a href="${link({ sort, dir: next })}">${label}</a>${on ? html` <span aria-hidden="true">${query.descending ? "▼" : "▲"}</span>` : ""}</th>`;
    };
    const rows = sites.map(
      (s) => html`<tr><td><a href="/sites/${s.id}">${s.name}</a><br><span class="muted">${s.url}</span></td>
      <td>${badge(s.status)}</td><td>${s.wp_version}</td><td>${s.php_version}</td>${vulnerabilityCells(openVulnerabilities(ui, s.id))}<td>${time(s.updated_at)}</td></tr>`,
    );
    const choices = STATUS_CHOICES.some(([v]) => v === state.status) ? STATUS_CHOICES : [...STATUS_CHOICES, [state.status, state.status] as [string, string]];
    const filters = html`<form method="get" action="/sites" class="filters" role="search" aria-label="Filter the sites">
    <label>Search <input type="search" name="q" value="${query.text}" placeholder="name or URL" size="30" maxlength="${MAX_SEARCH}"></label>
    <label>Status <select name="status">${choices.map(([v, label]) => html`<option value="${v}"${v === state.status ? html` selected` : ""}>${label}</option>`)}</select></label>
    ${query.sort ? html`<input type="hidden" name="sort" value="${query.sort}">` : ""}${query.descending ? html`<input type="hidden" name="dir" value="desc">` : ""}
    <button type="submit">Filter</button> ${filtered || query.sort ? html`<a href="/sites">Clear</a>` : ""}</form>`;
    const count = filtered
      ? html`<p role="status">${total} of ${all} site${all === 1 ? "" : "s"} in ${user.accountName} match.</p>`
      : html`<p>${all} site${all === 1 ? "" : "s"} in ${user.accountName}.</p>`;
    const body = html`${all ? filters : ""}${count}
    ${
      total
        ? html`<div class="table-wrap"><table><caption class="muted">Open vulnerabilities by severity</caption>
    <thead><tr>${SORTABLE.map(header)}
    <th scope="col">Critical</th><th scope="col">High</th><th scope="col">Medium</th><th scope="col">Low</th><th scope="col">Updated</th></tr></thead>
    <tbody>${rows}</tbody></table></div>`
        : all
          ? html`<p class="muted">No site matches. <a href="/sites">Show every site</a>.</p>`
          : html`<p class="muted">No sites yet: create one with Terraform, the CLI or the API.</p>`
    }
    ${
      pages > 1
        ? html`<nav aria-label="Pages"><p>Page ${current} of ${pages}
      ${current > 1 ? html`<a href="${link({ page: current - 1 })}">Previous</a>` : ""} ${current < pages ? html`<a href="${link({ page: current + 1 })}">Next</a>` : ""}</p></nav>`
        : ""
    }`;
    return ui.send(reply, page({ title: "Sites", user, nav: "sites", error }, body, ui.csrf(reply)), error ? 400 : 200);
  });
}
