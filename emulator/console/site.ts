// /sites/:id: health checks (with the response-time chart), snapshots, upgrade pipelines with their
// steps, and Approve on a pipeline awaiting approval (owners and admins; the API's own service call).
import type { FastifyInstance } from "fastify";
import { forbidden } from "../errors.js";
import { listHealthChecks } from "../services/health-checks.js";
import { getSite, loadSite } from "../services/sites.js";
import { listSnapshots } from "../services/snapshots.js";
import { approvePipeline, listPipelines, loadPipeline } from "../services/upgrade-pipelines.js";
import type { UpgradePipelineJson } from "../../wire/upgrade-pipelines.js";
import { responseTimeChart } from "./chart.js";
import type { Console } from "./ui.js";
import { badge, digest, html, page, size, time } from "./html.js";
import { canApprove, originOfUser, type ConsoleUser } from "./session.js";
import { openVulnerabilities, vulnerabilityCells } from "./sites.js";

const SHOWN = 20;
const RUNNING = new Set(["requested", "in_progress", "pending", "running", "applying"]);
const COMMENT_MAX = 1000;

function pipelineCard(p: UpgradePipelineJson, siteId: string, user: ConsoleUser, csrf: string): ReturnType<typeof html> {
  const approve =
    p.status === "awaiting_approval" && canApprove(user)
      ? html`<form method="post" action="/sites/${siteId}/pipelines/${p.id}/approve" class="stack">
      <input type="hidden" name="_csrf" value="${csrf}">
      <label>Comment (optional) <textarea name="comment" rows="2" maxlength="${COMMENT_MAX}"></textarea></label>
      <button type="submit">Approve upgrade</button></form>`
      : p.status === "awaiting_approval"
        ? html`<p class="muted">Waiting for an owner or admin to approve.</p>`
        : "";
  return html`<article class="card" id="pipeline-${p.id}"><h3>${p.id} ${badge(p.status)}</h3>
  <p>WordPress ${p.from_wp_version} → ${p.to_wp_version}, PHP ${p.from_php_version} → ${p.to_php_version}. Opened ${time(p.created_at)}.
  ${p.approved_at ? html`Approved ${time(p.approved_at)}${p.comment ? html`: “${p.comment}”` : ""}.` : ""} ${p.error ? html`<span class="error">${p.error}</span>` : ""}</p>
  <ol class="steps" aria-label="Steps">${p.steps.map((s) => html`<li>${s.name} ${badge(s.status)}</li>`)}</ol>${approve}</article>`;
}

function sitePage(ui: Console, user: ConsoleUser, siteId: string, csrf: string, extra: { notice?: string; error?: string } = {}): string {
  const site = getSite(ui.ctx, user.accountId, siteId);
  const checks = listHealthChecks(ui.ctx, site.id).rows(50, 0);
  const snapshots = listSnapshots(ui.ctx, site.id).rows(SHOWN, 0);
  const pipelines = listPipelines(ui.ctx, site.id).rows(SHOWN, 0);
  const live = snapshots.some((s) => RUNNING.has(s.status)) || pipelines.some((p) => RUNNING.has(p.status));
  const body = html`<p><a href="${site.url}" rel="noreferrer">${site.url}</a> ${badge(site.status)} WordPress ${site.wp_version}, PHP ${site.php_version}</p>
  <div class="table-wrap"><table><caption class="muted">Open vulnerabilities</caption><thead><tr><th scope="col">Critical</th><th scope="col">High</th><th scope="col">Medium</th><th scope="col">Low</th></tr></thead>
  <tbody><tr>${vulnerabilityCells(openVulnerabilities(ui, site.id))}</tr></tbody></table></div>
  <section id="pipelines" data-live-region aria-labelledby="h-pipelines"><h2 id="h-pipelines">Upgrade pipelines</h2>
  ${pipelines.length ? pipelines.map((p) => pipelineCard(p, site.id, user, csrf)) : html`<p class="muted">No upgrade pipelines.</p>`}</section>
  <section id="snapshots" data-live-region aria-labelledby="h-snapshots"><h2 id="h-snapshots">Snapshots</h2>
  ${
    snapshots.length
      ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Snapshot</th><th scope="col">Status</th><th scope="col">Source</th><th scope="col">Size</th><th scope="col">SHA-256</th><th scope="col">Created</th></tr></thead><tbody>
  ${snapshots.map(
    (
      s,
    ) => html`<tr><td>${s.id}<br><span class="muted">${s.trigger}${s.description ? ` · ${s.description}` : ""}</span></td><td>${badge(s.status)}${s.error ? html`<br>${s.error}` : ""}</td><td>${s.source}</td>
    <td>${size(s.size_bytes)}</td><td>${digest(s.checksum_sha256)}</td><td>${time(s.created_at)}</td></tr>`,
  )}
  </tbody></table></div>`
      : html`<p class="muted">No snapshots.</p>`
  }</section>
  <section id="health" data-live-region aria-labelledby="h-health"><h2 id="h-health">Health checks</h2>${responseTimeChart(checks)}
  ${
    checks.length
      ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Checked</th><th scope="col">Status</th><th scope="col">HTTP</th><th scope="col">Response</th></tr></thead><tbody>
  ${checks.slice(0, 10).map((h) => html`<tr><td>${time(h.checked_at)}</td><td>${badge(h.status)}</td><td>${h.http_status ?? "–"}</td><td>${h.response_time_ms === null ? "–" : `${h.response_time_ms} ms`}</td></tr>`)}
  </tbody></table></div>`
      : ""
  }</section>`;
  return page({ title: site.name, user, nav: "sites", live, ...extra }, body, csrf);
}

export function registerSiteRoutes(c: FastifyInstance, ui: Console): void {
  c.get<{ Params: { id: string } }>("/sites/:id", (req, reply) => {
    const user = ui.user(req, reply);
    if (!user) return reply;
    return ui.send(reply, sitePage(ui, user, req.params.id, ui.csrf(reply)));
  });

  c.post<{ Params: { id: string; pipeline: string } }>("/sites/:id/pipelines/:pipeline/approve", (req, reply) => {
    const user = ui.user(req, reply);
    if (!user) return reply;
    // As POST /api/v1/sites/:site_id/upgrade_pipelines/:id/approve: 404 outside the account, 403 for a member.
    const row = loadPipeline(ui.ctx, loadSite(ui.ctx, user.accountId, req.params.id).id, req.params.pipeline);
    if (!canApprove(user)) throw forbidden();
    const raw = (req.body as Record<string, unknown> | undefined)?.comment;
    const comment = typeof raw === "string" && raw.trim() ? raw.trim().slice(0, COMMENT_MAX) : null;
    const approved = approvePipeline(ui.ctx, row, user.userId, comment, originOfUser(user, req));
    return ui.send(reply, sitePage(ui, user, req.params.id, ui.csrf(reply), { notice: `Pipeline ${approved.id} approved.` }));
  });
}
