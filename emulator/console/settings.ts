// Settings -> API: the signed-in user's own API tokens (name, created, last used, prefix), create one
// (its value shown once, with a copy button), delete one (the next API call with it gets 401).
import type { FastifyInstance } from "fastify";
import { issueApiToken, listOwnApiTokens, revokeOwnApiToken } from "../services/api-tokens.js";
import type { Console } from "./ui.js";
import { html, page, time, type Html } from "./html.js";
import { originOfUser, type ConsoleUser } from "./session.js";

const NAME_MAX = 100;

function tokensPage(
  ui: Console,
  user: ConsoleUser,
  csrf: string,
  extra: { created?: { name: string; token: string }; notice?: string; error?: string } = {},
): string {
  const tokens = listOwnApiTokens(ui.ctx, user.accountId, user.userId);
  const created: Html | "" = extra.created
    ? html`<section class="secret" aria-labelledby="new-token"><h2 id="new-token">Your new token “${extra.created.name}”</h2>
      <p>Copy it now: this is the only time it is shown. Use it as <code>SITEOPS_API_TOKEN</code> (CLI, provider, action).</p>
      <label>Token <input id="new-token-value" class="mono" readonly value="${extra.created.token}" size="48"></label>
      <p><button type="button" data-copy="new-token-value">Copy</button></p></section>`
    : "";
  const rows = tokens.map(
    (t) => html`<tr><td>${t.name}</td><td><code>${t.token_prefix ? `${t.token_prefix}…` : "(created before prefixes were kept)"}</code></td>
    <td>${time(t.created_at)}</td><td>${time(t.last_used_at)}</td>
    <td><form method="post" action="/settings/api/tokens/${t.id}/delete" class="inline"><input type="hidden" name="_csrf" value="${csrf}">
    <button type="submit" class="danger" aria-label="Delete token ${t.name}">Delete</button></form></td></tr>`,
  );
  const body = html`${created}
  <p>API tokens act as you in <strong>${user.accountName}</strong> with your role (${user.role}). They are listed here by name and prefix only.</p>
  <h2>Your tokens</h2>
  ${
    tokens.length
      ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col">Token</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
  <tbody>${rows}</tbody></table></div>`
      : html`<p class="muted">You have no API tokens.</p>`
  }
  <h2>Create a token</h2>
  <form method="post" action="/settings/api/tokens" class="stack"><input type="hidden" name="_csrf" value="${csrf}">
  <label>Token name <input name="name" required maxlength="${NAME_MAX}" placeholder="e.g. GitHub Actions"></label>
  <button type="submit">Create token</button></form>`;
  return page({ title: "Settings → API", user, nav: "settings", notice: extra.notice, error: extra.error }, body, csrf);
}

export function registerSettingsRoutes(c: FastifyInstance, ui: Console): void {
  c.get("/settings", (req, reply) => reply.redirect("/settings/api", 303));

  c.get("/settings/api", (req, reply) => {
    const user = ui.user(req, reply);
    if (!user) return reply;
    return ui.send(reply, tokensPage(ui, user, ui.csrf(reply)));
  });

  c.post("/settings/api/tokens", (req, reply) => {
    const user = ui.user(req, reply);
    if (!user) return reply;
    const raw = (req.body as Record<string, unknown> | undefined)?.name;
    const name = typeof raw === "string" ? raw.trim() : "";
    if (!name || name.length > NAME_MAX) {
      return ui.send(reply, tokensPage(ui, user, ui.csrf(reply), { error: `Token name must be 1 to ${NAME_MAX} characters.` }), 422);
    }
    const { token } = issueApiToken(ui.ctx, user.accountId, name, originOfUser(user, req));
    // Rendered in the POST's response only: a reload or the back button never shows it again.
    return ui.send(reply, tokensPage(ui, user, ui.csrf(reply), { created: { name, token } }), 201);
  });

  c.post<{ Params: { id: string } }>("/settings/api/tokens/:id/delete", (req, reply) => {
    const user = ui.user(req, reply);
    if (!user) return reply;
    revokeOwnApiToken(ui.ctx, user.accountId, user.userId, req.params.id, originOfUser(user, req));
    return ui.send(reply, tokensPage(ui, user, ui.csrf(reply), { notice: "Token deleted: API requests with it are refused from now on." }));
  });
}
