// Text from the service (site names, descriptions, error messages) is data, not terminal or log input: anyone
// who can rename a site must not be able to start a line of their own (forged log lines, `::warning::` workflow
// commands in a GitHub Actions log, where `core.info` escapes nothing), move the cursor or change colours.
// The CLI (tables, progress, errors) and the GitHub Action (log, annotations, job summary, outputs) print
// every such string through `clean`/`inertLine`, and JSON through `safeJson`: one implementation for both.

// What no service text prints raw (docs/design.md, "Input: control and invisible characters"; the API refuses the
// same in what it stores, wire/common.ts TEXT_PATTERN, and a test holds the two equal): C0 controls, DEL, C1
// controls (0x9b is an 8-bit CSI), line/paragraph separators, the bidirectional marks, embeddings, overrides and
// isolates (which reorder what is shown, "Trojan Source"), invisible format characters, tag characters and lone
// surrogates. ZWNJ and ZWJ (U+200C, U+200D) print as they are: emoji sequences and some scripts need them.
const HIDDEN = "\\u061c\\u180e\\u200b\\u200e\\u200f\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufeff\\ufff9-\\ufffb\\u{e0000}-\\u{e007f}";
const LONE_SURROGATE = "\\ud800-\\udfff"; // with the `u` flag only an unpaired half matches
const UNSAFE = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${HIDDEN}${LONE_SURROGATE}]`, "gu");
const UNSAFE_IN_CODE = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f\\u200c\\u200d${HIDDEN}${LONE_SURROGATE}]`, "gu");
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** `\u200e`, `\u{e0041}` (beyond the BMP), `\ud800` (a lone surrogate). */
export function unicodeEscape(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** `text` with each character of UNSAFE, and ZWNJ and ZWJ, replaced by `by(char)`: generated code (`siteops
 * export`) never holds one raw, since a reviewer cannot see it in a committed file. */
export function escapeInvisible(text: string, by: (char: string) => string): string {
  return text.replace(UNSAFE_IN_CODE, by);
}

function escape(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : unicodeEscape(char);
}

/** The text with every control character shown as an escape (`\n`, `\x1b`, `\u202e`): one line, inert. A
 * `##[` (the runner's older command syntax, which it finds anywhere in a line) gets its bracket escaped. */
export function clean(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  return text.replace(UNSAFE, escape).replaceAll("##[", "##\\x5b");
}

/** One log line made of service data: `clean`, and no workflow command at its start. */
export function inertLine(value: unknown): string {
  return guardLine(clean(value));
}

/** A line that would start a GitHub Actions workflow command (`::name ...::`, after any leading whitespace,
 * which the runner trims) gets its first colon escaped. */
export function guardLine(line: string): string {
  return line.replace(/^(\s*):(?=:)/, "$1\\x3a");
}

// JSON.stringify escapes C0 controls and lone surrogates itself; these it leaves raw.
const UNSAFE_IN_JSON = new RegExp(`[\\u007f-\\u009f${HIDDEN}]`, "gu");

/** JSON text of `value` in which no character can act on a terminal or a runner's log (still valid JSON, same
 * value: `##[` can only occur inside a string, where `\u005b` is the same bracket). */
export function safeJson(value: unknown, indent?: number): string {
  return (JSON.stringify(value, null, indent) ?? "null")
    .replace(UNSAFE_IN_JSON, (c) =>
      c
        .split("")
        .map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`)
        .join(""),
    )
    .replaceAll("##[", "##\\u005b");
}
