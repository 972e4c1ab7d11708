// The console's stylesheet, script and icon, served by the emulator itself (no CDN, no external font).
// The script adds two conveniences; every form works without it.
export const CONSOLE_CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f6f7f9}
header{background:#1d2b3a;color:#fff;padding:.5rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center}
header a{color:#fff}.brand{font-weight:700;text-decoration:none}.brand small{font-weight:400;opacity:.7}
nav{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;flex:1}
nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
nav a[aria-current]{font-weight:700;text-decoration-thickness:3px}
.who{margin:0;font-size:.85rem;opacity:.8}
main{padding:1rem;max-width:72rem;margin:0 auto}
h1{font-size:1.5rem;margin:.5rem 0 1rem}h2{font-size:1.2rem;margin:1.5rem 0 .5rem}h3{font-size:1rem}
h1,h2,h3,p,.card{overflow-wrap:anywhere}
a{color:#0b57d0}a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible{outline:3px solid #f9a825;outline-offset:2px}
.table-wrap{overflow-x:auto}
table{border-collapse:collapse;width:100%;background:#fff;font-size:.95rem}
th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid #dde1e6;vertical-align:top}
th{background:#eef1f4}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85rem;word-break:break-all}
.nowrap,time{white-space:nowrap}
code.digest{display:inline-block;max-width:12ch;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;vertical-align:bottom}
form.stack{display:grid;gap:.75rem;max-width:26rem;background:#fff;padding:1rem;border:1px solid #dde1e6}
form.inline{display:inline}
label{display:grid;gap:.25rem;font-weight:600}
input,select,textarea{font:inherit;padding:.4rem;border:1px solid #8a94a0;border-radius:3px;max-width:100%}
button{font:inherit;padding:.4rem .9rem;border:1px solid #0b57d0;background:#0b57d0;color:#fff;border-radius:3px;cursor:pointer}
button.secondary{background:#fff;color:#0b57d0}button.danger{background:#b3261e;border-color:#b3261e}
header button{background:transparent;border-color:#fff;padding:.15rem .6rem}
.notice{background:#e6f4ea;border-left:4px solid #1e8e3e;padding:.5rem .75rem}
.error{background:#fce8e6;border-left:4px solid #b3261e;padding:.5rem .75rem}
.secret{background:#fff8e1;border:1px solid #f9a825;padding:.75rem;display:grid;gap:.5rem}
.badge{display:inline-block;padding:0 .5rem;border-radius:1rem;font-size:.8rem;background:#e3e7eb;white-space:nowrap}
.s-healthy,.s-completed,.s-succeeded,.s-passed,.s-enabled{background:#e6f4ea;color:#0d652d}
.s-degraded,.s-warning,.s-awaiting_approval,.s-pending,.s-requested{background:#fff4ce;color:#7a5b00}
.s-down,.s-failed,.s-rolled_back,.s-disabled,.s-critical,.s-high{background:#fce8e6;color:#a50e0e}
.s-running,.s-in_progress,.s-applying,.s-sending{background:#e8f0fe;color:#174ea6}
.muted{color:#5f6b7a}.filters{display:flex;flex-wrap:wrap;gap:.75rem;align-items:end;margin-bottom:1rem}
.filters label{max-width:100%;grid-template-columns:minmax(0,1fr)}
.steps{list-style:none;padding:0;margin:.25rem 0;display:flex;flex-wrap:wrap;gap:.25rem}
figure{margin:.5rem 0}
svg.chart{width:100%;max-width:40rem;height:auto;background:#fff;border:1px solid #dde1e6}
.card{background:#fff;border:1px solid #dde1e6;padding:.75rem 1rem;margin:.5rem 0}
@media (max-width:40rem){main{padding:.5rem}th,td{padding:.3rem}h1{font-size:1.25rem}}
`;

export const CONSOLE_JS = `
"use strict";
document.addEventListener("click", function (e) {
  var b = e.target.closest("[data-copy]");
  if (!b) return;
  var field = document.getElementById(b.getAttribute("data-copy"));
  if (!field) return;
  field.select();
  var done = function () { b.textContent = "Copied"; };
  if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand("copy"); done(); });
  else { document.execCommand("copy"); done(); }
});
// Live pages: a page with [data-live-region]s re-fetches itself and swaps them in place, every 2 s while
// something runs (body[data-live]) and every 5 s otherwise, so that work started elsewhere (a CI job, Terraform,
// cron) shows up too; not while the tab is hidden, nor while the user is typing in a field.
function refreshLater() {
  setTimeout(refresh, document.body.hasAttribute("data-live") ? 2000 : 5000);
}
function refresh() {
  var active = document.activeElement;
  if (document.hidden || (active && /INPUT|TEXTAREA|SELECT/.test(active.tagName) && active.value)) return refreshLater();
  fetch(location.href, { credentials: "same-origin", headers: { accept: "text/html" } }).then(function (r) {
    return r.ok ? r.text() : null;
  }).then(function (text) {
    if (!text) return;
    var next = new DOMParser().parseFromString(text, "text/html");
    document.querySelectorAll("[data-live-region]").forEach(function (el) {
      var fresh = next.getElementById(el.id);
      if (fresh) el.replaceWith(fresh);
    });
    document.body.toggleAttribute("data-live", next.body.hasAttribute("data-live"));
  }).catch(function () {}).then(refreshLater);
}
if (document.querySelector("[data-live-region]")) refreshLater();
`;

/** The tab icon (a list of sites on the header's colour): the pages link it, and /favicon.ico answers with it too. */
export const CONSOLE_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1d2b3a"/>' +
  '<path d="M4 4.5h8M4 8h8M4 11.5h8" stroke="#fff" stroke-width="1.6" stroke-linecap="round"/></svg>';
