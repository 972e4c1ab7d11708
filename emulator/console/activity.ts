// /activity: the account's activity log, newest first, with the API's filters (site, action or
// `prefix.*`, since, until) as a GET form, so a filtered view is a link.
import type { FastifyInstance } from "fastify";
import { HttpError } from "../errors.js";
import { timeParam } from "../routes/activity-logs.js";
import { listActivity } from "../services/activity-logs.js";
import { listSites } from "../services/sites.js";
import type { Console } from "./ui.js";
import { html, page, time } from "./html.js";

const PER_PAGE = 50;
type Query = { site_id?: string; action?: string; since?: string; until?: string; page?: string };

export function registerActivityRoutes(c: FastifyInstance, ui: Console): void {
  c.get<{ Querystring: Query }>("/activity", (req, reply) => {
    const user = ui.user(req, reply);
    if (!user) return reply;
    const q = req.query;
    const sites = listSites(ui.ctx, user.accountId);
    const siteList = sites.rows(Math.min(sites.count(), 500), 0);
    const names = new Map(siteList.map((s) => [s.id, s.name]));
    let error: string | undefined;
    let entries: ReturnType<ReturnType<typeof listActivity>["rows"]> = [];
    let total = 0;
    const current = Math.max(1, Number.parseInt(q.page ?? "1", 10) || 1);
    try {
      const action = q.action?.trim() || null;
      const prefix = action?.endsWith(".*") ? action.slice(0, -1) : null;
      const source = listActivity(ui.ctx, {
        accountId: user.accountId,
        siteId: q.site_id || null,
        action: prefix ? null : action,
        prefix,
        since: timeParam("since", q.since),
        until: timeParam("until", q.until),
      });
      total = source.count();
      entries = source.rows(PER_PAGE, (current - 1) * PER_PAGE);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      error = String(err.body.error);
    }
    const link = (p: number): string => `/activity?${new URLSearchParams({ ...q, page: String(p) } as Record<string, string>).toString()}`;
    const body = html`<form method="get" action="/activity" class="filters" role="search" aria-label="Filter the activity log">
    <label>Site <select name="site_id"><option value="">All sites</option>${siteList.map((s) => html`<option value="${s.id}"${s.id === q.site_id ? html` selected` : ""}>${s.name}</option>`)}</select></label>
    <label>Action <input name="action" value="${q.action ?? ""}" placeholder="snapshot.* or site.updated" size="30"></label>
    <label>Since <input name="since" value="${q.since ?? ""}" placeholder="2026-01-01T00:00:00Z" size="24"></label>
    <label>Until <input name="until" value="${q.until ?? ""}" placeholder="ISO 8601 time" size="24"></label>
    <button type="submit">Filter</button> <a href="/activity">Clear</a></form>
    <p>${total} entr${total === 1 ? "y" : "ies"}.</p>
    ${
      entries.length
        ? html`<div class="table-wrap"><table><thead><tr><th scope="col">When</th><th scope="col">Action</th><th scope="col">Actor</th><th scope="col">Subject</th><th scope="col">Site</th><th scope="col">Request</th></tr></thead><tbody>
    ${entries.map(
      (
        e,
      ) => html`<tr><td>${time(e.created_at)}</td><td><code>${e.action}</code>${e.changes ? html`<br><code class="muted">${JSON.stringify(e.changes)}</code>` : ""}</td>
      <td>${e.actor.name} <span class="muted">(${e.actor.type.replace("_", " ")})</span></td><td>${e.subject_type} <code>${e.subject_id ?? ""}</code></td>
      <td>${e.site_id ? html`<a href="/sites/${e.site_id}">${names.get(e.site_id) ?? e.site_id}</a>` : ""}</td><td><code class="muted">${e.ip_address ?? ""} ${e.request_id ?? ""}</code></td></tr>`,
    )}
    </tbody></table></div>`
        : ""
    }
    <nav aria-label="Pages"><p>${current > 1 ? html`<a href="${link(current - 1)}">Newer</a>` : ""} ${current * PER_PAGE < total ? html`<a href="${link(current + 1)}">Older</a>` : ""}</p></nav>`;
    return ui.send(reply, page({ title: "Activity", user, nav: "activity", error }, body, ui.csrf(reply)), error ? 400 : 200);
  });
}
