// HTML for the console: an escaping tagged template (every interpolation is escaped unless it is
// already Html), the page layout with the navigation, and how times, sizes and digests read.
import { formatBytes } from "../../common/format.js";

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function escape(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function piece(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(piece).join("");
  if (value === null || value === undefined || value === false) return "";
  return escape(value);
}

/** `html\`<p>${name}</p>\``: interpolations are escaped; arrays are joined; Html is inserted as is. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((v, i) => (out += piece(v) + strings[i + 1]!));
  return new Html(out);
}

interface PageUser {
  name: string;
  email: string;
  role: string;
  accountName: string;
}

export interface PageOptions {
  title: string;
  user?: PageUser;
  /** Which navigation entry is current. */
  nav?: "sites" | "activity" | "webhooks" | "settings";
  /** Something runs (a snapshot, a pipeline, a delivery): the live regions refresh every 2 s instead of 5 s. */
  live?: boolean;
  /** A one-line message above the content (after a form post). */
  notice?: string;
  error?: string;
}

const NAV: [NonNullable<PageOptions["nav"]>, string, string][] = [
  ["sites", "/sites", "Sites"],
  ["activity", "/activity", "Activity"],
  ["webhooks", "/webhooks", "Webhooks"],
  ["settings", "/settings/api", "Settings"],
];

export function page(opts: PageOptions, body: Html, csrf?: string): string {
  const nav = opts.user
    ? html`<nav aria-label="Main"><ul>${NAV.map(([key, href, label]) => html`<li><a href="${href}"${opts.nav === key ? new Html(' aria-current="page"') : ""}>${label}</a></li>`)}</ul>
      <form method="post" action="/sign-out" class="inline"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit">Sign out</button></form>
      <p class="who">${opts.user.name} · ${opts.user.role} of ${opts.user.accountName}</p></nav>`
    : "";
  return `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title} · Site Operations</title><link rel="icon" href="/console/assets/icon.svg" type="image/svg+xml"><link rel="stylesheet" href="/console/assets/console.css"><script src="/console/assets/console.js" defer></script></head>
<body${opts.live ? new Html(" data-live") : ""}><header><a class="brand" href="/">Site Operations <small>emulator</small></a>${nav}</header>
<main id="main"><h1>${opts.title}</h1>
${opts.notice ? html`<p class="notice" role="status">${opts.notice}</p>` : ""}${opts.error ? html`<p class="error" role="alert">${opts.error}</p>` : ""}
${body}</main></body></html>`}`;
}

/** A compact, sortable time with its zone: `2026-11-22 23:42:47 UTC` (the API's times are UTC). */
export function time(iso: string | null | undefined): Html {
  if (!iso) return html`<span class="muted">never</span>`;
  return html`<time datetime="${iso}">${utc(iso)}</time>`;
}

/** `2026-11-22 23:42:47 UTC` from an ISO time in UTC; `minutes` stops at the minute. */
export function utc(iso: string, minutes = false): string {
  const text = iso.replace("T", " ").replace(/\.\d+Z$|Z$/, "");
  return `${minutes ? text.slice(0, 16) : text} UTC`;
}

/** A size as the CLI prints it (`144.8 MiB`, the core's formatBytes), the exact bytes in its title; on one line. */
export function size(bytes: number | null): Html {
  if (bytes === null) return html`<span class="muted">–</span>`;
  return html`<span class="nowrap" title="${bytes.toLocaleString("en")} bytes">${formatBytes(bytes)}</span>`;
}

/** A SHA-256 digest on one line, cut with an ellipsis: the whole value stays in the text (copying it copies
 * all of it) and in the title. */
export function digest(hex: string | null): Html {
  if (!hex) return html`<span class="muted">–</span>`;
  return html`<code class="digest" title="${hex}">${hex}</code>`;
}

export function badge(status: string): Html {
  return html`<span class="badge s-${status}">${status.replace(/_/g, " ")}</span>`;
}
