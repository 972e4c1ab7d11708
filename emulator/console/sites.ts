// /sites: every site of the account with its status, versions and open vulnerabilities by severity.
import type { FastifyInstance } from "fastify";
import { listSites } from "../services/sites.js";
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

export function registerSitesRoutes(c: FastifyInstance, ui: Console): void {
  c.get<{ Querystring: { page?: string } }>("/sites", (req, reply) => {
    const user = ui.user(req, reply);
    if (!user) return reply;
    const source = listSites(ui.ctx, user.accountId);
    const total = source.count();
    const pages = Math.max(1, Math.ceil(total / SITES_PER_PAGE));
    const current = Math.min(Math.max(1, Number.parseInt(req.query.page ?? "1", 10) || 1), pages);
    const sites = source.rows(SITES_PER_PAGE, (current - 1) * SITES_PER_PAGE);
    const rows = sites.map(
      (s) => html`<tr><td><a href="/sites/${s.id}">${s.name}</a><br><span class="muted">${s.url}</span></td>
      <td>${badge(s.status)}</td><td>${s.wp_version}</td><td>${s.php_version}</td>${vulnerabilityCells(openVulnerabilities(ui, s.id))}<td>${time(s.updated_at)}</td></tr>`,
    );
    const body = html`<p>${total} site${total === 1 ? "" : "s"} in ${user.accountName}.</p>
    ${
      total
        ? html`<div class="table-wrap"><table><caption class="muted">Open vulnerabilities by severity</caption>
    <thead><tr><th scope="col">Site</th><th scope="col">Status</th><th scope="col">WordPress</th><th scope="col">PHP</th>
    <th scope="col">Critical</th><th scope="col">High</th><th scope="col">Medium</th><th scope="col">Low</th><th scope="col">Updated</th></tr></thead>
    <tbody>${rows}</tbody></table></div>`
        : html`<p class="muted">No sites yet: create one with Terraform, the CLI or the API.</p>`
    }
    ${
      pages > 1
        ? html`<nav aria-label="Pages"><p>Page ${current} of ${pages}
      ${current > 1 ? html`<a href="/sites?page=${current - 1}">Previous</a>` : ""} ${current < pages ? html`<a href="/sites?page=${current + 1}">Next</a>` : ""}</p></nav>`
        : ""
    }`;
    return ui.send(reply, page({ title: "Sites", user, nav: "sites" }, body, ui.csrf(reply)));
  });
}
