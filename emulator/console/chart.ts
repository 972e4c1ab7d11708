// The health-check response-time chart: an inline SVG polyline drawn from the data, oldest on the left.
import type { HealthCheckJson } from "../../wire/health-checks.js";
import { html, utc, type Html } from "./html.js";

const W = 600;
const H = 160;
const PAD = { left: 64, right: 12, top: 12, bottom: 24 };

export function responseTimeChart(checks: HealthCheckJson[]): Html {
  const points = checks.filter((c) => c.response_time_ms !== null).map((c) => ({ t: Date.parse(c.checked_at), ms: c.response_time_ms!, status: c.status }));
  points.sort((a, b) => a.t - b.t);
  if (points.length === 0) return html`<p class="muted">No response times yet.</p>`;
  const maxMs = Math.max(...points.map((p) => p.ms), 1);
  const t0 = points[0]!.t;
  const span = Math.max(points[points.length - 1]!.t - t0, 1);
  const x = (t: number): number => PAD.left + (points.length === 1 ? (W - PAD.left - PAD.right) / 2 : ((t - t0) / span) * (W - PAD.left - PAD.right));
  const y = (ms: number): number => H - PAD.bottom - (ms / maxMs) * (H - PAD.top - PAD.bottom);
  const line = points.map((p) => `${x(p.t).toFixed(1)},${y(p.ms).toFixed(1)}`).join(" ");
  const last = points[points.length - 1]!;
  const summary = `Response times of the last ${points.length} health checks: from ${Math.min(...points.map((p) => p.ms))} to ${maxMs} ms, latest ${last.ms} ms.`;
  return html`<figure><svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${summary}">
  <line x1="${PAD.left}" y1="${H - PAD.bottom}" x2="${W - PAD.right}" y2="${H - PAD.bottom}" stroke="#8a94a0"/>
  <line x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${H - PAD.bottom}" stroke="#8a94a0"/>
  <text x="${PAD.left - 6}" y="${PAD.top + 4}" text-anchor="end" font-size="11" fill="#5f6b7a">${maxMs} ms</text>
  <text x="${PAD.left - 6}" y="${H - PAD.bottom}" text-anchor="end" font-size="11" fill="#5f6b7a">0</text>
  <text x="${PAD.left}" y="${H - 6}" font-size="11" fill="#5f6b7a">${utc(new Date(t0).toISOString(), true)}</text>
  <text x="${W - PAD.right}" y="${H - 6}" text-anchor="end" font-size="11" fill="#5f6b7a">${utc(new Date(last.t).toISOString(), true)}</text>
  <polyline fill="none" stroke="#0b57d0" stroke-width="2" points="${line}"/>
  ${points.map((p) => html`<circle cx="${x(p.t).toFixed(1)}" cy="${y(p.ms).toFixed(1)}" r="3" fill="${p.status === "passed" ? "#1e8e3e" : p.status === "warning" ? "#f9a825" : "#b3261e"}"><title>${p.ms} ms, ${p.status}</title></circle>`)}
  </svg><figcaption class="muted">${summary}</figcaption></figure>`;
}
