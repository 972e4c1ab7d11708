// Service text (site names, advisory titles and descriptions, versions, comments) made inert for what renders
// Markdown: the vulnerability report's Markdown (a pull-request comment, the action's summary) and the SARIF's
// `help.markdown`, which GitHub code scanning renders. One rule for both, so that a title which is text in one is
// never a link, an image or HTML in the other.

import { escapeInvisible, unicodeEscape } from "../../common/sanitize.js";

/** Text as Markdown text inside a line: what could open emphasis, code, a link or image (`[`, and `:` for bare
 * URLs), a table cell (`|`), HTML (`<`, `&`) or a mention (`@`) escaped, and line breaks, controls and invisible
 * characters written as escapes (the CLI's rule for service text). */
export function markdownText(text: string): string {
  return escapeInvisible(String(text), unicodeEscape)
    .replace(/&/g, "&amp;")
    .replace(/[\\`*_[\]|~!:]/g, (c) => `\\${c}`)
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/@/g, "&#64;");
}

/** Text inside a code span: backticks cannot close it, and nothing invisible or a line break is in it. */
export function markdownCode(text: string): string {
  return escapeInvisible(String(text), unicodeEscape).replace(/`/g, "'");
}
