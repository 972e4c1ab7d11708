// /webhooks: the account's endpoints, and each recent delivery with its attempts, last status code,
// and the signature headers of its last attempt with whether they verify against the endpoint's secret.
import type { FastifyInstance } from "fastify";
import { listEndpoints } from "../services/webhook-endpoints.js";
import { listDeliveryViews } from "../services/webhook-deliveries.js";
import type { Console } from "./ui.js";
import { badge, html, page, time } from "./html.js";

const LIVE = new Set(["pending", "sending"]);

export function registerWebhooksRoutes(c: FastifyInstance, ui: Console): void {
  c.get("/webhooks", (req, reply) => {
    const user = ui.user(req, reply);
    if (!user) return reply;
    const endpoints = listEndpoints(ui.ctx, user.accountId);
    const list = endpoints.rows(Math.min(endpoints.count(), 500), 0);
    const deliveries = listDeliveryViews(ui.ctx, user.accountId);
    const body = html`<h2>Endpoints</h2>
    ${
      list.length
        ? html`<div class="table-wrap"><table><thead><tr><th scope="col">URL</th><th scope="col">Status</th><th scope="col">Events</th><th scope="col">Created</th></tr></thead><tbody>
    ${list.map(
      (
        e,
      ) => html`<tr><td><code>${e.url}</code>${e.description ? html`<br><span class="muted">${e.description}</span>` : ""}<br><span class="muted">${e.id}</span></td>
      <td>${badge(e.status)}</td><td><code>${e.enabled_events.join(", ")}</code></td><td>${time(e.created_at)}</td></tr>`,
    )}
    </tbody></table></div>`
        : html`<p class="muted">No webhook endpoints: add one with the API, the CLI or Terraform.</p>`
    }
    <section id="deliveries" data-live-region aria-labelledby="h-deliveries"><h2 id="h-deliveries">Recent deliveries</h2>
    ${
      deliveries.length
        ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last response</th><th scope="col">Signature</th><th scope="col">Updated</th></tr></thead><tbody>
    ${deliveries.map(
      (d) => html`<tr><td><code>${d.eventType}</code><br><span class="muted">${d.id} → ${d.url}</span></td><td>${badge(d.status)}</td><td>${d.attempts}</td>
      <td>${d.lastStatus ?? html`<span class="muted">–</span>`}${d.lastError ? html`<br><span class="muted">${d.lastError}</span>` : ""}</td>
      <td>${
        d.headers
          ? html`${d.signatureVerifies ? html`<span class="badge s-passed">verifies</span>` : html`<span class="badge s-failed">does not verify</span>`}
        <details><summary>Headers</summary><code>webhook-id: ${d.headers["webhook-id"]}<br>webhook-timestamp: ${d.headers["webhook-timestamp"]}<br>webhook-signature: ${d.headers["webhook-signature"]}</code></details>`
          : html`<span class="muted">not sent yet</span>`
      }</td>
      <td>${time(d.updatedAt)}</td></tr>`,
    )}
    </tbody></table></div>`
        : html`<p class="muted">No deliveries yet.</p>`
    }</section>`;
    return ui.send(reply, page({ title: "Webhooks", user, nav: "webhooks", live: deliveries.some((d) => LIVE.has(d.status)) }, body, ui.csrf(reply)));
  });
}
